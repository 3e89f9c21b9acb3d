#pragma once
// One training run: an encoder trained on a data set's coarse labels with one of the papers'
// losses, then coarse accuracy, coarse-to-fine transfer and the embedding geometry. What
// `geomsim train` runs and prints, what `geomsim train-sweep` repeats over alpha, and what every
// training experiment of sims/ measures further. Built only with libtorch.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "geomsim/train_experiments/data_parallel_job.hpp"
#include "geomsim/train_experiments/image_data.hpp"

namespace geomsim::train_experiments {

// The options of one run, by the names of `geomsim train`'s options.
struct TrainRunOptions {
  DataOptions data;
  std::string model = "cnn";
  std::string loss = "spread";
  double alpha = 0.5, tau = 0.5;
  bool exclude_partner = false;
  double reconstruction_weight = 1.0;
  double kernel_lambda = 0.1, kernel_bandwidth = 1.0;
  double clip_cosine = 0.5, positive_weight = 0.5, negative_weight = 2.0;  // Table 9's baselines
  double base_temperature = 0.0;  // supcon: SupContrast's tau / base_temperature factor (0: none)
  double clip_pos = 1.0;          // spread-thanos-code: thanos-code's clip_pos (1: clip at 1, else none)
  double positives = 0.0;         // supcon: seed 001 Table 3's number of positives N (0: every image of the label)
  // Seed 000's noisy labels: --label-noise RATE replaces each training label the loss sees with
  // another one with chance RATE (train::symmetric_label_noise; the probes keep the clean labels);
  // --noise-correction (supcon, spread), --label-accuracy and --denominator-size
  // (noise-aware-attract) are the loss options of the same names. noise_handling, set by an
  // experiment's method: "correct" takes noise_correction, "debias" label_accuracy from the rate
  // (RATE, and 1 - RATE); empty: the options as given.
  double label_noise = 0.0;
  double noise_correction = 0.0, label_accuracy = 0.8, denominator_size = 2.0;
  std::string noise_handling;
  // CCL-K's conditioning (cclk-weak, cclk-fair): the kernel K_Z (train::ConditioningKernel) and
  // what it is computed on: "labels" (the coarse training labels' one-hot vectors), or
  // "attributes:NAME,..." (train::image_attributes of the training images: ink, aspect,
  // intensity, colour, fine; train::parse_condition_on).
  std::string cond_kernel = "cosine";
  double cond_bandwidth = 1.0, cond_degree = 3.0, cond_offset = 1.0;
  std::string condition_on = "labels";
  // --cond-clusters K: the K k-means clusters of the --condition-on attributes (over the training
  // images) replace the labels that a loss reading labels but no kernel sees (weaksup-infonce,
  // fair-infonce, supcon, ...): seed 002's discretised conditioning, "clustering the continuous
  // conditioning variable Z into one of the following: 3, 5, 10, 15, or 20 clusters using
  // K-means" (§4.2). 0: the labels themselves.
  int64_t cond_clusters = 0;
  double gamma = 1.1;  // Theorem 3's margin
  // The autoencoder: "joint", "per-class", "general" (train::AutoencoderOptions::mode) or
  // "none"; empty: joint for the losses thanos and autoencoder, none for the others.
  std::string autoencoder;
  bool general_autoencoder = false;  // the older spelling of autoencoder = "general"
  double autoencoder_dropout = 0.05, label_smoothing = 0.1;
  // The seeds' joint cross-entropy head (--head-weight, --head-label-smoothing, --head-dropout,
  // --head-labelled-share; train::JointHeadOptions, joint_head.hpp), the trainer's own options
  // object, handed over whole. It trains on the clean coarse labels (seed 000 E.3.2: the
  // contrastive loss on the noisy labels, the head on clean ones), whatever the loss sees
  // (--label-noise, --cond-clusters); head_accuracy is its test accuracy.
  train::JointHeadOptions head;
  bool no_augmentation = false;
  // Also score the probe on corrupted test images, with its calibration (train::evaluate_corruptions).
  bool corruptions = false;
  int64_t epochs = 1, batch_size = 256, embedding_dim = 128, width = 128;
  double learning_rate = 1e-3, weight_decay = 1e-4;
  int64_t cosine_period = 0;  // T_max in epochs; 0: the run's epochs
  // A named recipe (train::train_recipes) sets the learning rate, weight decay, batch size and
  // schedule period, except those given explicitly (the *_given flags, set by the parser).
  std::string recipe;
  bool learning_rate_given = false, weight_decay_given = false, batch_size_given = false, cosine_period_given = false;
  uint64_t seed = 0;
  int64_t train_samples = 0, test_samples = 0, stop_after = 0;
  int threads = 0;  // 0: all cores
  // --device: auto, cpu, cuda or cuda:N (train::resolve_device); device_given when the user gave
  // it, which lets a resume move a checkpoint to another kind of device.
  std::string device = "auto";
  bool device_given = false;
  int64_t sync_every = 50;  // read the step losses back every this many steps (epoch_loop.hpp)
  std::string precision = "float32";  // or bf16: the encoder under autocast (train::TrainOptions)
  // Data-parallel runs: the ranks' job comes from the environment (torchrun, srun, or the CLI's
  // --nproc-per-node, which starts the ranks); this bounds its rendezvous and collectives.
  double distributed_timeout = 300.0;
  int nproc_per_node = 1;  // the CLI's launcher: start this many local ranks (cli/local_ranks.hpp)
  std::string checkpoint, json_path;
  bool quiet = false;
  // Not options of `geomsim train`; what an experiment's runs set:
  // train_subset: the rows of the loaded training split (train_samples of it, in load_split's
  // order) to train on, each once, in any order (a coreset); empty: all of them. The probes
  // and the geometry then see these images only. on_epoch_end: train::TrainOptions's.
  std::vector<int64_t> train_subset;
  // The seed of the splits' draws (load_split's, the test split's + 7); unset: seed. Runs of one
  // pool of images with other initialisations (seed) set it.
  std::optional<std::uint64_t> data_seed;
  std::function<void(const train::EpochSummary&, train::Encoder&, torch::nn::Linear&)> on_epoch_end;
};

// The autoencoder mode a run uses ("none" when it has none), after the defaults.
std::string autoencoder_mode(const TrainRunOptions& options);
// The trainer's options for a run: the recipe applied, then the explicit values. Validated.
train::TrainOptions trainer_options(const TrainRunOptions& options);

// One training run with its data, networks, embeddings and evaluation (what `geomsim train`
// reports, and what the experiments of `geomsim report` measure further).
struct TrainedRun {
  train::LabelHierarchy hierarchy;
  LabelledSplit training, test;
  train::Encoder encoder{nullptr};          // null when the embedding is the autoencoder's alone
  train::Autoencoder autoencoder{nullptr};  // null without one
  train::TrainResult result;
  torch::Tensor train_embeddings, test_embeddings;
  train::TransferEvaluation evaluation;
  int rank = 0, world_size = 1;  // this process in the data-parallel job (one process: 0 of 1)
  // Seconds this rank spent in each kind of collective while training (empty with one process).
  std::vector<train::CollectiveTime> communication;
  double train_seconds = 0.0;  // training only
  double seconds = 0.0;        // loading, training and evaluation
};
// Throws InvalidArgument naming the option for bad options. `on_step` (optional) sees every
// optimisation step. On a data-parallel job of several ranks (data_parallel_job.hpp) it trains
// as train::TrainOptions::distributed says, then every rank embeds its shard of the images (all
// gathered on every rank) and evaluates, so that the ranks leave together; rank 0's result is
// the one to report. The job's device must be the run's.
TrainedRun train_run(const TrainRunOptions& options, const train::DistributedContext& job,
                     const std::function<void(const train::StepReport&)>& on_step = {});
// The same on the job of the launch environment, joined for this run (join_data_parallel_job
// with the run's distributed_timeout and device). Either way --threads 0 is set_rank_threads'.
TrainedRun train_run(const TrainRunOptions& options, const std::function<void(const train::StepReport&)>& on_step = {});

// The run as the JSON object `geomsim train --json` writes: its parameters, device, epochs and
// evaluation.
nlohmann::json train_run_json(const TrainRunOptions& options, const TrainedRun& run);

}  // namespace geomsim::train_experiments
