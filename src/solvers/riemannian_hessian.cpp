#include "solvers/riemannian_hessian.hpp"

#include <cmath>

#include "geomsim/manifold/product_of_spheres.hpp"

namespace geomsim::detail {

RiemannianHessian::RiemannianHessian(const Objective& objective, const Matrix& U, const Matrix& G, const Matrix& g,
                                     int& evaluations)
    : objective_(objective), U_(U), g_(g), evaluations_(evaluations), exact_(objective.hessian(U)) {
  weingarten_ = (U.array() * G.array()).colwise().sum().transpose();
}

// Without an exact Hessian: (P_U(P_Y G(Y)) - g) / t with Y = R_U(t eta).
Matrix RiemannianHessian::apply(const Matrix& eta) const {
  if (exact_) return project_to_tangent(U_, exact_->apply(eta)) - eta * weingarten_.asDiagonal();
  const double norm = eta.norm();
  if (norm == 0.0) return Matrix::Zero(eta.rows(), eta.cols());
  const double t = std::ldexp(1.0, -14) / norm;
  const Matrix Y = retract(U_, t * eta);
  Matrix GY(Y.rows(), Y.cols());
  objective_.evaluate_with_gradient(Y, GY);
  ++evaluations_;
  return project_to_tangent(U_, project_to_tangent(Y, GY) - g_) / t;
}

}  // namespace geomsim::detail
