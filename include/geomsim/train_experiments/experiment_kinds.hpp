#pragma once
// The registry of training experiment kinds, one table from a definition's "kind" to the runner
// that trains its runs and writes its page, and run_experiment, which runs one definition (what
// geomsim-torch's `experiment` command calls).
// Every runner has one signature; each kind lives in its own file (experiment_KIND.cpp). A new
// kind is added here and to training_experiment_kinds() (training_program.cpp), which
// `geomsim report` consults without loading torch; a test checks that the two lists agree.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/train_experiments/experiment_runs.hpp"
#include "geomsim/train_experiments/robustness_run.hpp"

namespace geomsim::train_experiments {

// `definition` is the whole definition, its "parameters" already merged with its "smoke"
// overrides when context.smoke. A runner writes context.stem() + ".csv" (its run cache, as
// it goes) and, at the end, ".md" and its figures, each atomically.
using ExperimentRunner = void (*)(const nlohmann::json& definition, const ExperimentContext& context);

struct ExperimentKindEntry {
  const char* name;
  ExperimentRunner run;
};
const std::vector<ExperimentKindEntry>& experiment_kind_registry();

// The runs of a transfer definition's parameters, in plan order (the lipschitz kind plans the
// runs of its source definition with it), and where a transfer experiment with
// "keep_checkpoints" keeps a run's checkpoint: OUT/checkpoints/NAME/KEY.pt.
std::vector<PlannedRun> plan_transfer_runs(const nlohmann::json& parameters);
// The transfer kind's cache key: method, hierarchy, encoder, seed, alpha, tau, augmentation, and
// cond_bandwidth and lr when the parameters sweep them (lists of more than one number).
std::vector<std::string> transfer_key_columns(const nlohmann::json& parameters);
// swept_lr: the definition sweeps the learning rate, which then names the file too.
std::string run_checkpoint_path(const std::string& out_dir, const std::string& name, const RunRow& parameters,
                                bool swept_lr = false);

// The runs of a robustness definition's parameters: every data set, method (cclk-fair only on a
// data set with a background; the others are listed in `skipped`) and seed, each as the options
// of `geomsim robustness` (the command's defaults, replaced by the definition's parameters of the
// same names; the seed is also the data seed) and as its cache row (every option). Throws
// InvalidArgument("definition") for an unknown method, data set or parameter, a value of the
// wrong type, or options that the command would refuse.
struct RobustnessRun {
  RobustnessRunOptions options;
  RunRow parameters;
  std::string label;  // "thanos spurious seed 1"
};
struct RobustnessPlan {
  std::vector<std::string> datasets, methods, skipped;
  std::vector<std::uint64_t> seeds;
  std::vector<RobustnessRun> runs;
};
RobustnessPlan plan_robustness_runs(const nlohmann::json& parameters);

// The runners, one file each (experiment_transfer.cpp, ...).
void run_transfer_experiment(const nlohmann::json& definition, const ExperimentContext& context);
void run_trained_spread_experiment(const nlohmann::json& definition, const ExperimentContext& context);
void run_strata_experiment(const nlohmann::json& definition, const ExperimentContext& context);
void run_lipschitz_experiment(const nlohmann::json& definition, const ExperimentContext& context);
void run_robustness_experiment(const nlohmann::json& definition, const ExperimentContext& context);
void run_coreset_experiment(const nlohmann::json& definition, const ExperimentContext& context);

struct ExperimentOptions {
  std::string definition;  // sims/NAME.json
  std::string out = "notebooks-export";
  bool smoke = false;
  std::string device = "auto";  // ExperimentContext::device
  bool device_given = false;
  int64_t sync_every = 50;
  double distributed_timeout = 300.0;  // as TrainRunOptions::distributed_timeout
  int nproc_per_node = 1;              // the CLI's launcher (cli/local_ranks.hpp)
  std::string shard = "0/1";           // ExperimentContext::shard, as parse_shard reads it
};
// Loads the definition (name, title, kind, parameters, smoke), checks its paths, joins the
// launch environment's data-parallel job (ExperimentContext::job), and runs its kind. Throws
// InvalidArgument("definition") for a malformed definition or an unknown kind.
void run_experiment(const ExperimentOptions& options);

}  // namespace geomsim::train_experiments
