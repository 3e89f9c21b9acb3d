#pragma once
// The shape checks every objective makes on its arguments, with one wording: the points U are
// d x N (one column per point, d >= 1), and a gradient or a direction has U's shape.
#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// Throws InvalidArgument("points") unless U has num_points columns and at least one row.
void require_point_columns(const Eigen::Ref<const Matrix>& U, Index num_points);

// Throws InvalidArgument(argument) unless a rows x cols matrix is dim x num_points, the points' shape.
void require_shape_of_points(const char* argument, Index rows, Index cols, Index dim, Index num_points);

}  // namespace geomsim
