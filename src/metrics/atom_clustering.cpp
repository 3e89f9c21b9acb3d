#include "geomsim/metrics/atom_clustering.hpp"

#include <algorithm>
#include <numeric>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

int find_root(std::vector<int>& parent, int i) {
  while (parent[static_cast<std::size_t>(i)] != i) {
    parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    i = parent[static_cast<std::size_t>(i)];
  }
  return i;
}

ClassAtoms cluster_class(const Matrix& points, const std::vector<Index>& members, int label, double tolerance) {
  const int n = static_cast<int>(members.size());
  std::vector<int> parent(static_cast<std::size_t>(n));
  std::iota(parent.begin(), parent.end(), 0);
  const double tol2 = tolerance * tolerance;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if ((points.col(members[static_cast<std::size_t>(a)]) - points.col(members[static_cast<std::size_t>(b)]))
              .squaredNorm() <= tol2) {
        parent[static_cast<std::size_t>(find_root(parent, a))] = find_root(parent, b);
      }
    }
  }
  // Number atoms by decreasing size, ties by first member, so the output is stable.
  std::vector<int> root(static_cast<std::size_t>(n));
  std::vector<Index> size(static_cast<std::size_t>(n), 0);
  for (int a = 0; a < n; ++a) {
    root[static_cast<std::size_t>(a)] = find_root(parent, a);
    ++size[static_cast<std::size_t>(root[static_cast<std::size_t>(a)])];
  }
  std::vector<int> roots;
  for (int a = 0; a < n; ++a) {
    if (root[static_cast<std::size_t>(a)] == a) roots.push_back(a);
  }
  std::stable_sort(roots.begin(), roots.end(), [&](int x, int y) {
    return size[static_cast<std::size_t>(x)] > size[static_cast<std::size_t>(y)];
  });
  std::vector<int> atom_index(static_cast<std::size_t>(n), -1);
  ClassAtoms out;
  out.label = label;
  for (std::size_t k = 0; k < roots.size(); ++k) {
    atom_index[static_cast<std::size_t>(roots[k])] = static_cast<int>(k);
    out.atom_sizes.push_back(size[static_cast<std::size_t>(roots[k])]);
  }
  for (int a = 0; a < n; ++a) out.atom_of_point.push_back(atom_index[static_cast<std::size_t>(root[static_cast<std::size_t>(a)])]);
  return out;
}

std::string sizes_text(const ClassAtoms& c) {
  std::string s;
  for (std::size_t k = 0; k < c.atom_sizes.size(); ++k) s += (k ? "+" : "") + std::to_string(c.atom_sizes[k]);
  return s;
}

}  // namespace

std::string to_string(GeometryKind kind) {
  switch (kind) {
    case GeometryKind::kCollapsed: return "collapsed";
    case GeometryKind::kAtoms: return "atoms";
    case GeometryKind::kContinuous: return "continuous";
  }
  return "continuous";
}

GeometrySummary summarize_geometry(const Matrix& points, const std::vector<int>& labels, double tolerance) {
  require_positive("cluster-tol", tolerance);
  const int K = validate_labels(labels);
  if (static_cast<Index>(labels.size()) != points.cols()) {
    throw InvalidArgument("labels", "must have one entry per point (" + std::to_string(points.cols()) + ")");
  }
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(K));
  for (std::size_t i = 0; i < labels.size(); ++i) members[static_cast<std::size_t>(labels[i])].push_back(static_cast<Index>(i));

  GeometrySummary summary;
  summary.tolerance = tolerance;
  bool all_single = true, all_clumped = true;
  for (int k = 0; k < K; ++k) {
    summary.classes.push_back(cluster_class(points, members[static_cast<std::size_t>(k)], k, tolerance));
    const auto atoms = summary.classes.back().atom_sizes.size();
    all_single = all_single && atoms == 1;
    all_clumped = all_clumped && 2 * atoms <= members[static_cast<std::size_t>(k)].size();
  }
  summary.kind = all_single ? GeometryKind::kCollapsed : all_clumped ? GeometryKind::kAtoms : GeometryKind::kContinuous;
  return summary;
}

std::string GeometrySummary::describe() const {
  std::string per_class;
  bool same_count = true;
  for (const auto& c : classes) {
    per_class += (per_class.empty() ? "" : " | ") + sizes_text(c);
    same_count = same_count && c.atom_sizes.size() == classes.front().atom_sizes.size();
  }
  switch (kind) {
    case GeometryKind::kCollapsed:
      return "collapsed: every class is a single point";
    case GeometryKind::kAtoms:
      if (same_count) {
        return "split into " + std::to_string(classes.front().atom_sizes.size()) + " atoms per class (sizes " +
               per_class + ")";
      }
      return "split into atoms (sizes " + per_class + ")";
    case GeometryKind::kContinuous: {
      std::string counts;
      for (const auto& c : classes) counts += (counts.empty() ? "" : ", ") + std::to_string(c.atom_sizes.size());
      return "continuous: " + counts + " distinct positions per class";
    }
  }
  return {};
}

}  // namespace geomsim
