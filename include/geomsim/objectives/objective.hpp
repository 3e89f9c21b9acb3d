#pragma once
// The Objective concept: a smooth function of a point set U (d x N, columns are points)
// with its Euclidean gradient. Solvers handle the sphere constraint; objectives are
// defined on all of R^{d x N} so that constrained solvers may evaluate them at
// slightly infeasible iterates.
#include <memory>
#include <string>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// The Euclidean Hessian of an objective at a fixed U, as a linear operator on d x N
// directions: apply(V) = D^2 f(U)[V]. Built once per point and applied many times by
// second-order solvers (the trust-region solver's inner conjugate gradients).
class HessianOperator {
 public:
  virtual ~HessianOperator() = default;
  virtual Matrix apply(const Matrix& V) const = 0;
};

class Objective {
 public:
  virtual ~Objective() = default;

  // Number of points N the objective expects (the number of columns of U).
  virtual Index num_points() const = 0;

  // A short name for reports, e.g. "spread_loss".
  virtual std::string name() const = 0;

  // f(U).
  virtual double evaluate(const Eigen::Ref<const Matrix>& U) const = 0;

  // f(U), and its Euclidean gradient written to `gradient` (d x N). Shares the work
  // between the two, as ensmallen's EvaluateWithGradient does.
  virtual double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U,
                                        Eigen::Ref<Matrix> gradient) const = 0;

  // The exact Euclidean Hessian at U, when the objective provides one; nullptr otherwise
  // (second-order solvers then difference the gradient).
  virtual std::unique_ptr<HessianOperator> hessian(const Eigen::Ref<const Matrix>& /*U*/) const { return nullptr; }
};

}  // namespace geomsim
