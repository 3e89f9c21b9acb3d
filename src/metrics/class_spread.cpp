#include "geomsim/metrics/class_spread.hpp"

#include "geomsim/metrics/class_means.hpp"

namespace geomsim {

ClassSpread class_spread(const Matrix& points, const std::vector<int>& labels) {
  const ClassMeans c = class_means(points, labels);
  const int K = c.num_classes();
  ClassSpread out;
  out.per_class.assign(static_cast<std::size_t>(K), 0.0);
  for (Index i = 0; i < points.cols(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    out.per_class[static_cast<std::size_t>(y)] += (points.col(i) - c.means.col(y)).norm();
  }
  for (int k = 0; k < K; ++k) {
    out.per_class[static_cast<std::size_t>(k)] /= static_cast<double>(c.counts[static_cast<std::size_t>(k)]);
    out.mean += out.per_class[static_cast<std::size_t>(k)];
  }
  out.mean /= K;
  return out;
}

}  // namespace geomsim
