#pragma once
// How the training commands print an evaluation: one text layout for `geomsim train`,
// `geomsim eval` and `geomsim measure` (the JSON layout is train_experiments/evaluation_json.hpp).
// Built only with libtorch.
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/train_experiments/evaluation_json.hpp"

namespace geomsim::cli {

using train_experiments::evaluation_json;

// Aligned "  name    value" lines for the fields of evaluation_json or geometry_json that are present.
std::string evaluation_text(const nlohmann::json& evaluation);

}  // namespace geomsim::cli
