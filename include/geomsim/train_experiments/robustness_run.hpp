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

// The options of one run, by the names of `geomsim robustness`'s options.
struct RobustnessRunOptions {
  std::string data;  // Fashion-MNIST folder; empty: Debian's
  train::RobustnessDataOptions dataset;
  std::string method;
  std::string model = "mlp";
  int64_t width = 128, embedding_dim = 32;
  int64_t epochs = 20, batch_size = 64;
  double learning_rate = 0.01, momentum = 0.9, l2 = 0.01;
  double dro_eta = 0.01, dro_adjustment = 0.0;
  int64_t jtt_epochs = 2, jtt_upweight = 20;
  int64_t encoder_epochs = 10, encoder_batch_size = 128;
  double encoder_lr = 1e-3, encoder_weight_decay = 1e-4, tau = 0.5, alpha = 0.5, kernel_lambda = 0.1, reconstruction_weight = 1.0;
  int pca_components = 8, max_clusters = 8, silhouette_points = 2000;
  double min_silhouette = 0.5;
  uint64_t seed = 0;
  int threads = 0;
  std::string device = "auto";  // as TrainRunOptions::device
  bool device_given = false;
  int64_t sync_every = 50;
  double distributed_timeout = 300.0;  // as TrainRunOptions::distributed_timeout
  int nproc_per_node = 1;              // the CLI's launcher (cli/local_ranks.hpp)
  std::string checkpoint, json_path;
  int64_t stop_after = 0;
  bool quiet = false;
};

// Every option that changes the result (not threads, output paths or stop-after), by the
// option's name with '_' for '-': the JSON's "parameters", stored in the checkpoints.
nlohmann::json robustness_parameters(const RobustnessRunOptions& options);
// The inverse: `base` with the values of such an object (a subset of the keys) set. Throws
// InvalidArgument("definition") naming an unknown key or a value of the wrong type.
RobustnessRunOptions robustness_options_from_parameters(const nlohmann::json& parameters, RobustnessRunOptions base = {});
// The library's options for the command's (run_description set from robustness_parameters).
train::RobustnessOptions robustness_library_options(const RobustnessRunOptions& options);

// The run as the JSON object `geomsim robustness --json` writes (for other commands too, e.g.
// an experiment definition's runner). Validates everything before any work. On a data-parallel
// job (data_parallel_job.hpp; its device must be the run's) every stage trains as its ranks
// (train::RobustnessOptions::distributed) and every rank returns the run's object (the same
// accuracies, clusters and groups; its timings, silhouettes and cluster details are each rank's
// own); only rank 0 prints progress, and the caller writes what rank 0 returns. --threads 0 is set_rank_threads'.
nlohmann::json robustness_run(const RobustnessRunOptions& options, const train::DistributedContext& job);

}  // namespace geomsim::train_experiments
