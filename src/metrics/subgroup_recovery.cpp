#include "geomsim/metrics/subgroup_recovery.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

// The points of each class, in index order.
std::vector<std::vector<std::size_t>> members_by_class(const std::vector<int>& labels, int K) {
  std::vector<std::vector<std::size_t>> members(static_cast<std::size_t>(K));
  for (std::size_t i = 0; i < labels.size(); ++i) members[static_cast<std::size_t>(labels[i])].push_back(i);
  return members;
}

void require_one_class_per_subclass(const std::vector<int>& labels, const std::vector<int>& subclass_labels) {
  std::map<int, int> class_of;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto [it, fresh] = class_of.emplace(subclass_labels[i], labels[i]);
    if (!fresh && it->second != labels[i]) {
      throw InvalidArgument("subclass_labels", "must put every subclass inside one class; subclass " +
                                                   std::to_string(subclass_labels[i]) + " is in classes " +
                                                   std::to_string(it->second) + " and " + std::to_string(labels[i]));
    }
  }
}

}  // namespace

SubgroupRecovery score_subgroup_clusters(const std::vector<int>& labels, const std::vector<int>& subclass_labels,
                                         const std::vector<int>& clusters) {
  const std::size_t n = labels.size();
  if (subclass_labels.size() != n || clusters.size() != n) {
    throw InvalidArgument("labels", "need one class, one subclass and one cluster id per point (" + std::to_string(n) + ")");
  }
  const int K = count_label_ids(labels, "labels");
  const int Z = count_label_ids(subclass_labels, "subclass_labels");
  if (*std::min_element(clusters.begin(), clusters.end()) < 0) throw InvalidArgument("clusters", "must be >= 0");
  require_one_class_per_subclass(labels, subclass_labels);
  SubgroupRecovery out;
  out.f1_per_subclass.assign(static_cast<std::size_t>(Z), 0.0);
  for (const auto& members : members_by_class(labels, K)) {
    std::map<int, int> subclass_size, cluster_size;
    std::map<std::pair<int, int>, int> overlap;  // (subclass, cluster) -> count
    for (std::size_t i : members) {
      ++subclass_size[subclass_labels[i]];
      ++cluster_size[clusters[i]];
      ++overlap[{subclass_labels[i], clusters[i]}];
    }
    for (const auto& [z, size] : subclass_size) {
      double best = 0.0;
      for (const auto& [c, c_size] : cluster_size) {
        const auto it = overlap.find({z, c});
        if (it != overlap.end()) best = std::max(best, 2.0 * it->second / (size + c_size));
      }
      out.f1_per_subclass[static_cast<std::size_t>(z)] = best;
    }
  }
  for (double f : out.f1_per_subclass) out.macro_f1 += f / Z;
  return out;
}

SubgroupRecovery subgroup_recovery(const Matrix& points, const std::vector<int>& labels,
                                   const std::vector<int>& subclass_labels, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(points.cols());
  if (labels.size() != n || subclass_labels.size() != n) {
    throw InvalidArgument("labels", "need one class and one subclass label per point (" + std::to_string(n) + ")");
  }
  const int K = count_label_ids(labels, "labels");
  count_label_ids(subclass_labels, "subclass_labels");
  // Within every class, k-means with k = its number of true subclasses; the cluster ids of the
  // classes are kept apart by an offset.
  std::vector<int> clusters(n, 0);
  int offset = 0;
  const auto all_members = members_by_class(labels, K);
  for (std::size_t y = 0; y < all_members.size(); ++y) {
    const auto& members = all_members[y];
    std::set<int> subclasses;
    for (std::size_t i : members) subclasses.insert(subclass_labels[i]);
    Matrix block(points.rows(), static_cast<Index>(members.size()));
    for (std::size_t m = 0; m < members.size(); ++m) block.col(static_cast<Index>(m)) = points.col(static_cast<Index>(members[m]));
    const int k = static_cast<int>(subclasses.size());
    const auto local = kmeans(block, k, seed + static_cast<std::uint64_t>(y));
    for (std::size_t m = 0; m < members.size(); ++m) clusters[members[m]] = offset + local[m];
    offset += k;
  }
  return score_subgroup_clusters(labels, subclass_labels, clusters);
}

}  // namespace geomsim
