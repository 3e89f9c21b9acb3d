#pragma once
// Multi-start: run a solver from one uniform random initialisation per seed and keep
// the best run, as seed 004 does (best of seeds 0-4); then, optionally, restarts: half of them
// fresh uniform starts, half perturbations of the best run so far (basin hopping: every point
// turned by a random tangent step, or a few points moved to fresh places); a lower loss
// becomes the incumbent.
//
// Restarts go in fixed batches of kRestartBatch from the same incumbent, so they may run in
// parallel while the batches, and hence the results, do not depend on the thread count.
//
// Each run is deterministic and the winner is chosen serially (lowest loss, ties to the
// earlier seed), so the result is bit-for-bit the same for any number of threads, whether
// the seeds run in parallel or one after another (concurrent_seeds).
#include <cstdint>
#include <vector>

#include "geomsim/solvers/solver.hpp"

namespace geomsim {

struct MultiStartRun {
  std::uint64_t seed = 0;  // the random start's seed; for a restart, the incumbent's when it ran
  int restart = -1;        // -1 for a seed's start, else the restart's number (0, 1, ...)
  bool polish = false;     // the seeds' solver run from a restart's end that lowered the best loss (its number)
  SolveSummary summary;
};

struct MultiStartOptions {
  int restarts = 0;  // restarts after the seeds
  // A turning restart moves each point of the incumbent along a random tangent direction by
  // an angle around this (radians), cycling through 1/3, 1 and 3 times it: small steps to
  // neighbouring basins, large ones to far rearrangements.
  double perturbation = 0.3;
  // The solver of the restarts; null: the seeds' solver.
  const Solver* restart_solver = nullptr;
};
constexpr int kRestartBatch = 4;

// How many starts runs holds: the seeds and the restarts, not a polish run.
std::size_t count_starts(const std::vector<MultiStartRun>& runs);

struct MultiStartResult {
  Matrix points;                   // the best run's solution, d x N
  std::size_t best_run = 0;        // index into runs
  std::vector<MultiStartRun> runs; // the seeds in order, then the restarts in order, each restart
                                   // that lowered the best loss followed by its polish run when
                                   // the restarts' solver is not the seeds'
  std::size_t seed_runs = 0;       // runs[0, seed_runs) are the random starts
  int improvements = 0;            // restarts that lowered the best loss
  double seconds = 0.0;            // wall time of all runs
  int threads = 1;                 // the threads the runs had: OpenMP's team size (omp_get_max_threads)
  const MultiStartRun& best() const { return runs[best_run]; }
};

// How many seeds run at once on `threads` threads. In parallel (one per thread) when that
// keeps every thread busy: at least kSeedsPerThread seeds per thread, or an objective too
// small to use the threads inside its evaluations (fewer than kObjectiveParallelPoints
// points; the spread loss's loops go parallel from 256). Otherwise 1: the seeds run one
// after another, each with every thread inside the objective. (Before, seeds always ran
// in parallel, so a one-seed solve of N = 2000 points used one core of two.) Inside an
// enclosing parallel region (a sweep's grid points) there are no threads to share: 1.
constexpr int kSeedsPerThread = 4;
constexpr Index kObjectiveParallelPoints = 512;
int concurrent_seeds(Index num_points, std::size_t seeds, int threads);

// Seeds and restarts that run at once share a ThreadTeam (support/thread_team.hpp), whose
// threads each keep a CPU of their own. Small problems use every thread too: until issue 50
// they solved on one thread, since an OpenMP team of two lost 4-13x to one thread while another
// process held a core (issue 32); the pinned team loses at most 1.2x there and gains 1.6-2.4x on
// a quiet machine (docs/reference/solvers.md, "Threads").

// Throws InvalidArgument("seeds") when `seeds` is empty.
MultiStartResult multi_start(const Solver& solver, const Objective& objective, int dim,
                             const std::vector<std::uint64_t>& seeds, const MultiStartOptions& options = {});

}  // namespace geomsim
