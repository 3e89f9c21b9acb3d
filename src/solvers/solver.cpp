#include "geomsim/solvers/solver.hpp"

#include <cstdio>

#include "geomsim/manifold/product_of_spheres.hpp"

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

}  // namespace geomsim
