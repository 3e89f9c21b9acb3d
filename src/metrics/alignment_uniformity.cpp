#include "geomsim/metrics/alignment_uniformity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "geomsim/metrics/class_means.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

void require_finite_points(const PointsRef& points, const char* argument) {
  if (!points.allFinite()) throw InvalidArgument(argument, "must be finite numbers (found nan or inf)");
}

// A sum of exponentials kept as exp(top) * scaled, so that no term underflows or overflows.
struct ScaledSum {
  double top = -std::numeric_limits<double>::infinity();
  double scaled = 0.0;

  void add(const ScaledSum& other) {
    if (other.scaled == 0.0) return;
    if (scaled == 0.0) {
      *this = other;
      return;
    }
    const double new_top = std::max(top, other.top);
    scaled = scaled * std::exp(top - new_top) + other.scaled * std::exp(other.top - new_top);
    top = new_top;
  }
};

constexpr Index kTile = 256;

}  // namespace

double alignment(const PointsRef& anchors, const PointsRef& positives) {
  if (anchors.rows() != positives.rows() || anchors.cols() != positives.cols() || anchors.cols() == 0) {
    throw InvalidArgument("positives", "must have the shape of the anchors (" + std::to_string(anchors.rows()) + " x " +
                                           std::to_string(anchors.cols()) + ", at least one pair), got " +
                                           std::to_string(positives.rows()) + " x " + std::to_string(positives.cols()));
  }
  require_finite_points(anchors, "anchors");
  require_finite_points(positives, "positives");
  return (anchors - positives).colwise().squaredNorm().mean();
}

double pair_alignment(const PointsRef& points, const std::vector<std::pair<Index, Index>>& pairs) {
  if (pairs.empty()) throw InvalidArgument("pairs", "must hold at least one pair");
  require_finite_points(points, "points");
  double sum = 0.0;
  for (const auto& [i, j] : pairs) {
    if (i < 0 || j < 0 || i >= points.cols() || j >= points.cols()) {
      throw InvalidArgument("pairs", "must index points 0.." + std::to_string(points.cols() - 1) + ", got (" +
                                         std::to_string(i) + ", " + std::to_string(j) + ")");
    }
    sum += (points.col(i) - points.col(j)).squaredNorm();
  }
  return sum / static_cast<double>(pairs.size());
}

double same_class_alignment(const PointsRef& points, const std::vector<int>& labels) {
  require_finite_points(points, "points");
  const ClassMeans c = class_means(points, labels);
  std::vector<double> scatter(c.counts.size(), 0.0);
  for (Index i = 0; i < points.cols(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    scatter[static_cast<std::size_t>(y)] += (points.col(i) - c.means.col(y)).squaredNorm();
  }
  double pair_sum = 0.0, pair_count = 0.0;
  for (std::size_t k = 0; k < c.counts.size(); ++k) {
    const double n = static_cast<double>(c.counts[k]);
    pair_sum += 2.0 * n * scatter[k];
    pair_count += n * (n - 1.0);
  }
  if (pair_count == 0.0) throw InvalidArgument("labels", "must give some class two points or more (no same-class pairs)");
  return pair_sum / pair_count;
}

double uniformity(const PointsRef& points, double t) {
  require_positive("t", t);
  const Index n = points.cols();
  if (n < 2) throw InvalidArgument("points", "must hold at least 2 points for a pair, got " + std::to_string(n));
  require_finite_points(points, "points");
  const Eigen::ArrayXd squared_norms = points.colwise().squaredNorm().transpose().array();
  const Index blocks = (n + kTile - 1) / kTile;
  std::vector<ScaledSum> row_sums(static_cast<std::size_t>(blocks));
  // Row block I against the column blocks J >= I, in order.
#pragma omp parallel for schedule(dynamic, 1)
  for (Index I = 0; I < blocks; ++I) {
    const Index i0 = I * kTile, rows = std::min(kTile, n - i0);
    ScaledSum sum;
    for (Index J = I; J < blocks; ++J) {
      const Index j0 = J * kTile, cols = std::min(kTile, n - j0);
      const Matrix gram = points.middleCols(i0, rows).transpose() * points.middleCols(j0, cols);
      Eigen::ArrayXXd squared_distance = (-2.0 * gram.array()).colwise() + squared_norms.segment(i0, rows);
      squared_distance.rowwise() += squared_norms.segment(j0, cols).transpose();
      // |x_i - x_j|^2 >= 0; the Gram identity can leave -1e-16 for coincident points.
      Eigen::ArrayXXd exponent = -t * squared_distance.max(0.0);
      if (I == J) {  // keep i > j: each pair once, no point with itself
        if (rows == 1) continue;
        for (Index j = 0; j < cols; ++j) exponent.col(j).head(j + 1).setConstant(-std::numeric_limits<double>::infinity());
      }
      ScaledSum tile;
      tile.top = exponent.maxCoeff();
      // The masked entries must add exactly 0 (Eigen's vectorised exp does not return 0 for
      // -inf); the select costs twice the exponentials, so only diagonal tiles pay for it.
      tile.scaled = I == J ? (exponent > -std::numeric_limits<double>::infinity()).select((exponent - tile.top).exp(), 0.0).sum()
                           : (exponent - tile.top).exp().sum();
      sum.add(tile);
    }
    row_sums[static_cast<std::size_t>(I)] = sum;
  }
  ScaledSum total;
  for (const auto& s : row_sums) total.add(s);
  const double pairs = static_cast<double>(n) * static_cast<double>(n - 1) / 2.0;
  return total.top + std::log(total.scaled) - std::log(pairs);
}

}  // namespace geomsim
