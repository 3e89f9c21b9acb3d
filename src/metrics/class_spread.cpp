#include "geomsim/metrics/class_spread.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

ClassSpread class_spread(const Matrix& points, const std::vector<int>& labels) {
  if (static_cast<Index>(labels.size()) != points.cols()) {
    throw InvalidArgument("labels", "must have one entry per point (" + std::to_string(points.cols()) + "), got " +
                                        std::to_string(labels.size()));
  }
  const int K = count_label_ids(labels, "labels");
  Matrix means = Matrix::Zero(points.rows(), K);
  std::vector<double> counts(static_cast<std::size_t>(K), 0.0);
  for (Index i = 0; i < points.cols(); ++i) {
    means.col(labels[static_cast<std::size_t>(i)]) += points.col(i);
    counts[static_cast<std::size_t>(labels[static_cast<std::size_t>(i)])] += 1.0;
  }
  for (int k = 0; k < K; ++k) means.col(k) /= counts[static_cast<std::size_t>(k)];
  ClassSpread out;
  out.per_class.assign(static_cast<std::size_t>(K), 0.0);
  for (Index i = 0; i < points.cols(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    out.per_class[static_cast<std::size_t>(y)] += (points.col(i) - means.col(y)).norm();
  }
  for (int k = 0; k < K; ++k) {
    out.per_class[static_cast<std::size_t>(k)] /= counts[static_cast<std::size_t>(k)];
    out.mean += out.per_class[static_cast<std::size_t>(k)];
  }
  out.mean /= K;
  return out;
}

}  // namespace geomsim
