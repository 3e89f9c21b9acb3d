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

// The options of one run: the library's option objects, composed rather than copied (the data's,
// the encoder's, the trainer's with the loss's, the joint head's, the optimiser's and the device),
// and what the run itself adds. Made final at the command's edge: the device resolved, a named
// recipe applied under the values given, so that the run reads them as they are.
struct TrainRunOptions {
  DataOptions data;
  // --model (kind), --embedding-dim, --width; the channels and image size are the data's.
  train::EncoderOptions model;
  // The trainer's options, handed over whole: --loss and its train::LossOptions (every loss
  // parameter, bound to the CLI from train::loss_parameters()), --reconstruction-weight, the seeds'
  // joint cross-entropy head (--head-weight, ...; it trains on the clean coarse labels, seed 000
  // E.3.2, whatever the loss sees: --label-noise, --cond-clusters), --epochs, --batch-size, --lr,
  // --weight-decay, --cosine-period, --seed, --checkpoint, --stop-after, the device (--device,
  // resolved at the command's edge; device_explicit when given, which lets a resume move a
  // checkpoint to another kind of device), --sync-every, --precision, and an experiment's
  // on_epoch_end. train_run sets its run_description, on_step and distributed.
  train::TrainOptions train;
  // The recipe (train::train_recipes) applied to `train` at the edge; "" or its name, echoed.
  std::string recipe;
  // Seed 000's noisy labels: --label-noise RATE replaces each training label the loss sees with
  // another one with chance RATE (train::symmetric_label_noise; the probes keep the clean labels).
  // noise_handling, set by an experiment's method: "correct" takes the loss's noise_correction,
  // "debias" its label_accuracy from the rate (RATE, and 1 - RATE); empty: the loss options as
  // given (run_loss_options).
  double label_noise = 0.0;
  std::string noise_handling;
  // What CCL-K's kernel (train::LossOptions::cond_kernel) is computed on: "labels" (the coarse
  // training labels' one-hot vectors), or "attributes:NAME,..." (train::image_attributes of the
  // training images: ink, aspect, intensity, colour, fine; train::parse_condition_on).
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
  bool no_augmentation = false;
  // Also score the probe on corrupted test images, with its calibration (train::evaluate_corruptions).
  bool corruptions = false;
  int64_t train_samples = 0, test_samples = 0;
  int threads = 0;  // 0: all cores
  // Data-parallel runs: the ranks' job comes from the environment (torchrun, srun, or the CLI's
  // --nproc-per-node, which starts the ranks); this bounds its rendezvous and collectives.
  double distributed_timeout = 300.0;
  int nproc_per_node = 1;  // the CLI's launcher: start this many local ranks (cli/local_ranks.hpp)
  std::string json_path;
  bool quiet = false;
  // Not options of `geomsim train`; what an experiment's runs set:
  // train_subset: the rows of the loaded training split (train_samples of it, in load_split's
  // order) to train on, each once, in any order (a coreset); empty: all of them. The probes
  // and the geometry then see these images only.
  std::vector<int64_t> train_subset;
  // The seed of the splits' draws (load_split's, the test split's + 7); unset: train.seed. Runs of
  // one pool of images with other initialisations (train.seed) set it.
  std::optional<std::uint64_t> data_seed;
};

// The autoencoder mode a run uses ("none" when it has none), after the defaults.
std::string autoencoder_mode(const TrainRunOptions& options);
// The loss options the run trains with: train.loss_options with the noise handling applied.
train::LossOptions run_loss_options(const TrainRunOptions& options);
// Every option of the run, each layer's object by its own validate(), then what the run adds and
// the combinations it refuses. Throws InvalidArgument naming the option.
void validate(const TrainRunOptions& options);

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
