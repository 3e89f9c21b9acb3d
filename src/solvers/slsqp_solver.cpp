#include "geomsim/solvers/slsqp_solver.hpp"

#include <nlopt.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <string>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

struct Problem {
  const Objective* objective;
  Index dim;
  Index count;
  double scale = 1.0;  // SLSQP sees scale * f
  int evaluations = 0;
  int gradient_evaluations = 0;
};

// Riemannian gradient descent on the product of spheres with Armijo backtracking and
// retraction by normalisation: the way out of points where SLSQP stalls.
void escape_by_gradient_descent(Problem& p, Matrix& U, int steps) {
  const Objective& f = *p.objective;
  Matrix G(U.rows(), U.cols()), V;
  double fu = f.evaluate_with_gradient(U, G);
  ++p.evaluations;
  double t = 1.0;
  for (int k = 0; k < steps; ++k) {
    const Matrix R = project_to_tangent(U, G);
    const double r2 = R.squaredNorm();
    if (!(r2 > 0.0)) return;
    while (true) {
      V = retract(U, -t * R);
      const double fv = f.evaluate(V);
      ++p.evaluations;
      if (fv <= fu - 1e-4 * t * r2) break;  // sufficient decrease
      t *= 0.5;
      if (t < 1e-14) return;
    }
    U.swap(V);
    fu = f.evaluate_with_gradient(U, G);
    ++p.evaluations;
    t *= 2.0;
  }
}

double objective_callback(unsigned n, const double* x, double* grad, void* data) {
  auto& p = *static_cast<Problem*>(data);
  (void)n;
  const Eigen::Map<const Matrix> U(x, p.dim, p.count);
  ++p.evaluations;
  if (grad == nullptr) return p.scale * p.objective->evaluate(U);
  ++p.gradient_evaluations;
  Eigen::Map<Matrix> G(grad, p.dim, p.count);
  const double value = p.objective->evaluate_with_gradient(U, G);
  G *= p.scale;
  return p.scale * value;
}

// h_i(x) = |u_i|^2 - 1; its Jacobian is m x n, row-major, with 2 u_i in row i.
void unit_norm_callback(unsigned m, double* result, unsigned n, const double* x, double* grad, void* data) {
  const auto& p = *static_cast<const Problem*>(data);
  const Eigen::Map<const Matrix> U(x, p.dim, p.count);
  if (grad != nullptr) std::fill(grad, grad + static_cast<std::size_t>(m) * n, 0.0);
  for (Index i = 0; i < p.count; ++i) {
    result[i] = U.col(i).squaredNorm() - 1.0;
    if (grad != nullptr) {
      double* row = grad + static_cast<std::size_t>(i) * n + static_cast<std::size_t>(i * p.dim);
      for (Index r = 0; r < p.dim; ++r) row[r] = 2.0 * U(r, i);
    }
  }
}

SolveStatus status_of(nlopt_result result) {
  switch (result) {
    case NLOPT_FTOL_REACHED: return SolveStatus::kFunctionToleranceReached;
    case NLOPT_XTOL_REACHED: return SolveStatus::kStepToleranceReached;
    case NLOPT_ROUNDOFF_LIMITED: return SolveStatus::kRoundoffLimited;
    case NLOPT_MAXEVAL_REACHED: return SolveStatus::kMaxEvaluationsReached;
    case NLOPT_MAXTIME_REACHED: return SolveStatus::kMaxTimeReached;
    default: return SolveStatus::kFailure;
  }
}

std::string message_of(nlopt_result result, nlopt_opt opt) {
  switch (result) {
    case NLOPT_FTOL_REACHED: return "relative change of the loss below ftol_rel";
    case NLOPT_XTOL_REACHED: return "relative change of the points below xtol_rel";
    case NLOPT_ROUNDOFF_LIMITED: return "no further progress possible in floating point (roundoff limited)";
    case NLOPT_MAXEVAL_REACHED: return "evaluation budget (max_evaluations) used up";
    case NLOPT_MAXTIME_REACHED: return "time budget (max_seconds) used up";
    default: break;
  }
  const char* detail = nlopt_get_errmsg(opt);
  return std::string("NLopt failed with code ") + std::to_string(static_cast<int>(result)) +
         (detail != nullptr ? std::string(": ") + detail : std::string());
}

struct OptDeleter {
  void operator()(nlopt_opt opt) const { nlopt_destroy(opt); }
};

}  // namespace

