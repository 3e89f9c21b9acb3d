#include "geomsim/metrics/cluster_selection.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <string>

#include "geomsim/metrics/kmeans.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {
namespace {

// Mean silhouette of the points from their pairwise distance matrix and cluster ids 0..k-1.
double silhouette_from_distances(const Matrix& distances, const std::vector<int>& clusters, int k) {
  const Index n = distances.rows();
  Matrix membership = Matrix::Zero(n, k);
  std::vector<Index> size(static_cast<std::size_t>(k), 0);
  for (Index i = 0; i < n; ++i) {
    membership(i, clusters[static_cast<std::size_t>(i)]) = 1.0;
    ++size[static_cast<std::size_t>(clusters[static_cast<std::size_t>(i)])];
  }
  const Matrix sums = distances * membership;  // n x k: each point's summed distance to each cluster
  double total = 0.0;
  for (Index i = 0; i < n; ++i) {
    const int own = clusters[static_cast<std::size_t>(i)];
    const Index own_size = size[static_cast<std::size_t>(own)];
    if (own_size == 1) continue;  // s(i) = 0
    const double a = sums(i, own) / static_cast<double>(own_size - 1);
    double b = std::numeric_limits<double>::infinity();
    for (int c = 0; c < k; ++c) {
      if (c != own && size[static_cast<std::size_t>(c)] > 0) b = std::min(b, sums(i, c) / static_cast<double>(size[static_cast<std::size_t>(c)]));
    }
    const double scale = std::max(a, b);
    if (scale > 0) total += (b - a) / scale;
  }
  return total / static_cast<double>(n);
}

Matrix pairwise_distances(const Matrix& points) {
  const Index n = points.cols();
  require_memory("silhouette-points", 8.0 * static_cast<double>(n) * static_cast<double>(n), "the silhouette's distance matrix");
  Matrix d(n, n);
  for (Index j = 0; j < n; ++j) {
    d(j, j) = 0.0;
    for (Index i = j + 1; i < n; ++i) d(i, j) = d(j, i) = (points.col(i) - points.col(j)).norm();
  }
  return d;
}

Matrix cluster_means(const Matrix& points, const std::vector<int>& clusters, int k) {
  Matrix centres = Matrix::Zero(points.rows(), k);
  std::vector<Index> counts(static_cast<std::size_t>(k), 0);
  for (Index i = 0; i < points.cols(); ++i) {
    centres.col(clusters[static_cast<std::size_t>(i)]) += points.col(i);
    ++counts[static_cast<std::size_t>(clusters[static_cast<std::size_t>(i)])];
  }
  for (int c = 0; c < k; ++c) centres.col(c) /= static_cast<double>(counts[static_cast<std::size_t>(c)]);
  return centres;
}

std::vector<int> nearest_centres(const Matrix& reduced, const Matrix& centres) {
  std::vector<int> out(static_cast<std::size_t>(reduced.cols()), 0);
  for (Index i = 0; i < reduced.cols(); ++i) {
    Index best = 0;
    (centres.colwise() - reduced.col(i)).colwise().squaredNorm().minCoeff(&best);
    out[static_cast<std::size_t>(i)] = static_cast<int>(best);
  }
  return out;
}

}  // namespace

double silhouette_score(const Matrix& points, const std::vector<int>& clusters) {
  if (clusters.size() != static_cast<std::size_t>(points.cols())) {
    throw InvalidArgument("clusters", "need one cluster id per point (" + std::to_string(points.cols()) + ")");
  }
  if (!points.allFinite()) throw InvalidArgument("points", "must be finite");
  if (!clusters.empty() && *std::min_element(clusters.begin(), clusters.end()) < 0) throw InvalidArgument("clusters", "must be >= 0");
  const std::vector<int> compact = compact_cluster_ids(clusters);
  const int k = compact.empty() ? 0 : 1 + *std::max_element(compact.begin(), compact.end());
  if (k < 2) throw InvalidArgument("clusters", "must use at least two cluster ids (the silhouette compares clusters)");
  return silhouette_from_distances(pairwise_distances(points), compact, k);
}

void validate(const ClusterSelectionOptions& o) {
  require_at_least("pca-components", o.pca_components, 1);
  require_at_least("max-clusters", o.max_clusters, 1);
  require_in_closed_range("min-silhouette", o.min_silhouette, -1.0, 1.0);
  require_at_least("silhouette-points", o.max_silhouette_points, 3);
  require_at_least("kmeans-restarts", o.kmeans_restarts, 1);
}

std::vector<int> ClusterSelection::assign(const Matrix& points) const { return nearest_centres(reduction.project(points), centres); }

