#pragma once
// How the training commands report an evaluation: one JSON layout and one text layout for
// `geomsim train`, `geomsim eval` and `geomsim measure`. Built only with libtorch.
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/train/training/evaluation.hpp"
#include "measure_json.hpp"

namespace geomsim::cli {

nlohmann::json evaluation_json(const train::TransferEvaluation& evaluation);

// Aligned "  name    value" lines for the fields of evaluation_json or geometry_json that are present.
std::string evaluation_text(const nlohmann::json& evaluation);

// Sets libtorch's CPU threads (0: all cores).
void set_torch_threads(int threads);

}  // namespace geomsim::cli
