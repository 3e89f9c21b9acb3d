#pragma once
// k-means clustering of points (the columns of a d x n matrix): k-means++ seeding, then Lloyd
// iterations until no assignment changes. Deterministic for a seed.
#include <cstdint>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// Cluster index (0..k-1) of every column of `points` (d x n). A cluster can end up empty (its
// centre is then kept where it was). Throws InvalidArgument unless 1 <= k <= n.
std::vector<int> kmeans(const Matrix& points, int k, std::uint64_t seed, int max_iterations = 100);

// The sum of squared distances of the points to the mean of their cluster.
double kmeans_inertia(const Matrix& points, const std::vector<int>& clusters);

// The best of `restarts` runs (seeds seed, seed + 1, ...) by inertia, the first on ties.
std::vector<int> kmeans_best_of(const Matrix& points, int k, std::uint64_t seed, int restarts);

// The same clusters numbered 0..m-1 (m occupied clusters), in the order of their old ids.
std::vector<int> compact_cluster_ids(const std::vector<int>& clusters);

}  // namespace geomsim
