#pragma once
// RLBFGS with its state where the objective lives (issue 49): the iterate, the gradients, the
// direction, the trial point and the stored pairs are tensors on a TensorSpreadObjective's
// device, and the sphere's projection, retraction and transport run there. The algorithm is the
// core's RlbfgsSolver's, run by the same control flow (solvers/rlbfgs_loop.hpp: the same
// decisions, stopping rules and SolveSummary), so on the CPU in float64 its iterates are the
// Eigen solver's to rounding (tests/train/losses/test_tensor_rlbfgs_solver.cpp: 1e-10 over 50
// iterations).
//
// Per iteration only scalars cross to the host: |g| and |G| (one read), <g, p> (one), f of each
// trial (one, inside the objective), and <s, y>, <s, s>, <y, y> of the new pair (one), with
// max_i |p_i| when there are no pairs and the slope at the trial when Armijo's test needs it.
// The two-loop's coefficients stay on the device. Where the Eigen solver on a GPU objective
// copied the iterate to the device and the gradient back at every evaluation (2.56 M doubles
// each way at N = 2e4, d = 128) and ran the recursion on the host, nothing of size N moves.
//
// The recursion is the plain form (each stored pair projected onto the new tangent space, then
// the two-loop on the vectors); the Eigen solver's kept inner products, which save memory
// traffic on a CPU, agree with it to rounding (tests/solvers/test_rlbfgs_pairs.cpp).
// Memory on the device: 2 m + about 12 N x d float64 tensors.
#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/train/losses/tensor_spread_objective.hpp"

namespace geomsim::train {

class TensorRlbfgsSolver final : public Solver {
 public:
  TensorRlbfgsSolver() = default;
  explicit TensorRlbfgsSolver(RlbfgsSolver::Options options) : options_(options) {}

  std::string name() const override { return "rlbfgs"; }  // the same algorithm as the core's
  std::vector<std::pair<std::string, double>> settings() const override;
  // A TensorSpreadObjective: on its device (minimize_points). Any other objective: the core's
  // RlbfgsSolver on the host.
  SolveSummary minimize(const Objective& objective, Matrix& U) const override;
  // The solve on `objective`'s device, from U (d x N, copied there) to U (copied back).
  // Throws InvalidArgument as RlbfgsSolver does (U with another number of columns, a zero column).
  SolveSummary minimize_points(const TensorSpreadObjective& objective, Matrix& U) const;
  double state_bytes(Index num_points, Index dim) const override;
  const RlbfgsSolver::Options& options() const { return options_; }

 private:
  RlbfgsSolver::Options options_;
};

}  // namespace geomsim::train
