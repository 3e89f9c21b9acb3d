#pragma once
// Subgroup recovery: do the subclasses show up as clusters inside each class? Within every
// class, k-means (k-means++ seeding, Lloyd iterations) with k = the number of true subclasses
// of that class; each true subclass is scored by the best F1 of any cluster against it, and the
// scores are averaged over subclasses (macro F1). Works on simulated points and on a trained
// encoder's embeddings alike.
#include <cstdint>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// Cluster index (0..k-1) of every column of `points` (d x n). Deterministic for a seed.
// Throws InvalidArgument unless 1 <= k <= n.
std::vector<int> kmeans(const Matrix& points, int k, std::uint64_t seed, int max_iterations = 100);

struct SubgroupRecovery {
  double macro_f1 = 0.0;                 // mean over subclasses
  std::vector<double> f1_per_subclass;   // indexed by subclass id
};

// labels in 0..K-1, subclass_labels in 0..Z-1 with every subclass inside one class.
SubgroupRecovery subgroup_recovery(const Matrix& points, const std::vector<int>& labels,
                                   const std::vector<int>& subclass_labels, std::uint64_t seed = 0);

}  // namespace geomsim
