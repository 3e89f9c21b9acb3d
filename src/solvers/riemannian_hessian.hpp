#pragma once
// The Riemannian Hessian of an objective on the product of spheres at a point, as an
// operator on tangent vectors: P_U(D^2 f[eta]) - eta diag(u_i . G_i), the projection of the
// Euclidean Hessian plus the sphere's Weingarten term; from the objective's exact Hessian
// when it has one, otherwise from differences of the gradient. Shared by the trust-region
// solver and the second-order certificate. Internal header.
#include <memory>

#include "geomsim/objectives/objective.hpp"

namespace geomsim::detail {

class RiemannianHessian {
 public:
  // U on the sphere, G its Euclidean gradient, g = P_U G. Gradient evaluations made by the
  // difference form are counted in `evaluations`. U, g and the objective must outlive this.
  RiemannianHessian(const Objective& objective, const Matrix& U, const Matrix& G, const Matrix& g, int& evaluations);
  Matrix apply(const Matrix& eta) const;
  bool exact() const { return exact_ != nullptr; }

 private:
  const Objective& objective_;
  const Matrix& U_;
  const Matrix& g_;
  int& evaluations_;
  std::unique_ptr<HessianOperator> exact_;
  Vector weingarten_;
};

}  // namespace geomsim::detail
