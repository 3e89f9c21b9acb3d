#include "geomsim/train_experiments/experiment_kinds.hpp"

#include <filesystem>
#include <iostream>

#include "geomsim/experiments/sim_definition.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/output_folder.hpp"
#include "geomsim/support/plain_text.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

const std::vector<ExperimentKindEntry>& experiment_kind_registry() {
  static const std::vector<ExperimentKindEntry> kinds = {
      {"transfer", run_transfer_experiment},
      {"trained_spread", run_trained_spread_experiment},
      {"strata", run_strata_experiment},
      {"lipschitz", run_lipschitz_experiment},
      {"robustness", run_robustness_experiment},
      {"coreset", run_coreset_experiment},
  };
  return kinds;
}

void run_experiment(const ExperimentOptions& o) {
  const torch::Device device = train::resolve_device(o.device);  // refused before anything is read or created
  train::require_distributed_timeout(o.distributed_timeout);
  const Shard shard = parse_shard(o.shard);
  namespace fs = std::filesystem;
  json definition = read_json_file(o.definition, "definition", kMaxSimDefinitionBytes, "sims definition");
  if (!definition.is_object()) throw InvalidArgument("definition", o.definition + " must hold a JSON object");
  const auto text = [&](const char* key) {
    if (!definition.contains(key) || !definition.at(key).is_string()) {
      throw InvalidArgument("definition", o.definition + " needs a string \"" + key + "\"");
    }
    return definition.at(key).get<std::string>();
  };
  ExperimentContext context;
  context.definition_path = o.definition;
  context.name = text("name");
  context.title = text("title");
  context.out_dir = o.out;
  context.smoke = o.smoke;
  context.device = device;
  context.device_given = o.device_given;
  context.sync_every = o.sync_every;
  context.shard = shard;
  if (context.name.empty() || context.name.find_first_of("/\\ .") != std::string::npos || has_control_character(context.name)) {
    throw InvalidArgument("definition", o.definition + ": \"name\" must be a plain file stem (no '/', '\\', space, '.' or control character)");
  }
  const std::string kind = text("kind");
  if (!definition.contains("parameters") || !definition.at("parameters").is_object()) {
    throw InvalidArgument("definition", o.definition + " needs an object \"parameters\"");
  }
  if (definition.contains("smoke") && !definition.at("smoke").is_object()) {
    throw InvalidArgument("definition", o.definition + ": \"smoke\" must be an object of parameter overrides");
  }
  if (o.smoke && definition.contains("smoke")) definition["parameters"].update(definition.at("smoke"));
  for (const auto& entry : experiment_kind_registry()) {
    if (kind != entry.name) continue;
    OutputFolder folder(o.out, "out");  // removed again when the definition is refused before anything lands in it
    require_distinct_files({{"definition", o.definition},
                            {"out", context.stem() + ".csv"},
                            {"out", context.stem() + ".md"}});
    require_writable_path(context.stem() + ".md", "out");
    context.job = join_data_parallel_job(o.distributed_timeout, device);  // once: one process group for every run
    entry.run(definition, context);
    folder.keep();
    return;
  }
  std::string known;
  for (const auto& entry : experiment_kind_registry()) known += (known.empty() ? "" : ", ") + std::string(entry.name);
  throw InvalidArgument("definition", o.definition + ": the kind \"" + kind + "\" is not a training kind (" + known + ")");
}

}  // namespace geomsim::train_experiments
