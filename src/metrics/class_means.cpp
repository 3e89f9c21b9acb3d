#include "geomsim/metrics/class_means.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

ClassMeans class_means(const PointsRef& points, const std::vector<int>& labels) {
  if (static_cast<Index>(labels.size()) != points.cols()) {
    throw InvalidArgument("labels", "must have one entry per point (" + std::to_string(points.cols()) + "), got " +
                                        std::to_string(labels.size()));
  }
  const int K = count_label_ids(labels, "labels");
  ClassMeans out;
  out.means = Matrix::Zero(points.rows(), K);
  out.counts.assign(static_cast<std::size_t>(K), 0);
  for (Index i = 0; i < points.cols(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    out.means.col(y) += points.col(i);
    ++out.counts[static_cast<std::size_t>(y)];
  }
  for (int k = 0; k < K; ++k) out.means.col(k) /= static_cast<double>(out.counts[static_cast<std::size_t>(k)]);
  return out;
}

}  // namespace geomsim
