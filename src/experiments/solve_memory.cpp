#include "geomsim/experiments/solve_memory.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/solvers/multi_start.hpp"
#include "geomsim/solvers/second_order_certificate.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim {
namespace {
std::string count_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.15g", value);
  return text;
}

SolveMemory estimate_with_threads(const SpreadProblem& problem, const SolveSettings& settings, int parallel_problems,
                                  int team);
}  // namespace

SolveMemory estimate_solve_memory(const SpreadProblem& problem, const SolveSettings& settings, int parallel_problems) {
  SolveMemory m = estimate_with_threads(problem, settings, parallel_problems, std::max(1, omp_get_max_threads()));
  // The same solve on fewer threads: a sweep runs at most one grid point per thread.
  m.with_threads = [problem, settings, parallel_problems](int team) {
    return estimate_with_threads(problem, settings, std::min(std::max(1, parallel_problems), team), team);
  };
  return m;
}

namespace {
// The estimate with `team` OpenMP threads (omp_get_max_threads(): OMP_NUM_THREADS or the cores).
SolveMemory estimate_with_threads(const SpreadProblem& problem, const SolveSettings& settings, int parallel_problems,
                                  int team) {
  problem.validate();
  SolveMemory m;
  m.num_points = static_cast<double>(problem.K) * static_cast<double>(problem.ny);
  m.dim = problem.dim();
  // Sizes beyond an Index are refused by their size alone (no estimate needed: exabytes).
  const double index_max = 9.0e18;
  const Index N = m.num_points < index_max ? static_cast<Index>(m.num_points) : Index{0};
  const Index d = static_cast<Index>(m.dim);
  const auto solver = make_solver(settings.solver, settings.max_seconds);
  m.solver_name = solver->name();
  solver->require_supported_size(N, d);
  const int threads = std::max(team, 1);
  m.team = team;
  m.threads = std::max(threads, std::max(1, parallel_problems));
  const int seeds_at_once = parallel_problems > 1 ? 1 : concurrent_seeds(N, settings.seeds.size(), threads);
  m.concurrent_runs = std::max(1, parallel_problems) * seeds_at_once;
  const double runs = m.concurrent_runs, problems = std::max(1, parallel_problems);
  const double seeds = static_cast<double>(settings.seeds.size());
  const double nd = m.num_points * m.dim;
  // Per problem: labels (4 N), every seed's start and solution (multi_start keeps them all),
  // and the best run's points, the collapsed simplex and the measurements' copies (3 N d).
  // Restarts hold a batch of trial points more.
  const bool restarts = N > 0 && settings.restarts_for(N, d) > 0;
  const double trials = restarts ? kRestartBatch : 0.0;
  m.points = problems * (4.0 * m.num_points + 8.0 * nd * (seeds + 3.0 + trials) + 8.0 * 4.0 * m.num_points);
  const int eval_threads = seeds_at_once > 1 || parallel_problems > 1 ? 1 : threads;
  m.evaluation = runs * SpreadLoss::evaluation_bytes(N, d, problem.tau, PairEvaluation::kAuto, eval_threads);
  m.evaluation_path = SpreadLoss::path_for(PairEvaluation::kAuto, N, d) == PairEvaluation::kStored
                          ? "stored"
                          : "streamed";
  m.solver = runs * solver->state_bytes(N, d);
  if (solver->uses_exact_hessian()) m.hessian = runs * SpreadLoss::hessian_bytes(N, d, PairEvaluation::kAuto, eval_threads);
  if (restarts) {  // the restarts' solver, a batch at once, after the seeds
    const auto screen = make_restart_solver(settings.solver, settings.max_seconds);
    const Solver* restart_solver = screen ? screen.get() : solver.get();
    restart_solver->require_supported_size(N, d);
    const double batch_runs = problems * (parallel_problems > 1 ? 1 : concurrent_seeds(N, kRestartBatch, threads));
    m.solver = std::max(m.solver, batch_runs * restart_solver->state_bytes(N, d));
    if (restart_solver->uses_exact_hessian()) m.hessian = std::max(m.hessian, batch_runs * SpreadLoss::hessian_bytes(N, d, PairEvaluation::kAuto, eval_threads));
  }
  // After the solve, while the best run's points are kept: one Hessian and the Lanczos basis.
  if (settings.certify) m.certificate = problems * (SpreadLoss::hessian_bytes(N, d, PairEvaluation::kAuto, eval_threads) + certificate_bytes(N, d));
  if (N == 0) m.points = m.evaluation = m.solver = 8.0 * nd * nd;  // beyond any machine
  return m;
}
}  // namespace

std::string SolveMemory::describe() const {
  std::string text = "N = " + count_text(num_points) + " points in R^" + count_text(dim);
  if (concurrent_runs > 1) text += " (" + std::to_string(concurrent_runs) + " runs at once)";
  text += ": spread loss (" + evaluation_path + ") " + format_bytes(evaluation) + ", " + solver_name + " state " +
          format_bytes(solver);
  if (hessian > 0) text += ", exact Hessian " + format_bytes(hessian);
  if (certificate > 0) text += ", certificate " + format_bytes(certificate);
  text += ", points " + format_bytes(points);
  if (outputs > 0) text += ", outputs " + format_bytes(outputs);
  return text;
}

void SolveMemory::require() const {
  // The part that dominates says which size to lower: the N x N parts (stored evaluation,
  // Hessian) only through n_y; the N d parts through the larger of the two.
  const bool square_in_points = (evaluation_path == "stored" && evaluation >= std::max(points, solver)) ||
                                std::max(hessian, certificate) >= std::max({points, solver, evaluation});
  const std::string argument = !square_in_points && dim > num_points ? "d" : "ny";
  const double available = static_cast<double>(available_memory_bytes());
  if (total() <= available || threads <= 1 || !with_threads) return require_memory(argument, total(), describe());
  // Each thread holds its own tiles (and runs its own seed or grid point): when the solve fits
  // on one thread, the thread count is what does not fit, and OMP_NUM_THREADS is what to lower.
  const auto total_with = [&](int threads_in_team) { return with_threads(threads_in_team).total() + outputs; };
  if (!(total_with(1) <= available)) return require_memory(argument, total(), describe());
  int fits = 1, too_many = team;  // the most threads that fit, by bisection (the total grows with them)
  while (too_many - fits > 1) {
    const int middle = fits + (too_many - fits) / 2;
    (total_with(middle) <= available ? fits : too_many) = middle;
  }
  const char* set = std::getenv("OMP_NUM_THREADS");
  const std::string threads_text = std::to_string(team) + " threads";
  throw InvalidEnvironment("OMP_NUM_THREADS",
                        (set != nullptr ? "is " + std::string(set) + ": " + threads_text
                                        : "is not set, so OpenMP starts one thread per core: " + threads_text) +
                            " would need " + format_bytes(total()) + " for " + describe() + ", more than the " +
                            format_bytes(available) + " this machine has available; it fits with at most " +
                            std::to_string(fits) + " threads (OMP_NUM_THREADS=" + std::to_string(fits) + ")");
}

}  // namespace geomsim
