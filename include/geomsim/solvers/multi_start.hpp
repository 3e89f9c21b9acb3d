#pragma once
// Multi-start: run a solver from one uniform random initialisation per seed and keep
// the best run, as seed 004 does (best of seeds 0-4).
//
// Each run is deterministic and the winner is chosen serially (lowest loss, ties to the
// earlier seed), so the result is bit-for-bit the same for any number of threads, whether
// the seeds run in parallel or one after another (concurrent_seeds).
#include <cstdint>
#include <vector>

#include "geomsim/solvers/solver.hpp"

namespace geomsim {

struct MultiStartRun {
  std::uint64_t seed = 0;
  SolveSummary summary;
};

struct MultiStartResult {
  Matrix points;                   // the best run's solution, d x N
  std::size_t best_run = 0;        // index into runs
  std::vector<MultiStartRun> runs; // in the order of the seeds
  double seconds = 0.0;            // wall time of all runs
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

// Throws InvalidArgument("seeds") when `seeds` is empty.
MultiStartResult multi_start(const Solver& solver, const Objective& objective, int dim,
                             const std::vector<std::uint64_t>& seeds);

}  // namespace geomsim
