#include "geomsim/manifold/product_of_spheres.hpp"

#include <stdexcept>

namespace geomsim {

namespace {
void require_same_shape(const Matrix& U, const Matrix& V) {
  if (V.rows() != U.rows() || V.cols() != U.cols()) throw std::invalid_argument("project_to_tangent: U and V differ in shape");
}
}  // namespace

Matrix project_to_tangent(const Matrix& U, const Matrix& V) {
  require_same_shape(U, V);
  const Vector radial = (U.array() * V.array()).colwise().sum().transpose();
  return V - U * radial.asDiagonal();
}

// The same arithmetic as project_to_tangent, without the new matrix.
void project_onto_tangent(const Matrix& U, Matrix& V) {
  require_same_shape(U, V);
  const Vector radial = (U.array() * V.array()).colwise().sum().transpose();
  V -= U * radial.asDiagonal();
}

Matrix retract(const Matrix& U, const Matrix& V) {
  Matrix out = U + V;
  normalize_columns(out);
  return out;
}

double inner(const Matrix& A, const Matrix& B) { return (A.array() * B.array()).sum(); }

}  // namespace geomsim
