#include "geomsim/metrics/neural_collapse.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "geomsim/metrics/class_means.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

NeuralCollapse neural_collapse(const PointsRef& points, const std::vector<int>& labels) {
  if (!points.allFinite()) throw InvalidArgument("points", "must be finite numbers (found nan or inf)");
  const ClassMeans c = class_means(points, labels);
  const int K = c.num_classes();
  if (K < 2) throw InvalidArgument("labels", "must hold at least 2 classes for neural collapse, got 1");
  const Index d = points.rows(), n = points.cols();
  const Vector global_mean = points.rowwise().mean();
  const Matrix centred = c.means.colwise() - global_mean;  // M, d x K

  NeuralCollapse out;
  out.num_classes = K;

  // NC1 through the thin SVD of M.
  const Eigen::JacobiSVD<Matrix> svd(centred, Eigen::ComputeThinU);
  const Vector& s = svd.singularValues();
  const double cutoff = static_cast<double>(std::max<Index>(d, K)) * std::numeric_limits<double>::epsilon() *
                        (s.size() > 0 ? s(0) : 0.0);
  const Index kept_max = std::min<Index>(s.size(), K - 1);
  while (out.between_rank < kept_max && s(out.between_rank) > cutoff) ++out.between_rank;
  if (out.between_rank > 0) {
    const Matrix U = svd.matrixU().leftCols(out.between_rank);
    // u_r^T (x_i - mu_{y_i}) for every point, without a second d x N matrix.
    Matrix projected = U.transpose() * points;
    const Matrix projected_means = U.transpose() * c.means;
    for (Index i = 0; i < n; ++i) projected.col(i) -= projected_means.col(labels[static_cast<std::size_t>(i)]);
    const Vector squared = projected.rowwise().squaredNorm();
    double nc1 = 0.0;
    for (Index r = 0; r < out.between_rank; ++r) nc1 += squared(r) / (static_cast<double>(n) * s(r) * s(r));
    out.nc1 = nc1;
  }

  // NC2: norms and cosines of the centred means.
  const Eigen::ArrayXd norms = centred.colwise().norm().transpose().array();
  const double largest = norms.maxCoeff();
  if (largest > 0.0) {
    const double mean = norms.mean();
    out.equinorm = std::sqrt((norms - mean).square().mean()) / mean;
  }
  if (largest > 0.0 && norms.minCoeff() > std::sqrt(std::numeric_limits<double>::epsilon()) * largest) {
    const double simplex = -1.0 / (K - 1);
    std::vector<double> cosines;
    for (int k = 0; k < K; ++k) {
      for (int l = k + 1; l < K; ++l) cosines.push_back(centred.col(k).dot(centred.col(l)) / (norms(k) * norms(l)));
    }
    // Copied into Eigen's own (aligned) storage: a reduction over a Map of the vector's buffer
    // splits into scalar and packet parts by the buffer's address, so its last bit depended on
    // the heap (the CLI and the Python module differed by an ulp in cosine_sd).
    const Eigen::ArrayXd cos = Eigen::Map<const Eigen::ArrayXd>(cosines.data(), static_cast<Index>(cosines.size()));
    const Eigen::ArrayXd deviation = (cos - simplex).abs();
    out.equiangularity = deviation.mean();
    out.max_cosine_deviation = deviation.maxCoeff();
    out.cosine_sd = std::sqrt((cos - cos.mean()).square().mean());
  }
  return out;
}

std::vector<int> nearest_class_mean(const PointsRef& points, const PointsRef& means) {
  if (means.rows() != points.rows() || means.cols() == 0) {
    throw InvalidArgument("means", "must be d x K with d = " + std::to_string(points.rows()) + " and K >= 1");
  }
  if (!points.allFinite() || !means.allFinite()) throw InvalidArgument("points", "must be finite numbers (found nan or inf)");
  std::vector<int> nearest(static_cast<std::size_t>(points.cols()));
#pragma omp parallel for schedule(static)
  for (Index i = 0; i < points.cols(); ++i) {
    Index best = 0;
    (means.colwise() - points.col(i)).colwise().squaredNorm().minCoeff(&best);  // first minimum on ties
    nearest[static_cast<std::size_t>(i)] = static_cast<int>(best);
  }
  return nearest;
}

double nearest_class_mean_agreement(const PointsRef& points, const std::vector<int>& labels,
                                    const std::vector<int>& predictions) {
  const ClassMeans c = class_means(points, labels);
  if (predictions.size() != labels.size()) {
    throw InvalidArgument("predictions", "must have one entry per point (" + std::to_string(labels.size()) + "), got " +
                                             std::to_string(predictions.size()));
  }
  for (int p : predictions) {
    if (p < 0 || p >= c.num_classes()) {
      throw InvalidArgument("predictions", "must be class ids in 0.." + std::to_string(c.num_classes() - 1) + ", got " +
                                               std::to_string(p));
    }
  }
  const std::vector<int> nearest = nearest_class_mean(points, c.means);
  Index agree = 0;
  for (std::size_t i = 0; i < nearest.size(); ++i) agree += nearest[i] == predictions[i];
  return static_cast<double>(agree) / static_cast<double>(nearest.size());
}

}  // namespace geomsim
