#pragma once
// `geomsim train-sweep`: L_spread training at several alpha, each run's spread s_f(y) beside the
// simulated optimum of the core at the same K (the hierarchy's classes), d (the embedding
// dimension) and tau. Built only with libtorch.
#include <cstddef>
#include <functional>
#include <string>

#include "geomsim/train_experiments/train_run.hpp"

namespace geomsim::train_experiments {

struct TrainSweepOptions {
  TrainRunOptions train;  // loss spread; no checkpoint or JSON (each alpha trains from scratch)
  std::string alphas;     // a list or a range lo:hi:step, in [0, 1]
  int sim_ny = 8;         // points per class of the simulation
  std::string sim_seeds = "0:4";
  std::string out;        // STEM: STEM.csv and the figure (cosine_heatmap.hpp's figure_files), all or none
};

// Trains and simulates every alpha, writes the files, and returns how many alphas it ran.
// `progress` (optional) receives one line per alpha. Throws InvalidArgument naming the option.
std::size_t train_sweep(const TrainSweepOptions& options, const std::function<void(const std::string&)>& progress = {});

}  // namespace geomsim::train_experiments
