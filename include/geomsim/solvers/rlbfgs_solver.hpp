#pragma once
// Riemannian L-BFGS on the product of spheres (Huang, Absil & Gallivan's RLBFGS as in
// Manopt's rlbfgs): the L-BFGS two-loop recursion on tangent vectors, stored pairs moved
// to the current tangent space by projection, an Armijo backtracking line search along
// the retraction, and a cautious update that skips pairs with too little curvature.
//
// Cost per iteration: one objective+gradient evaluation (rarely more: the unit step is
// almost always accepted) plus O(m N d) for the recursion. Memory: 2 m d x N matrices.
// No dense N d x N d matrix, so it scales to N in the tens of thousands, where SLSQP's
// O((N d)^2) memory and O((N d)^3) time per iteration cannot go.
#include "geomsim/solvers/solver.hpp"

namespace geomsim {

class RlbfgsSolver final : public Solver {
 public:
  struct Options {
    int memory = 10;  // stored (s, y) pairs; ensmallen's L-BFGS default
    // Converged when stationarity() (|Riemannian grad| / |Euclidean grad|) falls below
    // this. The loss then lies within ~|grad|^2 / curvature of the local minimum: far
    // below the 1e-7 at which geomsim promises agreement with SLSQP.
    double gradient_tolerance = 1e-9;
    // Also stop when an iteration changes f by less than ftol_rel * max(|f|, 1): in
    // double precision the loss cannot resolve smaller changes.
    double ftol_rel = 1e-15;
    int max_iterations = 100000;
    double max_seconds = 0.0;  // 0: no limit
    // A stop by ftol or by a failed line search at a point less stationary than this is
    // reported as kStalled (the same contract as SlsqpSolver).
    double stationarity_tolerance = 1e-4;
  };

  RlbfgsSolver() = default;
  explicit RlbfgsSolver(Options options) : options_(options) {}

  std::string name() const override { return "rlbfgs"; }
  std::vector<std::pair<std::string, double>> settings() const override;
  SolveSummary minimize(const Objective& objective, Matrix& U) const override;
  // 2 memory + 12 d x N matrices: the stored pairs, and the iterate, gradients, direction,
  // trial point and the recursion's temporaries.
  double state_bytes(Index num_points, Index dim) const override;
  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace geomsim
