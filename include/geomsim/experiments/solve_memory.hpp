#pragma once
// The memory a solve of the Appendix H problem needs, estimated from its sizes alone before
// anything is allocated, and the check that refuses a solve that will not fit. The main
// command, the sweep and the report share this one estimate (solve_spread_problem and
// run_sweep call it first).
#include <functional>
#include <string>

#include "geomsim/experiments/spread_problem.hpp"

namespace geomsim {

struct SolveMemory {
  double num_points = 0, dim = 0;  // N = K n_y and d, as doubles: N d may not fit an integer
  int concurrent_runs = 1;         // seeds solved at once (multi_start's choice) times problems at once
  int team = 1;                    // OpenMP's threads (omp_get_max_threads(): OMP_NUM_THREADS or the cores)
  int threads = 1;                 // those the solve uses: the team, or the problems solved at once
  // Bytes, each part for all concurrent runs together:
  double points = 0;      // labels, every seed's start and solution, the best run's measurements
  double evaluation = 0;  // the spread loss and one evaluation with gradient (stored or streamed path)
  double solver = 0;      // the solver's own state (Solver::state_bytes)
  double hessian = 0;     // the exact Hessian, for solvers that build it (rtr)
  double certificate = 0; // the exact Hessian and the Lanczos basis of the certificate (--certify)
  double outputs = 0;     // what the caller will write (set by the caller, e.g. the CLI's CSVs)
  std::string solver_name;
  std::string evaluation_path;  // "stored" or "streamed"
  // The same estimate with a team of that many threads instead (outputs not included).
  std::function<SolveMemory(int team)> with_threads;

  double total() const { return points + evaluation + solver + hessian + certificate + outputs; }
  // What the memory is for, with each part, e.g. "N = 1000000 points in R^10, 5 seeds, 2 at
  // once: spread loss (streamed) 300 MB, rlbfgs state 2.6 GB, points 400 MB".
  std::string describe() const;
  // Throws InvalidArgument, naming "ny" (or "d" when the largest part grows with d and d > N),
  // with the bytes needed and available (support/memory_budget.hpp) when total() does not fit.
  // When it would fit on one thread, the threads are what does not fit (each holds its own tiles,
  // seed or grid point): it names OMP_NUM_THREADS instead, with the most threads that fit.
  void require() const;
};

// The estimate for one solve_spread_problem(problem, settings), with `parallel_problems`
// such solves running at once (a sweep's grid points). Throws InvalidArgument for an invalid
// problem or an unknown solver.
SolveMemory estimate_solve_memory(const SpreadProblem& problem, const SolveSettings& settings,
                                  int parallel_problems = 1);

}  // namespace geomsim
