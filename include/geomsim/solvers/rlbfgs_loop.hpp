#pragma once
// RLBFGS's control flow (rlbfgs_solver.hpp), written once over where its state lives (issue 49):
// the core's RlbfgsSolver runs it on Eigen matrices on the host, geomsim-torch's
// TensorRlbfgsSolver (train/losses/tensor_rlbfgs_solver.hpp) on tensors on the objective's
// device. Both make the same decisions (the descent test, the first step, Armijo's test on
// values or slopes, the retry along -g, the cautious update, the ftol window, the time budget,
// stationarity) from the same scalars; only the vector arithmetic is the space's.
//
// A Space holds the iterate U, the Euclidean gradient G, the Riemannian gradient g, the
// direction p, a trial point and the stored pairs, and provides:
//   double gradient_norm(), euclidean_norm()  |g|, |G| (should_stop's and finish's scalars)
//   void direction()                  p = -H g from the stored pairs (transported to U)
//   double slope()                    <g, p>
//   double steepest()                 forgets the pairs, p = -g; returns -|g|^2
//   bool pairs_empty()
//   void clear_pairs()
//   double largest_step()             max_i |p_i| (the first step's scale)
//   double evaluate_trial(double t)   the trial R_U(t p), its value (and Euclidean gradient kept)
//   double trial_slope(double t)      d/dt f(R_U(t p)) from the trial's gradient
//   void accept(double t)             the new pair (kept when its curvature is positive) and the
//                                     trial becomes the iterate
//   double constraint_violation()     max_i | |u_i| - 1 |
// Internal to the solvers; public only so that geomsim-torch can instantiate it.
#include <algorithm>
#include <cmath>

#include "geomsim/solvers/rlbfgs_solver.hpp"

namespace geomsim::detail {

// scipy L-BFGS-B's loss test, (f_k - f_{k+1}) / max(|f_k|, |f_{k+1}|, 1) <= ftol, required on
// `window` consecutive iterations. record() returns true, with the summary's status and
// message set, when the window is full.
class LossChangeTest {
 public:
  LossChangeTest(double ftol, int window);
  bool record(double f_before, double f_after, SolveSummary& summary);

 private:
  double ftol_;
  int window_, run_ = 0;
};

// The tests every iteration begins with, from f, |g| and |G|: a non-finite value or gradient
// (kFailure), |g| <= gradient_tolerance |G| (kGradientToleranceReached), and the time budget
// (kMaxTimeReached, when max_seconds > 0). Returns true, with the summary's status and message
// set, when the solver must stop.
bool should_stop_at(double f, double gradient_norm, double euclidean_norm, double gradient_tolerance,
                    double max_seconds, double elapsed_seconds, SolveSummary& summary);

// Fills the summary's loss, stationarity (|g| / |G|) and constraint violation, and turns a
// converged status other than gtol at a point less stationary than stationarity_tolerance into
// kStalled.
void finish_at(double f, double gradient_norm, double euclidean_norm, double constraint_violation,
               double stationarity_tolerance, SolveSummary& summary);

// Armijo's test, f(t) <= f(0) + c t f'(0) with c = 1e-4, on the values while they can tell,
// and on the slopes where they cannot. Near a minimum the first-order decrease t |f'(0)| falls
// below the loss's rounding (relative 1e-12 here: a sum of N log-sum-exps), and the values'
// test then passes or fails by the last bits' luck: a portable (SSE2) build ended the N = 2000,
// d = 32, alpha = 0.5 solve by ftol at stationarity 1.3e-8 after 370 evaluations, where a
// native one reached gtol in 48. There the test is the one Armijo's is for a quadratic along
// the line, written in slopes: f'(t) <= (2c - 1) f'(0), with f(t) within the rounding of
// f(0) (the decrease half of the approximate Wolfe conditions of Hager & Zhang, "A new
// conjugate gradient method with guaranteed descent and an efficient line search", SIAM J.
// Optim. 16(1):170-192).
// `slope_at_t` computes f'(t) from the trial's gradient, only when it is needed.
template <class SlopeAtT>
bool sufficient_decrease(double f, double f_next, double t, double slope, SlopeAtT slope_at_t) {
  constexpr double c = 1e-4;
  if (f_next <= f + c * t * slope) return true;
  const double rounding = 1e-12 * std::max(1.0, std::abs(f));
  if (!(f_next <= f + rounding) || -t * slope > rounding) return false;
  return slope_at_t() <= (2.0 * c - 1.0) * slope;
}

// The iterations from the start (f, with the space at the start's U, G and g), then the final
// report. summary.evaluations counts the start's evaluation before the call.
template <class Space, class Elapsed>
void rlbfgs_iterations(Space& space, double f, const RlbfgsSolver::Options& options, Elapsed elapsed,
                       SolveSummary& summary) {
  LossChangeTest loss_change(options.ftol, options.ftol_window);
  summary.status = SolveStatus::kMaxEvaluationsReached;
  summary.message = "iteration budget (max_iterations) used up";
  for (int iteration = 0; iteration < options.max_iterations; ++iteration) {
    if (should_stop_at(f, space.gradient_norm(), space.euclidean_norm(), options.gradient_tolerance,
                       options.max_seconds, elapsed(), summary)) {
      break;
    }
    space.direction();
    double slope = space.slope();
    if (!(slope < 0.0)) slope = space.steepest();  // not a descent direction: forget the curvature pairs
    // Without curvature information, start with a step that moves no point by more
    // than 0.1 (radians, to first order).
    double t = space.pairs_empty() ? std::min(1.0, 0.1 / space.largest_step()) : 1.0;
    double f_next = 0.0;
    bool accepted = false;
    for (int backtrack = 0; backtrack < 60; ++backtrack) {
      f_next = space.evaluate_trial(t);
      ++summary.evaluations;
      if (sufficient_decrease(f, f_next, t, slope, [&] { return space.trial_slope(t); })) {
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) {
      if (!space.pairs_empty()) {  // the quasi-Newton model misled: retry along -g
        space.clear_pairs();
        continue;
      }
      summary.status = SolveStatus::kRoundoffLimited;
      summary.message = "no decrease along the negative gradient (roundoff limited)";
      break;
    }
    ++summary.iterations;
    space.accept(t);
    const double f_before = f;
    f = f_next;
    if (loss_change.record(f_before, f, summary)) break;
  }
  finish_at(f, space.gradient_norm(), space.euclidean_norm(), space.constraint_violation(),
            options.stationarity_tolerance, summary);
  summary.seconds = elapsed();
}

}  // namespace geomsim::detail
