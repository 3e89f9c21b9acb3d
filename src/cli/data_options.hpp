#pragma once
// The options that choose a training command's labelled images (--data, --images, --labels,
// --cifar, --hierarchy), filling train_experiments::DataOptions. Built only with libtorch.
#include <CLI/CLI.hpp>

#include "geomsim/train_experiments/image_data.hpp"

namespace geomsim::cli {

using train_experiments::DataOptions;

// --data, --images, --labels, --cifar, --hierarchy.
void add_data_options(CLI::App& command, DataOptions& options);

}  // namespace geomsim::cli
