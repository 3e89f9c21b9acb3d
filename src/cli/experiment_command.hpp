#pragma once
// `geomsim experiment`: one training definition of sims/ (train_experiments/experiment_kinds.hpp).
// Built only with libtorch.
#include <CLI/CLI.hpp>

#include "geomsim/train_experiments/experiment_kinds.hpp"

namespace geomsim::cli {

using ExperimentCommandOptions = train_experiments::ExperimentOptions;

void add_experiment_options(CLI::App& command, ExperimentCommandOptions& options);
int run_experiment_command(const ExperimentCommandOptions& options);

}  // namespace geomsim::cli
