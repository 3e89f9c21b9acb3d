#include "geomsim/manifold/product_of_spheres.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "manifold/column_dot.hpp"

namespace geomsim {

namespace {
void require_same_shape(const Matrix& U, const Matrix& V, const char* caller) {
  if (V.rows() != U.rows() || V.cols() != U.cols()) {
    throw std::invalid_argument(std::string(caller) + ": U and V differ in shape");
  }
}

// Column by column over the raw storage: for the short columns of small d, the expression
// form (V - U * radial.asDiagonal()) spent most of its time in Eigen's per-column set-up
// (38 % of a solve of the paper's problem, d = 3). D > 0 fixes the column length at compile
// time (unrolled: the paper's d = 2 and 3 are half as fast with a run-time length); D = 0
// reads it from U and takes the dot product with eight partial sums (column_dot: a plain loop
// is one chain of dependent additions, about 500 cycles a column at d = 128, issue 49). `out`
// may be V.
template <Index D>
void project_columns(const Matrix& U, const Matrix& V, Matrix& out) {
  const Index d = D > 0 ? D : U.rows(), n = U.cols();
  const double* u = U.data();
  const double* v = V.data();
  double* o = out.data();
  for (Index j = 0; j < n; ++j, u += d, v += d, o += d) {
    double radial = 0.0;
    if constexpr (D > 0) {
      for (Index i = 0; i < d; ++i) radial += u[i] * v[i];
    } else {
      radial = detail::column_dot(u, v, d);
    }
    for (Index i = 0; i < d; ++i) o[i] = v[i] - radial * u[i];
  }
}

void project_columns(const Matrix& U, const Matrix& V, Matrix& out) {
  switch (U.rows()) {
    case 2: return project_columns<2>(U, V, out);
    case 3: return project_columns<3>(U, V, out);
    case 4: return project_columns<4>(U, V, out);
    default: return project_columns<0>(U, V, out);
  }
}
}  // namespace

Matrix project_to_tangent(const Matrix& U, const Matrix& V) {
  require_same_shape(U, V, "project_to_tangent");
  Matrix out(V.rows(), V.cols());
  project_columns(U, V, out);
  return out;
}

void project_onto_tangent(const Matrix& U, Matrix& V) {
  require_same_shape(U, V, "project_onto_tangent");
  project_columns(U, V, V);
}

// U + 1.0 * V is U + V exactly: one definition for both.
Matrix retract(const Matrix& U, const Matrix& V) {
  Matrix out;
  retract_step(U, 1.0, V, out);
  return out;
}

void retract_step(const Matrix& U, double t, const Matrix& V, Matrix& out) {
  require_same_shape(U, V, "retract");
  out.resize(U.rows(), U.cols());
  out.noalias() = U + t * V;
  normalize_columns(out);
}

double retraction_slope(const Matrix& U, double t, const Matrix& V, const Matrix& G) {
  require_same_shape(U, V, "retraction_slope");
  require_same_shape(U, G, "retraction_slope");
  double slope = 0.0;
  for (Index j = 0; j < U.cols(); ++j) {
    // w = u + t v; with x = w / |w|: <P_x G_j, V_j> = <G_j, V_j> - (x . G_j)(x . V_j).
    const double uu = U.col(j).squaredNorm(), uv = U.col(j).dot(V.col(j)), vv = V.col(j).squaredNorm();
    const double ww = uu + 2.0 * t * uv + t * t * vv;
    const double wg = U.col(j).dot(G.col(j)) + t * V.col(j).dot(G.col(j)), wv = uv + t * vv;
    slope += (G.col(j).dot(V.col(j)) - wg * wv / ww) / std::sqrt(ww);
  }
  return slope;
}

double inner(const Matrix& A, const Matrix& B) { return (A.array() * B.array()).sum(); }

}  // namespace geomsim
