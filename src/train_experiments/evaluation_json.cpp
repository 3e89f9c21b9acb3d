#include "geomsim/train_experiments/evaluation_json.hpp"

namespace geomsim::train_experiments {

using nlohmann::json;

json evaluation_json(const train::TransferEvaluation& e) {
  json out = {{"coarse_accuracy_linear_probe", e.coarse_accuracy},
              {"fine_accuracy_linear_probe", e.fine_accuracy_probe},
              {"fine_accuracy_mean_classifier", e.fine_accuracy_mean},
              {"subgroup_recovery_f1", e.subgroup_f1}};
  out.update(geometry_json(e.geometry));
  return out;
}

}  // namespace geomsim::train_experiments
