#pragma once
// `geomsim sweep`: the Appendix H experiment over a grid, one CSV row per point, in
// parallel, resumable and shardable; `geomsim merge`: joins shards.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "geomsim/metrics/atom_clustering.hpp"

namespace geomsim::cli {

struct SweepOptions {
  std::string K = "2", ny = "8", d, alpha = "0.5:0.9:0.05", tau = "0.5";
  std::string seeds = "0:4";
  std::string solver = "auto";
  int restarts = -1;  // -1: SolveSettings's default
  double cluster_tolerance = kDefaultAtomTolerance;
  std::string shard = "0/1";
  std::string out;
  bool quiet = false;
};

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string out;
};

void add_sweep_options(CLI::App& command, SweepOptions& options);
int run_sweep_command(const SweepOptions& options);

void add_merge_options(CLI::App& command, MergeOptions& options);
int run_merge_command(const MergeOptions& options);

}  // namespace geomsim::cli
