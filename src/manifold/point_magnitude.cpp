#include "geomsim/manifold/point_magnitude.hpp"

#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

void require_moderate_points(const PointsRef& points, const char* argument) {
  for (Index i = 0; i < points.cols(); ++i) {
    for (Index k = 0; k < points.rows(); ++k) {
      const double x = points(k, i);
      if (!std::isfinite(x)) throw InvalidArgument(argument, "must be finite numbers, got " + format_number(x) + " in point " + std::to_string(i));
      if (std::abs(x) > kMaxCoordinateMagnitude) {
        throw InvalidArgument(argument, "must have coordinates of magnitude at most 1e150 (their squares are summed), got " +
                                            format_number(x) + " in point " + std::to_string(i));
      }
    }
  }
}

}  // namespace geomsim
