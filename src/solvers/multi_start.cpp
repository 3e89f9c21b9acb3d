#include "geomsim/solvers/multi_start.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>

#include "geomsim/support/errors.hpp"

namespace geomsim {

int concurrent_seeds(Index num_points, std::size_t seeds, int threads) {
  if (omp_in_parallel() || threads <= 1 || seeds <= 1) return 1;
  const bool busy_inside = num_points >= kObjectiveParallelPoints;
  if (busy_inside && seeds < static_cast<std::size_t>(kSeedsPerThread) * static_cast<std::size_t>(threads)) return 1;
  return static_cast<int>(std::min<std::size_t>(seeds, static_cast<std::size_t>(threads)));
}

MultiStartResult multi_start(const Solver& solver, const Objective& objective, int dim,
                             const std::vector<std::uint64_t>& seeds) {
  if (seeds.empty()) throw InvalidArgument("seeds", "must name at least one seed");
  const auto start = std::chrono::steady_clock::now();
  const auto count = static_cast<Index>(seeds.size());
  std::vector<Matrix> solutions(seeds.size());
  std::vector<MultiStartRun> runs(seeds.size());
  std::vector<std::exception_ptr> errors(seeds.size());

  const int concurrent = concurrent_seeds(objective.num_points(), seeds.size(), omp_get_max_threads());
#pragma omp parallel for schedule(dynamic, 1) num_threads(concurrent) if (concurrent > 1)
  for (Index k = 0; k < count; ++k) {
    const auto s = static_cast<std::size_t>(k);
    try {
      solutions[s] = random_uniform_sphere(dim, objective.num_points(), seeds[s]);
      runs[s].seed = seeds[s];
      runs[s].summary = solver.minimize(objective, solutions[s]);
    } catch (...) {
      errors[s] = std::current_exception();
    }
  }
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }

  MultiStartResult result;
  bool found = false;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    const double loss = runs[s].summary.loss;
    if (std::isfinite(loss) && (!found || loss < runs[result.best_run].summary.loss)) {
      result.best_run = s;
      found = true;
    }
  }
  if (!found) throw std::runtime_error("multi_start: every run failed: " + runs.front().summary.message);
  result.points = std::move(solutions[result.best_run]);
  result.runs = std::move(runs);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace geomsim
