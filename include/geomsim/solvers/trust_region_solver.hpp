#pragma once
// Riemannian trust regions on the product of spheres (Absil, Baker & Gallivan's RTR, as
// in Manopt's trustregions): each outer iteration minimises the quadratic model
//   m(eta) = f + <g, eta> + 1/2 <eta, Hess f[eta]>,   |eta| <= Delta,
// by truncated conjugate gradients (Steihaug-Toint), retracts, and accepts the step when
// the actual decrease is at least rho_prime of the model's.
//
// The Riemannian Hessian is P_U(D^2 f[eta]) - eta diag(u_i . G_i) (the projection of the
// Euclidean Hessian plus the sphere's Weingarten term), from the objective's exact
// HessianOperator when it has one, otherwise from differences of the gradient.
//
// Why: the spread problems have soft modes (Hessian eigenvalues 1e-5..1e-2 at N = 60,
// more spread at larger N), along which L-BFGS creeps. Conjugate gradients on the exact
// Hessian resolve them, and the outer iteration converges superlinearly near a minimum.
// Cost per outer iteration: one evaluation, one Hessian build (about one more), and one
// Hessian-vector product (three N x N x d products) per inner iteration.
#include "geomsim/solvers/solver.hpp"

namespace geomsim {

class TrustRegionSolver final : public Solver {
 public:
  struct Options {
    double gradient_tolerance = 1e-9;  // the same stationarity test as RlbfgsSolver
    double ftol = 2.220446049250313e-9;  // the same loss test as RlbfgsSolver (scipy L-BFGS-B's),
    int ftol_window = 30;                 // over accepted steps
    int max_iterations = 5000;         // outer iterations
    int max_inner_iterations = 1000;   // conjugate-gradient steps per outer iteration
    double max_seconds = 0.0;          // 0: no limit
    double kappa = 0.1;                // inner stop: |r| <= |r0| min(|r0|^theta, kappa)
    double theta = 1.0;                // (theta = 1: quadratic convergence)
    double rho_prime = 0.1;            // accept a step when rho > rho_prime
    // Largest trust radius, as a multiple of sqrt(N) (every point moves at most ~1 rad);
    // the first radius is an eighth of it.
    double radius_per_sqrt_point = 1.0;
    double stationarity_tolerance = 1e-4;  // stops elsewhere than gtol above this: kStalled
  };

  TrustRegionSolver() = default;
  explicit TrustRegionSolver(Options options) : options_(options) {}

  std::string name() const override { return "rtr"; }
  std::vector<std::pair<std::string, double>> settings() const override;
  SolveSummary minimize(const Objective& objective, Matrix& U) const override;
  // 14 d x N matrices (iterate, gradients, the CG vectors and the trial point); the exact
  // Hessian is the objective's (SpreadLoss::hessian_bytes).
  double state_bytes(Index num_points, Index dim) const override;
  bool uses_exact_hessian() const override { return true; }
  const Options& options() const { return options_; }

 private:
  Options options_;
};

}  // namespace geomsim
