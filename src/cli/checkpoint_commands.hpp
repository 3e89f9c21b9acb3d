#pragma once
// The options and printing of the commands that measure a trained model (what they compute is
// train_experiments/checkpoint_measures.hpp), a checkpoint of `geomsim train` or a TorchScript
// module saved by PyTorch: `geomsim eval` (what `geomsim train` reports: transfer, geometry,
// subgroups), `geomsim lipschitz` (Table 1 / Figure 3's constants and two bounds) and
// `geomsim measure` (the Section 4 geometry with Theorem 3, subgroup recovery and the cosine heat
// map, of a model's embeddings or of embeddings saved as .npy, CSV or by torch.save). Built only
// with libtorch.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "data_options.hpp"
#include "geomsim/train_experiments/checkpoint_measures.hpp"

namespace geomsim::cli {

using train_experiments::EvalOptions;
using train_experiments::LipschitzOptions;
using train_experiments::MeasureOptions;
using train_experiments::ModelDataOptions;

void add_eval_options(CLI::App& command, EvalOptions& options);
int run_eval(const EvalOptions& options);
void add_lipschitz_options(CLI::App& command, LipschitzOptions& options);
int run_lipschitz(const LipschitzOptions& options);
void add_measure_options(CLI::App& command, MeasureOptions& options);
int run_measure(const MeasureOptions& options);

}  // namespace geomsim::cli
