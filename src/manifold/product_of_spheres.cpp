#include "geomsim/manifold/product_of_spheres.hpp"

namespace geomsim {

Matrix project_to_tangent(const Matrix& U, const Matrix& V) {
  const Vector radial = (U.array() * V.array()).colwise().sum().transpose();
  return V - U * radial.asDiagonal();
}

Matrix retract(const Matrix& U, const Matrix& V) {
  Matrix out = U + V;
  normalize_columns(out);
  return out;
}

double inner(const Matrix& A, const Matrix& B) { return (A.array() * B.array()).sum(); }

}  // namespace geomsim
