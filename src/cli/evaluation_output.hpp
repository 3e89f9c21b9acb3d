#pragma once
// How the training commands print an evaluation: one text layout for `geomsim train`,
// `geomsim eval` and `geomsim measure` (the JSON layouts are train_experiments/evaluation_json.hpp
// and experiments/measure_json.hpp). No libtorch: geomsim prints `measure --embeddings` with it too.
#include <nlohmann/json.hpp>
#include <string>

namespace geomsim::cli {

// Aligned "  name    value" lines for the fields of evaluation_json or geometry_json that are present.
std::string evaluation_text(const nlohmann::json& evaluation);

}  // namespace geomsim::cli
