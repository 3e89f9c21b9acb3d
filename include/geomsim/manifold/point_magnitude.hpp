#pragma once
// The check of a user's points or embeddings before they are measured: finite, and small enough
// that the sums of squares and products of their coordinates stay finite.
#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// The largest magnitude a coordinate may have: the measures sum squares and products of
// coordinates over up to 10^6 dimensions, which stay finite below it.
inline constexpr double kMaxCoordinateMagnitude = 1e150;

// Throws InvalidArgument(argument) unless every coordinate is finite and of magnitude at most
// kMaxCoordinateMagnitude (naming the first offending point).
void require_moderate_points(const PointsRef& points, const char* argument);

}  // namespace geomsim
