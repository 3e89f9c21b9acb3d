#include "geomsim/solvers/solver_registry.hpp"

#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/solvers/slsqp_solver.hpp"
#include "geomsim/solvers/trust_region_solver.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

namespace {
template <class SolverType>
std::unique_ptr<Solver> with_time_cap(double max_seconds, typename SolverType::Options options = {}) {
  options.max_seconds = max_seconds;
  return std::make_unique<SolverType>(options);
}
}  // namespace

std::unique_ptr<Solver> make_solver(const std::string& name, double max_seconds) {
  require_non_negative("max-seconds", max_seconds);
  if (name == "slsqp") return with_time_cap<SlsqpSolver>(max_seconds);
  if (name == "rlbfgs" || name == "auto") return with_time_cap<RlbfgsSolver>(max_seconds);
  if (name == "rtr") return with_time_cap<TrustRegionSolver>(max_seconds);
  throw InvalidArgument("solver", "must be one of: auto, slsqp, rlbfgs, rtr; got '" + name + "'");
}

std::unique_ptr<Solver> make_restart_solver(const std::string& name, double max_seconds) {
  if (make_solver(name, max_seconds)->name() != "rlbfgs") return nullptr;
  RlbfgsSolver::Options screen;
  screen.gradient_tolerance = kRestartScreenTolerance;
  return with_time_cap<RlbfgsSolver>(max_seconds, screen);
}

}  // namespace geomsim
