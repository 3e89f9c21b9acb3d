#pragma once
// The registry of concrete solvers: the one place that knows every implementation of
// the Solver interface (solver.hpp), so that the interface itself stays free of them.
#include <memory>
#include <string>
#include <vector>

#include "geomsim/solvers/solver.hpp"

namespace geomsim {

// A solver the CLI, the sweeps and the Python module select by name.
struct SolverChoice {
  std::string name;  // what --solver takes
  std::string runs;  // the solver that runs (its Solver::name()): the name itself, or for "auto" the one it stands for
  std::unique_ptr<Solver> (*make)(double max_seconds);
};

// The table of solvers, in the order the messages list them: "auto", "slsqp", "rlbfgs", "rtr".
// A new solver: its class (NAME_solver.hpp/.cpp), its line in solver_registry.cpp, and its tests.
const std::vector<SolverChoice>& solver_choices();

// The names of solver_choices() joined by ", ", with `last` before the final one; with
// `choices_last` the names that stand for another solver ("auto") come after the others
// ("slsqp, rlbfgs, rtr or auto").
std::string solver_name_list(const std::string& last, bool choices_last = false);

// Whether `name` is the name of a solver that runs (what a sweep row or a result records): "slsqp",
// "rlbfgs", "rtr"; not "auto".
bool is_solver_run_name(const std::string& name);

// The solvers the CLI can select by name (solver_choices()): "slsqp" (the paper's method, NLopt's SLSQP),
// "rlbfgs" (the manifold solver), "rtr" (trust regions with the exact Hessian), or "auto",
// the default: RLBFGS at every size. RLBFGS and SLSQP reach the same best loss (to 7e-13 over
// 8 settings x 20 seeds), but on the paper's problem (K = 3, n_y = 8, d = 3) a seed costs
// about 1 ms by RLBFGS against about 20 ms by SLSQP, whose O((N d)^3) iterations cost 4.7 s
// per seed at N d = 256 (K = 4, n_y = 8, d = 8) against 2.5 ms for RLBFGS.
// max_seconds > 0 caps the wall time of each minimize() call (the run then ends as
// kMaxTimeReached, with its stationarity reported); 0 leaves the solver's own limits.
// Throws InvalidArgument("solver") for an unknown name, ("max-seconds") for a negative cap.
std::unique_ptr<Solver> make_solver(const std::string& name, double max_seconds = 0.0);

// The solver of multi_start's restarts under the seeds' solver `name` (multi_start.hpp).
// For "auto" and "rlbfgs": RLBFGS stopped at the first-order check, stationarity
// kRestartScreenTolerance, which is where a run's basin is known. Half a run's iterations are
// spent beyond it, converging to 1e-9 (65 iterations a run on the paper's problem against 33);
// multi_start finishes each restart that lowers the best loss with the seeds' solver.
// For "slsqp" and "rtr": null, the seeds' solver itself (the paper's method restarts as itself).
constexpr double kRestartScreenTolerance = 1e-4;
std::unique_ptr<Solver> make_restart_solver(const std::string& name, double max_seconds = 0.0);

}  // namespace geomsim
