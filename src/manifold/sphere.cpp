#include "geomsim/manifold/sphere.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {

int PointSet::num_classes() const {
  return labels.empty() ? 0 : 1 + *std::max_element(labels.begin(), labels.end());
}

std::vector<int> balanced_labels(int num_classes, int points_per_class) {
  require_at_least("K", num_classes, 1);
  require_at_least("ny", points_per_class, 1);
  std::vector<int> labels;
  labels.reserve(static_cast<std::size_t>(num_classes) * static_cast<std::size_t>(points_per_class));
  for (int k = 0; k < num_classes; ++k) labels.insert(labels.end(), static_cast<std::size_t>(points_per_class), k);
  return labels;
}

int count_label_ids(const std::vector<int>& ids, const char* argument) {
  if (ids.empty()) throw InvalidArgument(argument, "must not be empty");
  const int lowest = *std::min_element(ids.begin(), ids.end());
  if (lowest < 0) throw InvalidArgument(argument, "must be >= 0, got " + std::to_string(lowest));
  const int highest = *std::max_element(ids.begin(), ids.end());
  // n ids cover at most n values: a larger id leaves one of 0..highest out (and 1 + INT_MAX
  // would overflow, a huge id allocate).
  if (static_cast<std::size_t>(highest) >= ids.size()) {
    throw InvalidArgument(argument, "must use every id 0..K-1 with K at most the " + std::to_string(ids.size()) +
                                        " entries, got the id " + std::to_string(highest));
  }
  const int K = 1 + highest;
  std::vector<char> present(static_cast<std::size_t>(K), 0);
  for (int y : ids) present[static_cast<std::size_t>(y)] = 1;
  for (int k = 0; k < K; ++k) {
    if (!present[static_cast<std::size_t>(k)]) {
      throw InvalidArgument(argument, "must use every id 0.." + std::to_string(K - 1) + ", " + std::to_string(k) +
                                          " has no points");
    }
  }
  return K;
}

int validate_labels(const std::vector<int>& labels) {
  const int K = count_label_ids(labels, "labels");
  if (K < 2) throw InvalidArgument("K", "must be >= 2 (the loss needs negatives), got " + std::to_string(K));
  return K;
}

Matrix random_uniform_sphere(int dim, Index count, std::uint64_t seed) {
  require_at_least("d", dim, 1);
  Rng rng(seed);
  Matrix points(dim, count);
  for (Index i = 0; i < count; ++i) {
    double norm2 = 0.0;
    do {  // a zero Gaussian vector has probability 0, but never divide by it
      for (int r = 0; r < dim; ++r) points(r, i) = rng.normal();
      norm2 = points.col(i).squaredNorm();
    } while (norm2 == 0.0);
    points.col(i) /= std::sqrt(norm2);
  }
  return points;
}

Matrix random_gaussian(Index rows, Index cols, Rng& rng) {
  Matrix Z(rows, cols);
  for (Index k = 0; k < Z.size(); ++k) Z.data()[k] = rng.normal();
  return Z;
}

Matrix regular_simplex(int num_classes, int dim) {
  require_at_least("K", num_classes, 2);
  if (num_classes > dim + 1) {
    throw InvalidArgument("K", "must be <= d + 1 = " + std::to_string(dim + 1) +
                                   " for a regular simplex, got " + std::to_string(num_classes));
  }
  // Centred basis vectors e_i - 1/K in the Helmert basis of the sum-zero subspace:
  // h_k = (1,...,1,-k,0,...,0)/sqrt(k(k+1)) with k ones, k = 1..K-1. Their norm is
  // sqrt(1 - 1/K), which we divide out.
  const double K = num_classes;
  const double scale = 1.0 / std::sqrt(1.0 - 1.0 / K);
  Matrix vertices = Matrix::Zero(dim, num_classes);
  for (int k = 1; k < num_classes; ++k) {
    const double h = 1.0 / std::sqrt(static_cast<double>(k) * (k + 1));
    for (int i = 0; i < k; ++i) vertices(k - 1, i) = h * scale;
    vertices(k - 1, k) = -k * h * scale;
  }
  return vertices;
}

Matrix collapsed_simplex(const std::vector<int>& labels, int dim) {
  const int K = validate_labels(labels);
  const Matrix vertices = regular_simplex(K, dim);
  Matrix points(dim, static_cast<Index>(labels.size()));
  for (std::size_t i = 0; i < labels.size(); ++i) points.col(static_cast<Index>(i)) = vertices.col(labels[i]);
  return points;
}

void normalize_columns(Matrix& points) {
  for (Index i = 0; i < points.cols(); ++i) {
    const double norm = points.col(i).norm();
    if (!(norm > 0.0) || !std::isfinite(norm)) {
      throw InvalidArgument("points", "column " + std::to_string(i) + " has norm " + format_number(norm) +
                                          "; cannot project it onto the sphere");
    }
    points.col(i) /= norm;
  }
}

double max_norm_violation(const Matrix& points) {
  double worst = 0.0;
  for (Index i = 0; i < points.cols(); ++i) worst = std::max(worst, std::abs(points.col(i).norm() - 1.0));
  return worst;
}

}  // namespace geomsim
