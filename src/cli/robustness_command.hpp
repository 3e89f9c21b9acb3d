#pragma once
// `geomsim robustness`: its options, and the command that runs one method
// (train_experiments/robustness_run.hpp) and prints the result. Built only with libtorch.
#include <CLI/CLI.hpp>

#include "geomsim/train_experiments/robustness_run.hpp"

namespace geomsim::cli {

using train_experiments::RobustnessRunOptions;

void add_robustness_options(CLI::App& command, RobustnessRunOptions& options);
int run_robustness_command(const RobustnessRunOptions& options);

}  // namespace geomsim::cli
