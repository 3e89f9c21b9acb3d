#pragma once
// Subgroup recovery: do the subclasses show up as clusters inside each class? Each true
// subclass is scored by the best F1 of any cluster of its class against it, and the scores are
// averaged over subclasses (macro F1). Works on simulated points and on a trained encoder's
// embeddings alike.
//
// score_subgroup_clusters takes clusters from anywhere, with any number per class (e.g. chosen
// by silhouette, cluster_selection.hpp); subgroup_recovery runs k-means within every class with
// k = the number of true subclasses of that class and scores the result.
//
// F1 of cluster c against subclass z of class y, counting only the points of class y:
//   F1 = 2 |z and c| / (|z| + |c|).
#include <cstdint>
#include <vector>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/metrics/kmeans.hpp"

namespace geomsim {

struct SubgroupRecovery {
  double macro_f1 = 0.0;                 // mean over subclasses
  std::vector<double> f1_per_subclass;   // indexed by subclass id
};

// labels in 0..K-1, subclass_labels in 0..Z-1 (every id used) with every subclass inside one
// class, clusters any non-negative ids (a cluster id may be shared between classes: only the
// points of the subclass's own class count).
SubgroupRecovery score_subgroup_clusters(const std::vector<int>& labels, const std::vector<int>& subclass_labels,
                                         const std::vector<int>& clusters);

SubgroupRecovery subgroup_recovery(const Matrix& points, const std::vector<int>& labels,
                                   const std::vector<int>& subclass_labels, std::uint64_t seed = 0);

}  // namespace geomsim
