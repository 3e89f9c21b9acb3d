#pragma once
// Multi-start: run a solver from one uniform random initialisation per seed and keep
// the best run, as seed 004 does (best of seeds 0-4).
//
// Seeds run in parallel (OpenMP, one seed per thread); each run is deterministic and
// the winner is chosen serially (lowest loss, ties to the earlier seed), so the result
// is bit-for-bit the same for any number of threads.
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

// Throws InvalidArgument("seeds") when `seeds` is empty.
MultiStartResult multi_start(const Solver& solver, const Objective& objective, int dim,
                             const std::vector<std::uint64_t>& seeds);

}  // namespace geomsim
