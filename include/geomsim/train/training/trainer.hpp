#pragma once
// Training an encoder with one of the batch losses: the paper's recipe (AdamW, cosine learning
// rate schedule, two augmented views per sample), deterministic for a seed, on the device the
// caller gives (TrainOptions::device; resolve_device turns --device into one), through the one
// epoch loop (epoch_loop.hpp).
//
// With a checkpoint path, the state (encoder, classifier head, optimizer, epoch, the random
// generators, loss history) is written atomically after every epoch (run_checkpoint.hpp); a run
// started again with the same path resumes after the last finished epoch and ends with the same
// weights as an uninterrupted run on the same kind of device.
#include <array>
#include <functional>
#include <string>
#include <vector>

#include "geomsim/train/data/augmentations.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/models/encoders.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"
#include "geomsim/train/distributed/distributed_context.hpp"
#include "geomsim/train/training/epoch_loop.hpp"
#include "geomsim/train/training/joint_head.hpp"

namespace geomsim::train {

// StepReport, what TrainOptions::on_step receives, is in epoch_loop.hpp.

// The phases of a training step that TrainOptions::time_phases tells apart, in the order they
// run; together they tile the epoch's steps, from the end of the epoch's shuffle to the end of
// its last step's update:
//   augmentation  the augmented views (two_views; augment for ce)
//   forward       the encoder (and the ce head's logits; the gather of the embeddings across ranks)
//   loss          the batch loss, the joint head's and the autoencoder's terms (the autoencoder's
//                 forward pass with them), the all-reduce of the step's loss across ranks
//   backward      zero_grad and the backward pass
//   optimizer     the all-reduce of the gradients across ranks and the AdamW step
//   other         the rest: the learning rate, the batch's gather and transfer, the epoch loop's
//                 copy of the step's loss and its read-backs of the losses
enum class StepPhase : int { augmentation, forward, loss, backward, optimizer, other };
inline constexpr int kStepPhases = 6;
// "augmentation", "forward", "loss", "backward", "optimizer", "other", by StepPhase.
const std::array<const char*, kStepPhases>& step_phase_names();

// An epoch's time per phase of its steps (TrainOptions::time_phases).
struct StepPhaseTimes {
  std::array<double, kStepPhases> ms{};  // milliseconds, summed over the epoch's steps
  int64_t steps = 0;                     // 0: not measured
  double operator[](StepPhase phase) const { return ms[static_cast<std::size_t>(phase)]; }
  double total_ms() const;
};

struct TrainOptions {
  // One of train_loss_names(); loss_registry() (train/losses/loss_registry.hpp) says what each
  // is, which of loss_options it reads and what it needs. Whenever an autoencoder is passed (it
  // must be for thanos and autoencoder), it is trained jointly: reconstruction_weight x its
  // training loss (L_AE, plus the cross-entropy head in its joint mode) is added, as for
  // "SupCon + cAuto".
  std::string loss = "spread";
  LossOptions loss_options;     // tau, alpha, ... (set by name with set_loss_parameter)
  double reconstruction_weight = 1.0;
  // The seeds' joint cross-entropy head (joint_head.hpp): with head.weight > 0, a contrastive
  // loss (one with a batch function in the loss registry: not ce, not autoencoder) trains the
  // linear head of the "ce" loss on the encoder's features alongside, adding head.weight x its
  // label-smoothed cross-entropy on the labelled share of the samples; 0 (the default): off.
  JointHeadOptions head;
  int64_t epochs = 1;
  int64_t batch_size = 256;     // samples per step (2 x batch_size views)
  double learning_rate = 1e-3;
  double weight_decay = 1e-4;
  // The cosine schedule's period T_max in epochs: the rate at (fractional) epoch t is
  // 0.5 lr (1 + cos(pi t / T_max)), as torch's CosineAnnealingLR; 0 means T_max = epochs.
  int64_t cosine_period_epochs = 0;
  uint64_t seed = 0;
  std::string checkpoint;       // file; empty: no checkpoints
  // Stop after this many finished epochs (0: run all), e.g. to fit a job's time limit; the
  // schedule is still that of `epochs`, so a later run with the checkpoint continues it.
  int64_t stop_after = 0;
  // A JSON object stored in the checkpoint's model description (e.g. the data and hierarchy),
  // returned by load_checkpoint_model.
  std::string run_description = "{}";
  // Called for every optimisation step (progress displays), at the read-backs of the step
  // losses (every sync_every steps and at the end of each epoch, epoch_loop.hpp); may be empty.
  std::function<void(const StepReport&)> on_step;
  // Called after every finished epoch, before its checkpoint is written, with the networks as
  // they are then: the encoder and the "ce" loss's or the joint head (untrained otherwise). What
  // watches each example's prediction through training (train/analysis/example_difficulty.hpp's
  // forgetting events) reads them here. It may switch them to evaluation mode (the next epoch
  // switches them back) and must not change their weights; may be empty.
  std::function<void(const EpochSummary&, Encoder&, torch::nn::Linear&)> on_epoch_end;
  // The run's device: the data (when it fits, else each batch), the networks, the permutations
  // and the augmentations' draws are there. Chosen by the caller, never here; recorded in the
  // checkpoint.
  torch::Device device = torch::kCPU;
  // "float32", or "bf16": the encoder's forward pass under bfloat16 autocast (autocast.hpp), its
  // embeddings cast back to float32 for the loss. Contrastive losses only (not ce, autoencoder).
  std::string precision = "float32";
  // The caller chose the device explicitly (--device given): a resume on another kind of device
  // than the checkpoint's is then allowed; otherwise it is refused, naming --device.
  bool device_explicit = false;
  // Read the step losses back to the host every this many steps (and at the end of each
  // epoch): the only host syncs of the loop. 1 checks every loss before its update.
  int64_t sync_every = 50;
  // Time the phases of every step (StepPhase): EpochRecord::phases. On a CUDA device by CUDA
  // events on the current stream at the phases' ends (no host wait in the steps; the times are
  // read once at the end of each epoch, which waits for the device then as the loop's read-back
  // of the losses does), on the CPU by the clock. Changes no result. Off: no events, no clock.
  bool time_phases = false;
  // The data-parallel job this process is a rank of (distributed_context.hpp); one process by
  // default. With W ranks every rank draws the same global batch of batch_size samples (the same
  // seed, so the same order and the same augmentations), embeds its share of batch_size / W
  // samples (rows [rank b, (rank + 1) b) of each view), and the contrastive loss sees the global
  // batch (the embeddings gathered with their gradients, data_parallel.hpp); the gradients are
  // averaged over ranks before each AdamW step, so the run is the one-process run on the same
  // global batches up to the order of the batch sums. Loss terms on single samples (the "ce"
  // head, the autoencoder's) are means over the rank's share, averaged the same way; the joint
  // head's is scaled so that the ranks' mean is its mean over the global batch's labelled rows,
  // and its dropout drawn for the global batch (joint_head_dropout_scale), as one process does. Only rank 0
  // writes the checkpoint, which records the world size: a resume with another is refused.
  DistributedContext distributed;
};

// Named training recipes (learning rate, weight decay, batch size, schedule period), all AdamW
// with a cosine schedule:
//   geomsim         lr 1e-3, weight decay 1e-4, batch 256 (the defaults above)
//   paper           seed 004 Appendix F.3, its coarse training: "trained for 600 epochs with an
//                   initial learning rate of 0.0003, a cosine annealing learning rate scheduler
//                   with Tmax set to 100 and the AdamW optimizer. ... We did not use weight
//                   decay." and "All experiments were run using a batch size of 128"
//   paper-transfer  F.3's coarse-to-fine transfer runs: "trained for 100 epochs with an initial
//                   learning rate of 0.001, a cosine annealing learning rate scheduler with Tmax
//                   set to 100 and the AdamW optimizer"; no weight decay, batch 128
// T_max is the run's own epochs here (cosine_period_epochs 0): runs here are a few epochs, not
// 100 or 600; --cosine-period sets it.
struct TrainRecipe {
  std::string name;
  double learning_rate = 1e-3, weight_decay = 1e-4;
  int64_t batch_size = 256;
  int64_t cosine_period_epochs = 0;
};
const std::vector<TrainRecipe>& train_recipes();
// Throws InvalidArgument("recipe") for an unknown name, listing the known ones.
const TrainRecipe& train_recipe(const std::string& name);
// Sets the recipe's learning rate, weight decay, batch size and schedule period.
void apply_recipe(const TrainRecipe& recipe, TrainOptions& options);
// Bounds of TrainOptions: a run of more epochs than this is a typo, not a plan (the papers train
// for at most 1000); AdamW moves every weight by about the learning rate per step, so a rate
// above 1 throws away the weights' scale in one step.
inline constexpr int64_t kMaxEpochs = 100000;
inline constexpr double kMaxLearningRate = 1.0;

// train_loss_names() and train_loss_list(), the names TrainOptions::loss accepts, are in
// loss_registry.hpp.

// Throws InvalidArgument naming the option.
void validate(const TrainOptions& options);

struct EpochRecord {
  int64_t epoch = 0;
  double loss = 0.0;                // mean over the epoch's steps
  double seconds = 0.0;
  double samples_per_second = 0.0;  // samples (not views) per second
  StepPhaseTimes phases;            // with TrainOptions::time_phases (not kept in checkpoints)
};

struct TrainResult {
  std::vector<EpochRecord> epochs;  // including those restored from a checkpoint
  int64_t resumed_epochs = 0;       // how many came from the checkpoint
  std::string device;               // the run's device: "cpu", "cuda:0", ...
  std::string stop_reason;          // "finished", "stop-after" (epoch_loop.hpp)
  // The trained head (on the run's device): the "ce" loss's, or the joint head (TrainOptions::head); null otherwise.
  torch::nn::Linear classifier{nullptr};
};

// The joint head's targets when they are not the loss's labels (seed 000 E.3.2: the contrastive
// loss on noisy labels, the head on the clean ones): one label per training image in
// [0, classes). Undefined labels: the loss's labels and num_classes.
struct HeadTargets {
  torch::Tensor labels;
  int64_t classes = 0;
};

// images: N x C x H x W in [0, 1]; labels: N class labels (int64) in 0..num_classes-1.
// Resuming a checkpoint needs every option that decides the trajectory to be the one it was
// trained with (InvalidArgument naming the option and both values otherwise), the same kind of
// device unless options.device_explicit (InvalidArgument("device")), and an archive that passes
// its CRC-32 checks. A non-finite loss ends the run with ComputationFailed naming the epoch and
// step, found at the next read-back of the step losses (TrainOptions::sync_every; with 1 before
// it reaches the weights); the last checkpoint stays as it was.
// progress (optional) receives one line per epoch. `autoencoder`, when given, is trained with
// the encoder (see TrainOptions::loss); "thanos" and "autoencoder" require one. `conditions`, when
// given (N x k, one row per image, e.g. image_attributes.hpp's attributes), are the conditioning
// values of a loss that reads one (LossNeeds::condition: cclk-weak, cclk-fair) in place of the
// labels; InvalidArgument("condition-on") for another loss. `head_targets`, when given, are the
// joint head's labels (TrainOptions::head; InvalidArgument("head-labels") out of range).
TrainResult train_encoder(Encoder& encoder, const torch::Tensor& images, const torch::Tensor& labels,
                          int64_t num_classes, const TrainOptions& options, const AugmentationOptions& augmentation,
                          const std::function<void(const std::string&)>& progress = {},
                          Autoencoder autoencoder = nullptr, const torch::Tensor& conditions = {},
                          const HeadTargets& head_targets = {});

}  // namespace geomsim::train
