#pragma once
// Papyan, Han and Donoho's neural-collapse measures of labelled embeddings (the columns of a
// d x N matrix, K >= 2 classes), with these conventions:
//
//   mu_k   the mean of class k;  mu_G the global mean (of all N points, so weighted by class size)
//   Sigma_W = (1/N) sum_i (x_i - mu_{y_i})(x_i - mu_{y_i})^T        within-class covariance
//   Sigma_B = (1/K) sum_k (mu_k - mu_G)(mu_k - mu_G)^T               between-class covariance
//
//   NC1   tr(Sigma_W Sigma_B^+) / K: within-class variability in the directions the class means
//         span, in units of their spread; 0 when every class is one point.
//   NC2   equinorm: the coefficient of variation (population sd / mean) of |mu_k - mu_G|;
//         equiangularity: the mean over pairs k < k' of |cos(mu_k - mu_G, mu_k' - mu_G) + 1/(K-1)|,
//         with the largest such deviation and the sd of those cosines beside it. All three are 0
//         for the regular simplex (cosines -1/(K-1)).
//   NC4   the fraction of points on which the nearest-class-mean rule argmin_k |x - mu_k| agrees
//         with a given prediction (e.g. a classifier's).
//
// Sigma_B^+ is the pseudo-inverse. It is applied without forming a d x d matrix: with the
// thin SVD M = U S V^T of the centred means M = [mu_k - mu_G] (d x K), Sigma_B = M M^T / K and
//   tr(Sigma_W Sigma_B^+) / K = sum_r |u_r^T (X - mu_Y)|^2 / (N s_r^2)
// over the kept singular directions r. M has rank <= K - 1 (its columns, weighted by class
// size, sum to zero), so at most K - 1 are kept, and only those with s_r > max(d, K) eps s_1
// (numpy's matrix_rank tolerance). Cost O(N d K) and O(d K) memory.
#include <optional>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct NeuralCollapse {
  int num_classes = 0;
  int between_rank = 0;  // directions kept by the pseudo-inverse (rank of Sigma_B)
  // Each is empty when undefined: NC1 when between_rank is 0, equinorm when every class mean
  // is the global mean, the cosine measures when some |mu_k - mu_G| <= sqrt(eps) max_k |mu_k - mu_G|
  // (there rounding would decide the cosine).
  std::optional<double> nc1;
  std::optional<double> equinorm;
  std::optional<double> equiangularity;         // mean |cos + 1/(K-1)|
  std::optional<double> max_cosine_deviation;   // max |cos + 1/(K-1)|
  std::optional<double> cosine_sd;              // population sd of the K(K-1)/2 cosines
};

// labels in 0..K-1, every class present, K >= 2. Throws InvalidArgument("labels") or ("points").
NeuralCollapse neural_collapse(const PointsRef& points, const std::vector<int>& labels);

// argmin_k |x - mu_k| for every column of `points`, against the columns of `means` (d x K);
// ties go to the lowest k.
std::vector<int> nearest_class_mean(const PointsRef& points, const PointsRef& means);

// NC4: the fraction of points where nearest_class_mean (with the class means of (points, labels))
// equals `predictions`, one per point in 0..K-1. Throws InvalidArgument("predictions").
double nearest_class_mean_agreement(const PointsRef& points, const std::vector<int>& labels,
                                    const std::vector<int>& predictions);

}  // namespace geomsim