std::vector<std::pair<std::string, double>> SlsqpSolver::settings() const {
  return {{"ftol_rel", options_.ftol_rel},
          {"xtol_rel", options_.xtol_rel},
          {"constraint_tolerance", options_.constraint_tolerance},
          {"max_evaluations", options_.max_evaluations},
          {"max_seconds", options_.max_seconds},
          {"stationarity_tolerance", options_.stationarity_tolerance},
          {"max_restarts", options_.max_restarts},
          {"escape_steps", options_.escape_steps},
          {"scale_by_points", options_.scale_by_points ? 1.0 : 0.0}};
}

void SlsqpSolver::require_supported_size(Index num_points, Index dim) const {
  const double n = static_cast<double>(num_points) * static_cast<double>(dim);
  if (n > static_cast<double>(kMaxVariables)) {
    throw InvalidArgument("solver", "slsqp handles at most " + std::to_string(kMaxVariables) +
                                        " variables (N*d), got " + format_number(n) +
                                        "; dense SLSQP needs O((N d)^2) memory and O((N d)^3) time per iteration");
  }
}

double SlsqpSolver::state_bytes(Index num_points, Index dim) const {
  const double n = static_cast<double>(num_points) * static_cast<double>(dim), m = static_cast<double>(num_points);
  const double n1 = n + 1.0, meq = m, mineq = m - meq + 2.0 * n1;
  const double len_w = (3.0 * n1 + m) * (n1 + 1.0) + (n1 - meq + 1.0) * (mineq + 2.0) + 2.0 * mineq +
                       (n1 + mineq) * (n1 - meq) + 2.0 * meq + n1 + (n + 1.0) * n / 2.0 + 2.0 * m + 3.0 * n +
                       3.0 * n1 + 1.0;
  return 8.0 * (len_w + m * n1 + m * n + 12.0 * n);
}

SolveSummary SlsqpSolver::minimize(const Objective& objective, Matrix& U) const {
  const auto start = std::chrono::steady_clock::now();
  if (U.cols() != objective.num_points()) {
    throw InvalidArgument("points", "must have " + std::to_string(objective.num_points()) + " columns, got " +
                                        std::to_string(U.cols()));
  }
  const Index n = U.size();
  require_supported_size(U.cols(), U.rows());
  Problem problem{&objective, U.rows(), U.cols()};
  if (options_.scale_by_points) problem.scale = static_cast<double>(U.cols());
  const std::vector<double> tolerances(static_cast<std::size_t>(U.cols()), options_.constraint_tolerance);
  SolveSummary summary;
  while (true) {
    std::unique_ptr<nlopt_opt_s, OptDeleter> opt(nlopt_create(NLOPT_LD_SLSQP, static_cast<unsigned>(n)));
    if (!opt) throw std::bad_alloc();
    nlopt_set_min_objective(opt.get(), objective_callback, &problem);
    nlopt_add_equality_mconstraint(opt.get(), static_cast<unsigned>(U.cols()), unit_norm_callback, &problem,
                                   tolerances.data());
    nlopt_set_ftol_rel(opt.get(), options_.ftol_rel);
    nlopt_set_xtol_rel(opt.get(), options_.xtol_rel);
    nlopt_set_maxeval(opt.get(), std::max(1, options_.max_evaluations - problem.evaluations));
    if (options_.max_seconds > 0.0) {
      const double used = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      nlopt_set_maxtime(opt.get(), std::max(1e-3, options_.max_seconds - used));
    }
    double final_value = 0.0;
    const nlopt_result result = nlopt_optimize(opt.get(), U.data(), &final_value);
    summary.status = status_of(result);
    summary.message = message_of(result, opt.get());
    summary.constraint_violation = max_norm_violation(U);
    if (!U.allFinite()) {
      summary.status = SolveStatus::kFailure;
      summary.message = "the solver produced non-finite points";
      break;
    }
    normalize_columns(U);  // report on a point set that is exactly on the sphere
    summary.stationarity = stationarity(objective, U);
    if (!summary.converged() || summary.stationarity <= options_.stationarity_tolerance) break;
    if (summary.restarts == options_.max_restarts) {
      summary.status = SolveStatus::kStalled;
      summary.message = "stopped at a non-stationary point (stationarity " + format_number(summary.stationarity) +
                        ") after " + std::to_string(summary.restarts) + " restarts";
      break;
    }
    ++summary.restarts;
    escape_by_gradient_descent(problem, U, options_.escape_steps);
  }
  summary.evaluations = problem.evaluations;
  // NLopt's SLSQP asks for the gradient exactly once per major iteration (at each new
  // iterate) plus once at each (re)start; line-search points are evaluated without it.
  // (The escape steps count as evaluations, not as SLSQP iterations.)
  summary.iterations = std::max(0, problem.gradient_evaluations - 1 - summary.restarts);
  summary.loss = summary.status == SolveStatus::kFailure ? std::nan("") : objective.evaluate(U);
  summary.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return summary;
}

}  // namespace geomsim
