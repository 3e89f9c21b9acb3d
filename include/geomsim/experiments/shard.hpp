#pragma once
// A shard of a grid of independent runs (a sweep's points, an experiment's runs): shard i of n
// takes the runs whose index in the grid's order is i mod n. n processes, one per shard, run the
// whole grid between them, each run once: a Slurm job array (one task per shard), or processes
// on several machines. Their outputs join by key (geomsim merge for sweeps; the run cache,
// which several processes share, for experiments).
#include <cstddef>
#include <string>

namespace geomsim {

struct Shard {
  int index = 0, count = 1;  // 0 <= index < count
  bool contains(std::size_t run) const { return run % static_cast<std::size_t>(count) == static_cast<std::size_t>(index); }
  bool whole() const { return count == 1; }
};

// Parses "i/n" (0 <= i < n), or "slurm": this job array task's shard, from SLURM_ARRAY_TASK_ID,
// SLURM_ARRAY_TASK_MIN, SLURM_ARRAY_TASK_STEP (1 when unset) and SLURM_ARRAY_TASK_COUNT, i =
// (ID - MIN) / STEP and n = COUNT, for an array given as a range (--array=0-3, 1-8:2, 0-9%4).
// Throws InvalidArgument("shard") otherwise, naming the variable that is missing or does not fit.
Shard parse_shard(const std::string& text);

}  // namespace geomsim
