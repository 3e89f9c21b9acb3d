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

const std::vector<SolverChoice>& solver_choices() {
  static const std::vector<SolverChoice> choices{
      {"auto", "rlbfgs", [](double max_seconds) { return with_time_cap<RlbfgsSolver>(max_seconds); }},  // RLBFGS at every size
      {"slsqp", "slsqp", [](double max_seconds) { return with_time_cap<SlsqpSolver>(max_seconds); }},
      {"rlbfgs", "rlbfgs", [](double max_seconds) { return with_time_cap<RlbfgsSolver>(max_seconds); }},
      {"rtr", "rtr", [](double max_seconds) { return with_time_cap<TrustRegionSolver>(max_seconds); }},
  };
  return choices;
}

std::string solver_name_list(const std::string& last, bool choices_last) {
  std::vector<std::string> names;
  for (const auto& choice : solver_choices()) {
    if (!choices_last || choice.runs == choice.name) names.push_back(choice.name);
  }
  for (const auto& choice : solver_choices()) {
    if (choices_last && choice.runs != choice.name) names.push_back(choice.name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? last : ", ") + names[i];
  return out;
}

bool is_solver_run_name(const std::string& name) {
  for (const auto& choice : solver_choices()) {
    if (choice.runs == name) return true;
  }
  return false;
}

std::unique_ptr<Solver> make_solver(const std::string& name, double max_seconds) {
  require_non_negative("max-seconds", max_seconds);
  for (const auto& choice : solver_choices()) {
    if (choice.name == name) return choice.make(max_seconds);
  }
  throw InvalidArgument("solver", "must be one of: " + solver_name_list(", ") + "; got '" + name + "'");
}

std::unique_ptr<Solver> make_restart_solver(const std::string& name, double max_seconds) {
  if (make_solver(name, max_seconds)->name() != "rlbfgs") return nullptr;
  RlbfgsSolver::Options screen;
  screen.gradient_tolerance = kRestartScreenTolerance;
  return with_time_cap<RlbfgsSolver>(max_seconds, screen);
}

}  // namespace geomsim
