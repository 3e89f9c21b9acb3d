#pragma once
// Training an encoder with one of the batch losses: the paper's recipe (AdamW, cosine learning
// rate schedule, two augmented views per sample), deterministic for a seed, on CUDA when
// libtorch has it and on the CPU otherwise.
//
// With a checkpoint path, the state (encoder, classifier head, optimizer, epoch, random
// generator, loss history) is written atomically after every epoch; a run started again with
// the same path resumes after the last finished epoch and ends with the same weights as an
// uninterrupted run.
#include <functional>
#include <string>
#include <vector>

#include "geomsim/train/augmentations.hpp"
#include "geomsim/train/autoencoder.hpp"
#include "geomsim/train/encoders.hpp"
#include "geomsim/train/model_checkpoint.hpp"

namespace geomsim::train {

struct TrainOptions {
  // One of train_loss_names():
  //   spread         004's L_spread = (1 - alpha) L_sup + alpha L_cNCE
  //   supcon         SupCon L_out (001);  supcon-in: SupCon L_in
  //   simclr         InfoNCE on the two views (no labels)
  //   supcon+simclr  SupCon L_out + InfoNCE (004's "SupCon + InfoNCE" baseline)
  //   attract-repel  seed 000's alpha L_attract + (1 - alpha) L_repel (alpha weights attraction)
  //   cclk-weak, cclk-fair   002's WeaklySup / Fair CCL-K, conditioned on the labels (delta kernel)
  //   cclk-hardneg   002's HardNeg CCL-K (Gaussian kernel on the detached embeddings)
  //   ce             cross-entropy through a linear head
  //   thanos         L_spread + reconstruction_weight * L_AE of the autoencoder passed to train_encoder
  std::string loss = "spread";
  double reconstruction_weight = 1.0;
  double alpha = 0.5;           // L_spread's weight of cNCE (attract-repel: of L_attract)
  double kernel_lambda = 0.1;   // CCL-K's lambda in (K_Z + lambda I)^{-1} K_Z
  double kernel_bandwidth = 1.0;  // CCL-K HardNeg's Gaussian bandwidth on the embeddings
  double tau = 0.5;
  bool include_partner = true;  // cNCE's denominator holds a(x) (eq. 10) or not (eq. 3)
  int64_t epochs = 1;
  int64_t batch_size = 256;     // samples per step (2 x batch_size views)
  double learning_rate = 1e-3;
  double weight_decay = 1e-4;
  uint64_t seed = 0;
  std::string checkpoint;       // file; empty: no checkpoints
  // Stop after this many finished epochs (0: run all), e.g. to fit a job's time limit; the
  // schedule is still that of `epochs`, so a later run with the checkpoint continues it.
  int64_t stop_after = 0;
  // A JSON object stored in the checkpoint's model description (e.g. the data and hierarchy),
  // returned by load_checkpoint_model.
  std::string run_description = "{}";
};

// Bounds of TrainOptions: a run of more epochs than this is a typo, not a plan (the papers train
// for at most 1000); AdamW moves every weight by about the learning rate per step, so a rate
// above 1 throws away the weights' scale in one step.
inline constexpr int64_t kMaxEpochs = 100000;
inline constexpr double kMaxLearningRate = 1.0;

// The names TrainOptions::loss accepts, and the same as "spread, supcon, ...".
const std::vector<std::string>& train_loss_names();
std::string train_loss_list();

// Throws InvalidArgument naming the option.
void validate(const TrainOptions& options);

struct EpochRecord {
  int64_t epoch = 0;
  double loss = 0.0;                // mean over the epoch's steps
  double seconds = 0.0;
  double samples_per_second = 0.0;  // samples (not views) per second
};

struct TrainResult {
  std::vector<EpochRecord> epochs;  // including those restored from a checkpoint
  int64_t resumed_epochs = 0;       // how many came from the checkpoint
  std::string device;               // "cpu" or "cuda"
};

// images: N x C x H x W in [0, 1]; labels: N class labels (int64) in 0..num_classes-1.
// Resuming a checkpoint needs every option that decides the trajectory to be the one it was
// trained with (InvalidArgument naming the option and both values otherwise), and an archive
// that passes its CRC-32 checks. A non-finite loss ends the run with ComputationFailed naming
// the epoch and step, before it reaches the weights; the last checkpoint stays as it was.
// progress (optional) receives one line per epoch. `autoencoder` is trained with the encoder
// when options.loss is "thanos" (and must then be given), and ignored otherwise.
TrainResult train_encoder(Encoder& encoder, const torch::Tensor& images, const torch::Tensor& labels,
                          int64_t num_classes, const TrainOptions& options, const AugmentationOptions& augmentation,
                          const std::function<void(const std::string&)>& progress = {},
                          Autoencoder autoencoder = nullptr);

}  // namespace geomsim::train
