#pragma once
// `geomsim train` and `geomsim train-sweep`: their options, and the commands that run them
// (train_experiments/train_run.hpp, train_sweep.hpp) and print the results. Built only with libtorch.
#include <CLI/CLI.hpp>

#include "data_options.hpp"
#include "geomsim/train_experiments/train_run.hpp"
#include "geomsim/train_experiments/train_sweep.hpp"

namespace geomsim::cli {

using train_experiments::TrainRunOptions;
using train_experiments::TrainSweepOptions;
using train_experiments::TrainedRun;

void add_train_options(CLI::App& command, TrainRunOptions& options);
int run_train(const TrainRunOptions& options);

void add_train_sweep_options(CLI::App& command, TrainSweepOptions& options);
int run_train_sweep(const TrainSweepOptions& options);

}  // namespace geomsim::cli
