#pragma once
// The main solve (solve_command.hpp) with its objective evaluated by libtorch on a device:
// `geomsim --device cuda ...` runs it through geomsim-torch (kDeviceSolveCommand).
#include "solve_command.hpp"

namespace geomsim::cli {

// Resolves --device (exit 2 through InvalidArgument("device") where there is no such device,
// CUDA included), then solves with train::TensorSpreadObjective on it.
int run_device_solve(const SolveOptions& options);

}  // namespace geomsim::cli
