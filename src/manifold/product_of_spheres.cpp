#include "geomsim/manifold/product_of_spheres.hpp"

#include <stdexcept>

namespace geomsim {

// Column by column over the raw storage: the expression form (V - U * radial.asDiagonal())
// spent most of its time in Eigen's per-column setup for the short columns of small d
// (38 % of a solve at d = 3, where RLBFGS transports its 2 m stored pairs every iteration).
namespace {
void project_columns(const Matrix& U, const Matrix& V, Matrix& out) {
  const Index d = U.rows(), n = U.cols();
  if (V.rows() != d || V.cols() != n) throw std::invalid_argument("project_to_tangent: U and V differ in shape");
  const double* u = U.data();
  const double* v = V.data();
  double* o = out.data();
  for (Index j = 0; j < n; ++j, u += d, v += d, o += d) {
    double radial = 0.0;
    for (Index i = 0; i < d; ++i) radial += u[i] * v[i];
    for (Index i = 0; i < d; ++i) o[i] = v[i] - radial * u[i];
  }
}
}  // namespace

Matrix project_to_tangent(const Matrix& U, const Matrix& V) {
  Matrix out(V.rows(), V.cols());
  project_columns(U, V, out);
  return out;
}

void project_onto_tangent(const Matrix& U, Matrix& V) { project_columns(U, V, V); }

Matrix retract(const Matrix& U, const Matrix& V) {
  Matrix out = U + V;
  normalize_columns(out);
  return out;
}

double inner(const Matrix& A, const Matrix& B) { return (A.array() * B.array()).sum(); }

}  // namespace geomsim
