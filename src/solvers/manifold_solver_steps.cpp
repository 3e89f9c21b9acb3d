#include "solvers/manifold_solver_steps.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::detail {

FirstOrder start_on_sphere(const Objective& objective, Matrix& U) {
  if (U.cols() != objective.num_points()) {
    throw InvalidArgument("points", "must have " + std::to_string(objective.num_points()) + " columns, got " +
                                        std::to_string(U.cols()));
  }
  normalize_columns(U);
  FirstOrder out;
  out.G.resize(U.rows(), U.cols());
  out.f = objective.evaluate_with_gradient(U, out.G);
  out.g = project_to_tangent(U, out.G);
  return out;
}

bool should_stop_at(double f, double gnorm, double Gnorm, double gradient_tolerance, double max_seconds,
                    double elapsed_seconds, SolveSummary& summary) {
  if (!std::isfinite(f) || !std::isfinite(gnorm)) {
    summary.status = SolveStatus::kFailure;
    summary.message = "the objective or its gradient is not finite";
    return true;
  }
  if (gnorm <= gradient_tolerance * Gnorm) {
    summary.status = SolveStatus::kGradientToleranceReached;
    summary.message = "relative Riemannian gradient below gradient_tolerance";
    return true;
  }
  if (max_seconds > 0.0 && elapsed_seconds > max_seconds) {
    summary.status = SolveStatus::kMaxTimeReached;
    summary.message = "time budget (max_seconds) used up";
    return true;
  }
  return false;
}

bool should_stop(double f, const Matrix& g, const Matrix& G, double gradient_tolerance, double max_seconds,
                 double elapsed_seconds, SolveSummary& summary) {
  return should_stop_at(f, g.norm(), G.norm(), gradient_tolerance, max_seconds, elapsed_seconds, summary);
}

LossChangeTest::LossChangeTest(double ftol, int window) : ftol_(ftol), window_(window) {
  require_non_negative("ftol", ftol);
  require_at_least("ftol_window", window, 1);
}

bool LossChangeTest::record(double f_before, double f_after, SolveSummary& summary) {
  const double scale = std::max({std::abs(f_before), std::abs(f_after), 1.0});
  run_ = (f_before - f_after) / scale <= ftol_ ? run_ + 1 : 0;
  if (run_ < window_) return false;
  summary.status = SolveStatus::kFunctionToleranceReached;
  summary.message = "relative change of the loss below ftol on " + std::to_string(window_) +
                    " consecutive iterations";
  return true;
}

void finish_at(double f, double gnorm, double Gnorm, double constraint_violation, double stationarity_tolerance,
               SolveSummary& summary) {
  summary.loss = f;
  summary.stationarity = Gnorm > 0.0 ? gnorm / Gnorm : 0.0;
  summary.constraint_violation = constraint_violation;
  if (summary.converged() && summary.status != SolveStatus::kGradientToleranceReached &&
      summary.stationarity > stationarity_tolerance) {
    summary.status = SolveStatus::kStalled;
    summary.message = "stopped at a non-stationary point (stationarity " + format_number(summary.stationarity) + ")";
  }
}

void finish(double f, const Matrix& U, const Matrix& g, const Matrix& G, double stationarity_tolerance,
            SolveSummary& summary) {
  finish_at(f, g.norm(), G.norm(), max_norm_violation(U), stationarity_tolerance, summary);
}

}  // namespace geomsim::detail
