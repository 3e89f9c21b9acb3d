#pragma once
// One run of seed 004's worst-group robustness experiment (Table 4): one method on one of the two
// robustness data sets, with per-group, worst-group and average accuracy, the clusters chosen and
// the subgroup F1, as JSON. What `geomsim robustness` runs and prints, and what the robustness
// experiments of sims/ repeat over methods, data sets and seeds. Built only with libtorch.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/train/data/robustness_data.hpp"
#include "geomsim/train/robustness/robustness_methods.hpp"
#include "geomsim/train_experiments/data_parallel_job.hpp"

namespace geomsim::train_experiments {

// The library's options with the defaults of `geomsim robustness` (the encoder an mlp of width 128
// and embedding 32; the contrastive encoders' 10 epochs of batch 128 at lr 1e-3, weight decay 1e-4).
train::RobustnessOptions robustness_command_defaults();

// The options of one run: the library's option objects, composed rather than copied: the data
// set's (train::RobustnessDataOptions) and the method's (train::RobustnessOptions: the encoder,
// the end model's training and Group DRO, JTT's, the contrastive encoders' train::TrainOptions with
// their loss options, the clustering, the seed, the checkpoint and the device, resolved at the
// command's edge), and what the run itself adds. robustness_run sets the library options'
// run_description and distributed.
struct RobustnessRunOptions {
  std::string data;  // Fashion-MNIST folder; empty: Debian's
  train::RobustnessDataOptions dataset;
  train::RobustnessOptions run = robustness_command_defaults();
  int threads = 0;
  double distributed_timeout = 300.0;  // as TrainRunOptions::distributed_timeout
  int nproc_per_node = 1;              // the CLI's launcher (cli/local_ranks.hpp)
  std::string json_path;
  bool quiet = false;
};

// Every option that changes the result (not threads, output paths or stop-after), by the
// option's name with '_' for '-': the JSON's "parameters", stored in the checkpoints.
nlohmann::json robustness_parameters(const RobustnessRunOptions& options);
// The inverse: `base` with the values of such an object (a subset of the keys) set. Throws
// InvalidArgument("definition") naming an unknown key or a value of the wrong type.
RobustnessRunOptions robustness_options_from_parameters(const nlohmann::json& parameters, RobustnessRunOptions base = {});
// Every option in its range before any work: the data set's and the method's (with the data set's
// attribute). Throws InvalidArgument naming the option.
void validate(const RobustnessRunOptions& options);

// The run as the JSON object `geomsim robustness --json` writes (for other commands too, e.g.
// an experiment definition's runner). Validates everything before any work. On a data-parallel
// job (data_parallel_job.hpp; its device must be the run's) every stage trains as its ranks
// (train::RobustnessOptions::distributed) and every rank returns the run's object (the same
// accuracies, clusters and groups; its timings, silhouettes and cluster details are each rank's
// own); only rank 0 prints progress, and the caller writes what rank 0 returns. --threads 0 is set_rank_threads'.
nlohmann::json robustness_run(const RobustnessRunOptions& options, const train::DistributedContext& job);

}  // namespace geomsim::train_experiments
