#pragma once
// An evaluation as JSON: one layout for `geomsim train`, `geomsim eval`, the experiments' runs
// and `geomsim measure` (whose geometry keys are measure_json's). Built only with libtorch.
#include <nlohmann/json.hpp>

#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/experiments/measure_json.hpp"

namespace geomsim::train_experiments {

nlohmann::json evaluation_json(const train::TransferEvaluation& evaluation);

}  // namespace geomsim::train_experiments
