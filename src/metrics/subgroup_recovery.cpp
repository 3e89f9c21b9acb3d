#include "geomsim/metrics/subgroup_recovery.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {

std::vector<int> kmeans(const Matrix& points, int k, std::uint64_t seed, int max_iterations) {
  const Index n = points.cols();
  if (k < 1 || k > n) throw InvalidArgument("k", "must be in [1, " + std::to_string(n) + "], got " + std::to_string(k));
  Rng rng(seed);
  // k-means++: each next centre with probability proportional to the squared distance.
  Matrix centres(points.rows(), k);
  centres.col(0) = points.col(static_cast<Index>(rng.uniform() * static_cast<double>(n)));
  Vector nearest = (points.colwise() - centres.col(0)).colwise().squaredNorm().transpose();
  for (int c = 1; c < k; ++c) {
    const double total = nearest.sum();
    Index pick = 0;
    if (total > 0) {
      double u = rng.uniform() * total;
      while (pick + 1 < n && u >= nearest[pick]) u -= nearest[pick++];
    }
    centres.col(c) = points.col(pick);
    nearest = nearest.cwiseMin((points.colwise() - centres.col(c)).colwise().squaredNorm().transpose());
  }
  std::vector<int> assignment(static_cast<std::size_t>(n), -1);
  for (int iteration = 0; iteration < max_iterations; ++iteration) {
    bool changed = false;
    for (Index i = 0; i < n; ++i) {
      int best = 0;
      double best_d = std::numeric_limits<double>::infinity();
      for (int c = 0; c < k; ++c) {
        const double d = (points.col(i) - centres.col(c)).squaredNorm();
        if (d < best_d) {
          best_d = d;
          best = c;
        }
      }
      changed = changed || assignment[static_cast<std::size_t>(i)] != best;
      assignment[static_cast<std::size_t>(i)] = best;
    }
    if (!changed) break;
    Matrix sums = Matrix::Zero(points.rows(), k);
    std::vector<Index> counts(static_cast<std::size_t>(k), 0);
    for (Index i = 0; i < n; ++i) {
      sums.col(assignment[static_cast<std::size_t>(i)]) += points.col(i);
      ++counts[static_cast<std::size_t>(assignment[static_cast<std::size_t>(i)])];
    }
    for (int c = 0; c < k; ++c) {
      if (counts[static_cast<std::size_t>(c)] > 0) centres.col(c) = sums.col(c) / static_cast<double>(counts[static_cast<std::size_t>(c)]);
    }
  }
  return assignment;
}

SubgroupRecovery subgroup_recovery(const Matrix& points, const std::vector<int>& labels,
                                   const std::vector<int>& subclass_labels, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(points.cols());
  if (labels.size() != n || subclass_labels.size() != n) {
    throw InvalidArgument("labels", "need one class and one subclass label per point (" + std::to_string(n) + ")");
  }
  const int K = count_label_ids(labels, "labels");
  const int Z = count_label_ids(subclass_labels, "subclass_labels");
  SubgroupRecovery out;
  out.f1_per_subclass.assign(static_cast<std::size_t>(Z), 0.0);
  for (int y = 0; y < K; ++y) {
    std::vector<Index> members;
    std::map<int, int> subclasses;  // subclass id -> count
    for (std::size_t i = 0; i < n; ++i) {
      if (labels[i] == y) {
        members.push_back(static_cast<Index>(i));
        ++subclasses[subclass_labels[i]];
      }
    }
    Matrix block(points.rows(), static_cast<Index>(members.size()));
    for (std::size_t m = 0; m < members.size(); ++m) block.col(static_cast<Index>(m)) = points.col(members[m]);
    const int k = static_cast<int>(subclasses.size());
    const auto clusters = kmeans(block, k, seed + static_cast<std::uint64_t>(y));
    std::vector<int> cluster_size(static_cast<std::size_t>(k), 0);
    for (int c : clusters) ++cluster_size[static_cast<std::size_t>(c)];
    for (const auto& [z, size] : subclasses) {
      std::vector<int> overlap(static_cast<std::size_t>(k), 0);
      for (std::size_t m = 0; m < members.size(); ++m) {
        if (subclass_labels[static_cast<std::size_t>(members[m])] == z) ++overlap[static_cast<std::size_t>(clusters[m])];
      }
      double best = 0.0;
      for (int c = 0; c < k; ++c) {
        const double both = overlap[static_cast<std::size_t>(c)];
        if (both > 0) best = std::max(best, 2.0 * both / (size + cluster_size[static_cast<std::size_t>(c)]));
      }
      out.f1_per_subclass[static_cast<std::size_t>(z)] = best;
    }
  }
  for (double f : out.f1_per_subclass) out.macro_f1 += f / Z;
  return out;
}

}  // namespace geomsim
