#pragma once
// Clusters with their number chosen by the silhouette score (the GEORGE-style clustering of the
// robustness experiments): reduce the points by PCA, run k-means for every k in
// 2..max_clusters, keep the k with the highest mean silhouette (the smallest k on ties). When no
// k reaches `min_silhouette`, the points are one cluster (k = 1): the silhouette is not defined
// for one cluster, so k = 1 needs a threshold. The default 0.5 is ours: k-means splits of a single
// Gaussian blob score about 0.3 in 2-D and less in more dimensions, while the tests' blobs, 20
// standard deviations apart, score 0.77 to 0.93 (tests/metrics/test_cluster_selection.cpp).
//
// Silhouette (Rousseeuw 1987), for a point i of cluster A with a(i) its mean distance to the
// other points of A and b(i) the smallest mean distance to the points of another cluster:
//   s(i) = (b(i) - a(i)) / max(a(i), b(i)),  and s(i) = 0 when A = {i};
// the score is the mean of s(i). Distances are Euclidean.
#include <cstdint>
#include <vector>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/metrics/principal_components.hpp"

namespace geomsim {

// The mean silhouette of points (d x n) in clusters (any ids, at least two of them used).
double silhouette_score(const Matrix& points, const std::vector<int>& clusters);

struct ClusterSelectionOptions {
  int pca_components = 8;       // the points are reduced to this many principal components first
  int max_clusters = 8;         // k is chosen in 1..max_clusters
  double min_silhouette = 0.5;  // below it for every k >= 2: k = 1
  int max_silhouette_points = 2000;  // the score is taken on a seeded subsample of at most this many
  int kmeans_restarts = 3;      // each k: the best of this many k-means runs by inertia
  std::uint64_t seed = 0;
};
// Throws InvalidArgument naming the option.
void validate(const ClusterSelectionOptions& options);

struct ClusterSelection {
  int k = 1;                         // the chosen number of clusters
  std::vector<int> clusters;         // 0..k-1 for every point
  std::vector<double> silhouettes;   // silhouettes[j]: the score at k = j + 2 (empty when n < 3)
  PrincipalComponents reduction;     // the PCA the clustering ran in
  Matrix centres;                    // p x k cluster means in the reduced coordinates
  // The cluster (0..k-1) whose centre is nearest to each column of `points` (d x m, unreduced).
  std::vector<int> assign(const Matrix& points) const;
};

ClusterSelection select_clusters(const Matrix& points, const ClusterSelectionOptions& options);

// The same within every class: the pseudo-groups of GEORGE. Cluster ids are global: class y's
// clusters are offset[y] .. offset[y] + k[y] - 1, in class order.
struct ClassClusters {
  std::vector<int> clusters;                 // per point
  std::vector<ClusterSelection> per_class;   // indexed by class
  std::vector<int> offset;                   // indexed by class
  int total = 0;                             // number of clusters over all classes
  // Assigns new points of known classes to the nearest cluster of their class.
  std::vector<int> assign(const Matrix& points, const std::vector<int>& labels) const;
};

// labels in 0..K-1, every class with at least one point.
ClassClusters select_clusters_within_classes(const Matrix& points, const std::vector<int>& labels,
                                             const ClusterSelectionOptions& options);

}  // namespace geomsim