ClusterSelection select_clusters(const Matrix& points, const ClusterSelectionOptions& o) {
  validate(o);
  const Index n = points.cols();
  ClusterSelection out;
  out.reduction = principal_components(points, o.pca_components);  // checks n >= 1 and finiteness
  const Matrix reduced = out.reduction.project(points);
  // The subsample the silhouette is scored on: the same for every k.
  std::vector<Index> sample(static_cast<std::size_t>(n));
  std::iota(sample.begin(), sample.end(), Index{0});
  if (n > o.max_silhouette_points) {
    Rng rng(o.seed ^ 0x5157u);
    rng.shuffle(sample);
    sample.resize(static_cast<std::size_t>(o.max_silhouette_points));
    std::sort(sample.begin(), sample.end());
  }
  Matrix sampled(reduced.rows(), static_cast<Index>(sample.size()));
  for (std::size_t s = 0; s < sample.size(); ++s) sampled.col(static_cast<Index>(s)) = reduced.col(sample[s]);
  const Matrix distances = n >= 3 ? pairwise_distances(sampled) : Matrix();

  out.clusters.assign(static_cast<std::size_t>(n), 0);
  double best = o.min_silhouette;
  const int largest_k = static_cast<int>(std::min<Index>(o.max_clusters, n - 1));
  for (int k = 2; k <= largest_k; ++k) {
    const std::vector<int> clusters = compact_cluster_ids(kmeans_best_of(reduced, k, o.seed + 7919u * static_cast<std::uint64_t>(k), o.kmeans_restarts));
    const int occupied = 1 + *std::max_element(clusters.begin(), clusters.end());
    std::vector<int> sampled_clusters;
    for (Index i : sample) sampled_clusters.push_back(clusters[static_cast<std::size_t>(i)]);
    sampled_clusters = compact_cluster_ids(sampled_clusters);
    const int sampled_occupied = 1 + *std::max_element(sampled_clusters.begin(), sampled_clusters.end());
    // k-means left a cluster empty, or the subsample sees one cluster: k is not a candidate.
    double score = -1.0;
    if (occupied == k && sampled_occupied >= 2) score = silhouette_from_distances(distances, sampled_clusters, sampled_occupied);
    out.silhouettes.push_back(score);
    if (score > best) {
      best = score;
      out.k = k;
      out.clusters = clusters;
    }
  }
  out.centres = cluster_means(reduced, out.clusters, out.k);
  return out;
}

std::vector<int> ClassClusters::assign(const Matrix& points, const std::vector<int>& labels) const {
  if (labels.size() != static_cast<std::size_t>(points.cols())) {
    throw InvalidArgument("labels", "need one label per point (" + std::to_string(points.cols()) + ")");
  }
  std::vector<int> out(labels.size(), 0);
  std::map<int, std::vector<Index>> members;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (labels[i] < 0 || labels[i] >= static_cast<int>(per_class.size())) {
      throw InvalidArgument("labels", "must be in 0.." + std::to_string(per_class.size() - 1) + ", got " + std::to_string(labels[i]));
    }
    members[labels[i]].push_back(static_cast<Index>(i));
  }
  for (const auto& [y, idx] : members) {
    Matrix block(points.rows(), static_cast<Index>(idx.size()));
    for (std::size_t m = 0; m < idx.size(); ++m) block.col(static_cast<Index>(m)) = points.col(idx[m]);
    const auto local = per_class[static_cast<std::size_t>(y)].assign(block);
    for (std::size_t m = 0; m < idx.size(); ++m) out[static_cast<std::size_t>(idx[m])] = offset[static_cast<std::size_t>(y)] + local[m];
  }
  return out;
}

ClassClusters select_clusters_within_classes(const Matrix& points, const std::vector<int>& labels,
                                             const ClusterSelectionOptions& options) {
  if (labels.size() != static_cast<std::size_t>(points.cols())) {
    throw InvalidArgument("labels", "need one label per point (" + std::to_string(points.cols()) + ")");
  }
  const int K = count_label_ids(labels, "labels");
  ClassClusters out;
  out.clusters.assign(labels.size(), 0);
  for (int y = 0; y < K; ++y) {
    std::vector<Index> idx;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == y) idx.push_back(static_cast<Index>(i));
    }
    Matrix block(points.rows(), static_cast<Index>(idx.size()));
    for (std::size_t m = 0; m < idx.size(); ++m) block.col(static_cast<Index>(m)) = points.col(idx[m]);
    ClusterSelectionOptions per_class = options;
    per_class.seed = options.seed + 1000003u * static_cast<std::uint64_t>(y);
    ClusterSelection selection = select_clusters(block, per_class);
    out.offset.push_back(out.total);
    for (std::size_t m = 0; m < idx.size(); ++m) out.clusters[static_cast<std::size_t>(idx[m])] = out.total + selection.clusters[m];
    out.total += selection.k;
    out.per_class.push_back(std::move(selection));
  }
  return out;
}

}  // namespace geomsim
