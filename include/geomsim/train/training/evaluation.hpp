#pragma once
// Evaluating a trained encoder: embeddings of a dataset, a linear probe and the mean
// classifier (seed 004's coarse-to-fine transfer), and the Section 4 geometry of the
// embeddings through the core's measure_subclass_geometry (the same code as for simulations).
#include <optional>
#include <vector>
#include <torch/torch.h>

#include "geomsim/metrics/embedding_geometry.hpp"
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

// Multinomial logistic regression on frozen embeddings, full batch, Adam for `steps` steps;
// returns the accuracy on the test embeddings.
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
struct TransferEvaluation {
  double coarse_accuracy = 0.0;      // linear probe on the coarse labels
  double fine_accuracy_probe = 0.0;  // linear probe on the fine labels
  double fine_accuracy_mean = 0.0;   // mean classifier on the fine labels
  EmbeddingGeometry geometry;        // of the test embeddings
  double subgroup_f1 = 0.0;          // k-means within each class vs the fine labels (test set)
};
TransferEvaluation evaluate_transfer(const torch::Tensor& train_embeddings, const torch::Tensor& train_coarse,
                                     const torch::Tensor& train_fine, const torch::Tensor& test_embeddings,
                                     const torch::Tensor& test_coarse, const torch::Tensor& test_fine, uint64_t seed,
                                     double gamma = 1.1);

// Subgroup recovery (k-means within each coarse class, macro F1 against the fine labels), through
// the core's subgroup_recovery.
double subgroup_recovery_f1(const torch::Tensor& embeddings, const torch::Tensor& coarse, const torch::Tensor& fine,
                            uint64_t seed = 0);

}  // namespace geomsim::train
