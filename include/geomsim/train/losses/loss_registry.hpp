#pragma once
// The training losses by name: each entry says what the loss is (a help line with the seed and
// equation it comes from), which parameters it reads, what it needs from the training run, and
// how it is computed on a two-view batch. The trainer, the CLI's help and option checks, the
// experiments' method tables and the simulations' validation all read this one table.
//
// Parameters live in one LossOptions value (each loss reads the few it lists), named as the
// CLI's options are ("kernel-lambda"), so that a caller can set and validate them by name:
//   LossOptions o;                                  // the defaults below
//   set_loss_parameter(o, "kernel-lambda", 0.2);    // checked: InvalidArgument("kernel-lambda", ...)
//   require_loss_reads("cclk-fair", "kernel-lambda");  // InvalidArgument if cclk-fair ignores it
//   torch::Tensor l = batch_loss("cclk-fair", {z, labels, partner, num_classes}, o);
//
// A batch function runs on the device of its inputs and reads no value back from it (no host
// synchronisation); tests/train/losses/test_losses_on_meta.cpp runs each one on PyTorch's meta
// device to keep it so.
#include <torch/torch.h>

#include <string>
#include <vector>

#include "geomsim/train/losses/conditioning_kernels.hpp"

namespace geomsim::train {

// Every loss's parameters, with the defaults the CLI shows. loss_parameters() describes each.
struct LossOptions {
  double tau = 0.5;               // tau: temperature of the similarities z . z' / tau
  double alpha = 0.5;             // alpha: L_spread's weight of cNCE (attract-repel: of L_attract)
  bool include_partner = true;    // exclude-partner (inverted): cNCE's denominator holds a(x) (eq. 10) or not (eq. 3)
  double kernel_lambda = 0.1;     // kernel-lambda: CCL-K's lambda in (K_Z + lambda I)^{-1} K_Z
  double kernel_bandwidth = 1.0;  // kernel-bandwidth: CCL-K HardNeg's Gaussian bandwidth on the embeddings
  double clip_cosine = 0.5;       // clip-cosine: clip-positives' largest cosine of a positive in the numerator
  double positive_weight = 0.5;   // positive-weight: weighted-positives' weight of the other positives in the denominator
  double negative_weight = 2.0;   // negative-weight: upweighted-negatives' weight of the negatives in the denominator
  // base-temperature: supcon times tau / base_temperature, SupContrast's SupConLoss convention
  // (its default 0.07); 0, the default, is no factor (seed 001's L_out, SupConLoss with
  // base_temperature = tau).
  double base_temperature = 0.0;
  // clip-pos: spread-thanos-code's clip_pos with its released meaning (an inverted test): 1, the
  // released default, clips the positive logits s/tau of L_sup's numerator at 1; any other value
  // does not clip.
  double clip_pos = 1.0;
  // positives: supcon's N_ỹ of seed 001 Table 3, the images of one label that are each other's
  // positives (positive_groups in contrastive_losses.hpp); 0, the default: every image of the label.
  double positives = 0.0;
  // noise-correction: supcon's and spread's geometric label correction (label_noise_losses.hpp),
  // the fraction of each batch's labels taken as wrong; 0, the default: none.
  double noise_correction = 0.0;
  // label-accuracy and denominator-size: noise-aware-attract's p~ and m (label_noise_losses.hpp).
  double label_accuracy = 0.8;
  double denominator_size = 2.0;
  // CCL-K's kernel K_Z on the conditioning values (cclk-weak, cclk-fair; conditioning_kernels.hpp):
  // cond-kernel (a name, validated with the others but not one of loss_parameters(), which are
  // numbers), and the numbers cond-bandwidth, cond-degree, cond-offset.
  std::string cond_kernel = "cosine";
  double cond_bandwidth = 1.0;  // cond-bandwidth: rbf's and laplacian's bandwidth
  double cond_degree = 3.0;     // cond-degree: polynomial's degree (seed 002 Table 5's 3)
  double cond_offset = 1.0;     // cond-offset: polynomial's offset
};

// The conditioning kernel the options describe.
ConditioningKernel conditioning_kernel_of(const LossOptions& options);

// One parameter of LossOptions, under the CLI's option name. A flag (exclude-partner) reads as
// 0 or 1.
struct LossParameter {
  std::string name;     // "tau", "alpha", "exclude-partner", "kernel-lambda", ...
  std::string meaning;  // one line
  std::string range;    // the accepted values, as the error message words them: "in [0, 1]", "> 0", "a flag"
  bool flag = false;
  double default_value = 0.0;
  double (*get)(const LossOptions&) = nullptr;
  void (*set)(LossOptions&, double) = nullptr;
  void (*check)(double) = nullptr;  // throws InvalidArgument(name, ...) outside `range`

