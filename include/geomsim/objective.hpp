#pragma once
// The Objective concept: a smooth function of a point set U (d x N, columns are points)
// with its Euclidean gradient. Solvers handle the sphere constraint; objectives are
// defined on all of R^{d x N} so that constrained solvers may evaluate them at
// slightly infeasible iterates.
#include <string>

#include "geomsim/sphere.hpp"

namespace geomsim {

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
};

}  // namespace geomsim
