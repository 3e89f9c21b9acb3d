#pragma once
// Principal component analysis of points (the columns of a d x n matrix): the mean and the
// leading eigenvectors of the covariance, to reduce embeddings before clustering them.
#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct PrincipalComponents {
  Vector mean;        // d
  Matrix basis;       // d x p, orthonormal columns, by decreasing variance
  Vector variances;   // p eigenvalues of the covariance (1/n normalisation), decreasing
  // p x m: the coordinates of the columns of `points` (d x m) in the basis, about the mean.
  Matrix project(const Matrix& points) const;
};

// The first min(components, d) principal components of the n >= 1 columns of `points`. Each
// basis vector's sign is fixed so that its largest-magnitude entry is positive (the first one on
// ties), so the result does not depend on the eigen-solver's choice. Throws InvalidArgument for
// components < 1, no points or a non-finite coordinate.
PrincipalComponents principal_components(const Matrix& points, int components);

}  // namespace geomsim
