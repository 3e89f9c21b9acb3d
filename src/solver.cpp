#include "geomsim/solver.hpp"

#include <cstdio>

#include "geomsim/errors.hpp"
#include "geomsim/product_of_spheres.hpp"
#include "geomsim/rlbfgs_solver.hpp"
#include "geomsim/trust_region_solver.hpp"
#include "geomsim/slsqp_solver.hpp"

namespace geomsim {

std::string to_string(SolveStatus status) {
  switch (status) {
    case SolveStatus::kGradientToleranceReached: return "gtol";
    case SolveStatus::kFunctionToleranceReached: return "ftol";
    case SolveStatus::kStepToleranceReached: return "xtol";
    case SolveStatus::kRoundoffLimited: return "roundoff";
    case SolveStatus::kMaxEvaluationsReached: return "max_evaluations";
    case SolveStatus::kMaxTimeReached: return "max_time";
    case SolveStatus::kStalled: return "stalled";
    case SolveStatus::kFailure: return "failure";
  }
  return "failure";
}

bool is_converged(SolveStatus status) {
  return status == SolveStatus::kGradientToleranceReached || status == SolveStatus::kFunctionToleranceReached ||
         status == SolveStatus::kStepToleranceReached || status == SolveStatus::kRoundoffLimited;
}

std::string SolveSummary::brief_report() const {
  char line[256];
  std::snprintf(line, sizeof line, "loss %.12g after %d iterations (%d evaluations, %d restarts), %s: %s", loss,
                iterations, evaluations, restarts, to_string(status).c_str(), message.c_str());
  return line;
}

double stationarity(const Objective& objective, const Matrix& U) {
  Matrix G(U.rows(), U.cols());
  objective.evaluate_with_gradient(U, G);
  const double full = G.norm();
  return full == 0.0 ? 0.0 : project_to_tangent(U, G).norm() / full;
}

namespace {
template <class SolverType>
std::unique_ptr<Solver> with_time_cap(double max_seconds) {
  typename SolverType::Options options;
  options.max_seconds = max_seconds;
  return std::make_unique<SolverType>(options);
}
}  // namespace

std::unique_ptr<Solver> make_solver(const std::string& name, Index num_points, Index dim, double max_seconds) {
  require_non_negative("max-seconds", max_seconds);
  if (name == "slsqp") return with_time_cap<SlsqpSolver>(max_seconds);
  if (name == "rlbfgs") return with_time_cap<RlbfgsSolver>(max_seconds);
  if (name == "rtr") return with_time_cap<TrustRegionSolver>(max_seconds);
  if (name == "auto") {
    if (num_points * dim <= kAutoSlsqpMaxVariables) return with_time_cap<SlsqpSolver>(max_seconds);
    return with_time_cap<RlbfgsSolver>(max_seconds);
  }
  throw InvalidArgument("solver", "must be one of: auto, slsqp, rlbfgs, rtr; got '" + name + "'");
}

}  // namespace geomsim