  // The name as experiment definitions' keys and runs' JSON spell it: "kernel_lambda".
  std::string key() const;
};

// What a loss needs from the run beyond the embeddings.
struct LossNeeds {
  bool labels = false;          // the class labels (every loss but simclr and autoencoder)
  bool two_views = false;       // a two-view batch: z = [views 1; views 2] and the partner indices
  bool autoencoder = false;     // train_encoder must be given an autoencoder (thanos, autoencoder)
  bool linear_head = false;     // a linear classifier head on the encoder's features (ce)
  bool num_classes = false;     // reads the number of classes (hardneg-infonce: its k-means clusters)
  bool random = false;          // draws from the generator of the embeddings' device every step (triplet)
  bool trains_encoder = true;   // false for autoencoder: the encoder is not trained
  // reads a conditioning variable through a kernel (--cond-kernel): LossBatch::condition when
  // given (--condition-on attributes:...), else the labels' one-hot vectors (cclk-weak, cclk-fair)
  bool condition = false;
  // computed by the streaming engine (streamed_contrastive_loss.hpp): memory O(N d), no N x N
  // matrix (with --noise-correction, its label correction is dense)
  bool streamed = false;
  // the streaming engine's kind (contrastive_kind_name: "supcon", "supcon-in", "spread") when the
  // loss is one engine loss, which geomsim.torch then takes with the drop-in conventions (any
  // n_views, contrast_mode, gather); a loss without labels (simclr) is that kind with each sample
  // its own class. nullptr otherwise (supcon+simclr is two engine losses).
  const char* engine = nullptr;
};

// A two-view batch of B samples: z (2B x d, rows [0, B) the first views, [B, 2B) the second,
// unit rows), labels (B, int64, the samples' classes), partner (2B, int64: the other view of
// each row, two_view_partners(B)), num_classes (the labels are in [0, num_classes)).
// condition (optional, B x k, any floating dtype): the samples' conditioning values, which the
// losses that read one (LossNeeds::condition) use instead of the labels. All on one device.
struct LossBatch {
  torch::Tensor z, labels, partner;
  int64_t num_classes = 0;
  torch::Tensor condition = {};
};

using BatchLossFunction = torch::Tensor (*)(const LossBatch& batch, const LossOptions& options);

struct LossEntry {
  std::string name;                     // "spread"
  std::string help;                     // one line, with the seed and equation it comes from
  std::vector<std::string> parameters;  // the names (loss_parameters()) it reads
  LossNeeds needs;
  // The loss of a batch; null for ce and autoencoder, which the trainer computes from a head and
  // an autoencoder, not from the embeddings.
  BatchLossFunction batch = nullptr;
  // The core's simulator solves this loss (objectives/spread_loss.hpp: L_spread), so a trained
  // encoder's geometry can be set beside the simulated optimum (geomsim train-sweep).
  bool simulated = false;

  bool reads(const std::string& parameter) const;
};

// Bytes a batch loss holds at its peak for `rows` embeddings of dimension `dim` whose elements
// take `element_bytes` (its matrices, masks and autograd's saved tensors; an estimate from above
// for the dense losses: eight N x N matrices of the embeddings' dtype and four boolean masks).
double loss_memory_bytes(const LossEntry& entry, const LossOptions& options, int64_t rows, int64_t dim,
                         int64_t element_bytes);

// Every loss, in the order of the CLI's help.
const std::vector<LossEntry>& loss_registry();
// Throws InvalidArgument("loss", "must be one of spread, supcon, ...; got 'name'").
const LossEntry& loss_entry(const std::string& name);

// Every parameter, in the order of LossOptions.
const std::vector<LossParameter>& loss_parameters();
// By the CLI's name; "kernel_lambda" is read as "kernel-lambda" (experiment definitions' keys).
// Throws InvalidArgument(name, "is not a loss parameter; the loss parameters are tau, alpha, ...").
const LossParameter& loss_parameter(const std::string& name);

// Throws InvalidArgument(name, ...) when `value` is outside the parameter's range (or the name is unknown).
void validate_loss_parameter(const std::string& name, double value);
// Every parameter of `options` in its range, and cond-kernel one of conditioning_kernel_names().
void validate(const LossOptions& options);
// Validates, then sets the parameter; a flag takes 0 or 1.
void set_loss_parameter(LossOptions& options, const std::string& name, double value);
double loss_parameter_value(const LossOptions& options, const std::string& name);
// Throws InvalidArgument(parameter, "is not read by --loss L (it reads ...)") when the loss
// ignores the parameter (or the loss or parameter is unknown): for method tables that give a
// loss's parameters explicitly.
void require_loss_reads(const std::string& loss, const std::string& parameter);
// The losses that read a conditioning variable (--cond-kernel and its parameters, --condition-on),
// from the registry: "cclk-weak, cclk-fair".
std::string condition_reader_list();
// Throws InvalidArgument(argument, "is not read by --loss L (it is read by cclk-weak, cclk-fair)")
// unless the loss reads a conditioning variable (or the loss is unknown).
void require_loss_reads_condition(const std::string& loss, const std::string& argument);

// The named loss on a two-view batch (the entry's batch function). Throws InvalidArgument("loss")
// for an unknown name or a loss without one (ce, autoencoder).
torch::Tensor batch_loss(const std::string& loss, const LossBatch& batch, const LossOptions& options);

// The names, in the registry's order, and the same as "spread, supcon, ...".
const std::vector<std::string>& train_loss_names();
std::string train_loss_list();

}  // namespace geomsim::train
