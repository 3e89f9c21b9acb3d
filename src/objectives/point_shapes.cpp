#include "geomsim/objectives/point_shapes.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

void require_point_columns(const Eigen::Ref<const Matrix>& U, Index num_points) {
  if (U.cols() != num_points) {
    throw InvalidArgument("points", "must have one column per label (" + std::to_string(num_points) + "), got " +
                                        std::to_string(U.cols()));
  }
  if (U.rows() < 1) throw InvalidArgument("points", "must have at least one row (d >= 1)");
}

void require_shape_of_points(const char* argument, Index rows, Index cols, Index dim, Index num_points) {
  if (rows != dim || cols != num_points) {
    throw InvalidArgument(argument, "must have the shape of the points (" + std::to_string(dim) + " x " +
                                        std::to_string(num_points) + ")");
  }
}

}  // namespace geomsim
