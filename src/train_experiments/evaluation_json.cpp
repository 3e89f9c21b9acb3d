#include "geomsim/train_experiments/evaluation_json.hpp"

namespace geomsim::train_experiments {

using nlohmann::json;

json evaluation_json(const train::TransferEvaluation& e) {
  json out = {{"coarse_accuracy_linear_probe", e.coarse_accuracy},
              {"fine_accuracy_linear_probe", e.fine_accuracy_probe},
              {"fine_accuracy_mean_classifier", e.fine_accuracy_mean},
              {"subgroup_recovery_f1", e.subgroup_f1}};
  out.update(geometry_json(e.geometry));
  if (e.colour_mse) out["colour_mse"] = *e.colour_mse;
  if (e.head_accuracy) out["coarse_accuracy_head"] = *e.head_accuracy;
  if (e.corruption) {
    const auto& c = *e.corruption;
    out["corruption"] = {{"clean_accuracy", c.clean_accuracy}, {"clean_ece", c.clean_ece},
                         {"accuracy_by_severity", c.accuracy}, {"ece_by_severity", c.ece}, {"mean_error", c.mean_error}};
  }
  return out;
}

}  // namespace geomsim::train_experiments
