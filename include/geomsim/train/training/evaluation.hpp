#pragma once
// Evaluating a trained encoder: embeddings of a dataset, a linear probe and the mean
// classifier (seed 004's coarse-to-fine transfer), and the Section 4 geometry of the
// embeddings through the core's measure_subclass_geometry (the same code as for simulations).
#include <array>
#include <optional>
#include <vector>
#include <torch/torch.h>

#include "geomsim/metrics/embedding_geometry.hpp"
#include "geomsim/train/data/image_corruptions.hpp"
#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/distributed/distributed_context.hpp"
#include "geomsim/train/models/encoders.hpp"

namespace geomsim::train {

// N x d unit embeddings on the CPU (evaluation mode, no gradients), in batches. With an
// autoencoder (THANOS, SupCon + cAuto), the unit embedding and the unit f_AE embedding
// concatenated and scaled by 1/sqrt(2), so rows stay unit vectors. With a null encoder (the
// autoencoder alone: cAuto, gAuto), the unit f_AE embedding.
torch::Tensor embed(Encoder& encoder, const torch::Tensor& images, int64_t batch_size = 1024,
                    Autoencoder autoencoder = nullptr);
// The same, spread over a data-parallel job's ranks: each embeds its shard of the images and
// every rank gets all N rows (gather_row_shards: a collective, every rank must call it).
torch::Tensor embed(Encoder& encoder, const torch::Tensor& images, const DistributedContext& job, Autoencoder autoencoder = nullptr);

// The logits of a classifier head on the encoder's features (the "ce" loss's network:
// head(features(x)), trainer.hpp's TrainResult::classifier), N x classes on the CPU, in
// evaluation mode without gradients, in batches on the encoder's device.
torch::Tensor classifier_logits(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& images, int64_t batch_size = 1024);
// Multinomial logistic regression on frozen embeddings, full batch, Adam for `steps` steps, from
// torch::manual_seed(seed); `classes` outputs (at least the largest label + 1).
torch::nn::Linear fit_linear_probe(const torch::Tensor& train_embeddings, const torch::Tensor& train_labels, int64_t classes,
                                   int64_t steps = 300, double learning_rate = 0.05, uint64_t seed = 0);
// fit_linear_probe's accuracy on the test embeddings.
double linear_probe_accuracy(const torch::Tensor& train_embeddings, const torch::Tensor& train_labels,
                             const torch::Tensor& test_embeddings, const torch::Tensor& test_labels, int64_t steps = 300,
                             double learning_rate = 0.05, uint64_t seed = 0);

// W_z = mean training embedding of label z; predicts argmax_z W_z . f(x).
double mean_classifier_accuracy(const torch::Tensor& train_embeddings, const torch::Tensor& train_labels,
                                const torch::Tensor& test_embeddings, const torch::Tensor& test_labels);

// The Section 4 report lives in the core (metrics/embedding_geometry.hpp), shared with the
// commands that read saved embeddings; these names keep the training code's spelling.
using geomsim::EmbeddingGeometry;
using geomsim::require_margin_gamma;

// measure_embedding_geometry on tensors: coarse labels are the classes, fine labels the
// subclasses (each inside one class). The mean classifier W_z is fit on (reference,
// reference_fine) when given (the labelled set D_s of coarse-to-fine transfer), else on the
// embeddings themselves. gamma > 1.
EmbeddingGeometry embedding_geometry(const torch::Tensor& embeddings, const torch::Tensor& coarse,
                                     const torch::Tensor& fine, double gamma = 1.1,
                                     const torch::Tensor& reference = {}, const torch::Tensor& reference_fine = {});

// Coarse-to-fine transfer of a frozen encoder, from its embeddings of a training set (where
// the probes are fit) and a test set (where they are scored and the geometry measured).
// Robustness and calibration under corruption (seed 001 §4.2, Table 2 and Fig. 5): the fine
// labels' linear probe, fit on the clean training embeddings, scored on the test images as they
// are and under each corruption of data/image_corruptions.hpp at each severity.
struct CorruptionEvaluation {
  double clean_accuracy = 0.0, clean_ece = 0.0;
  // By severity 1..5 (index 0..4), the mean over the corruptions.
  std::array<double, kCorruptionSeverities> accuracy{}, ece{};
  // The mean over corruptions and severities of the error 1 - accuracy: ImageNet-C's corruption
  // error before its normalisation by a baseline model's (seed 001's mCE divides by AlexNet's).
  double mean_error = 0.0;
};

struct TransferEvaluation {
  double coarse_accuracy = 0.0;      // linear probe on the coarse labels
  double fine_accuracy_probe = 0.0;  // linear probe on the fine labels
  double fine_accuracy_mean = 0.0;   // mean classifier on the fine labels
  EmbeddingGeometry geometry;        // of the test embeddings
  double subgroup_f1 = 0.0;          // k-means within each class vs the fine labels (test set)
  std::optional<CorruptionEvaluation> corruption;  // when asked for (evaluate_corruptions)
  std::optional<CorruptionEvaluation> head_corruption;  // ... and of the run's own head, where it has one
  std::optional<double> colour_mse;                // with coloured backgrounds (background_colour_mse)
  // The run's own head (the "ce" loss's, or the joint head) on the test images' coarse labels
  // (the end model's accuracy, where the probes above refit a head on the frozen features); none
  // for a run without a head.
  std::optional<double> head_accuracy;
};
TransferEvaluation evaluate_transfer(const torch::Tensor& train_embeddings, const torch::Tensor& train_coarse,
                                     const torch::Tensor& train_fine, const torch::Tensor& test_embeddings,
                                     const torch::Tensor& test_coarse, const torch::Tensor& test_fine, uint64_t seed,
                                     double gamma = 1.1);

// The CorruptionEvaluation of an encoder (and autoencoder, as embed() combines them): the probe
// is fit on train_embeddings (the clean training images' embeddings) and the fine labels; each
// corruption draws from `seed` (corrupt_images), so every method at one seed sees the same
// corrupted test images. Embeds 1 + 20 versions of the test images.
CorruptionEvaluation evaluate_corruptions(Encoder& encoder, Autoencoder autoencoder, const torch::Tensor& train_embeddings,
                                          const torch::Tensor& train_fine, const torch::Tensor& test_images,
                                          const torch::Tensor& test_fine, uint64_t seed, const DistributedContext& job);
// The same scores of a run's own softmax head (classifier_logits: the "ce" loss's head or the
// joint head) on the labels it was trained for (the coarse ones): seed 001 scores cross-entropy
// by its own head (Table 2, Fig. 5), not by a probe refit on the frozen encoder. The same
// corrupted test images as evaluate_corruptions at the same seed.
CorruptionEvaluation evaluate_head_corruptions(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& test_images,
                                               const torch::Tensor& test_labels, uint64_t seed);

// How much of the images' background colour the embeddings keep linearly (seed 002 §4.2's
// MSE, "higher the better"): a ridge regression (metrics/ridge_regression.hpp, lambda
// kColourRidgeLambda per sample) from the training embeddings to their colours, on the 0-255
// scale of 8-bit colour values, then its mean squared error per channel on the test images.
// The colours: N x 3 in [0, 1]. A representation that keeps no colour scores the colours'
// variance about the training mean (5419 for uniform colours).
inline constexpr double kColourRidgeLambda = 1e-3;
double background_colour_mse(const torch::Tensor& train_embeddings, const torch::Tensor& train_colours,
                             const torch::Tensor& test_embeddings, const torch::Tensor& test_colours);

// Subgroup recovery (k-means within each coarse class, macro F1 against the fine labels), through
// the core's subgroup_recovery.
double subgroup_recovery_f1(const torch::Tensor& embeddings, const torch::Tensor& coarse, const torch::Tensor& fine,
                            uint64_t seed = 0);

}  // namespace geomsim::train
