#pragma once
// Evaluating a trained encoder: embeddings of a dataset, a linear probe and the mean
// classifier (seed 004's coarse-to-fine transfer), and the Section 4 geometry of the
// embeddings through the core's measure_subclass_geometry (the same code as for simulations).
#include <torch/torch.h>

#include "geomsim/train/autoencoder.hpp"
#include "geomsim/train/encoders.hpp"

namespace geomsim::train {

// N x d unit embeddings on the CPU (evaluation mode, no gradients), in batches. With an
// autoencoder (THANOS), the unit embedding and the unit f_AE embedding concatenated and scaled
// by 1/sqrt(2), so rows stay unit vectors.
torch::Tensor embed(Encoder& encoder, const torch::Tensor& images, int64_t batch_size = 1024,
                    Autoencoder autoencoder = nullptr);

// Multinomial logistic regression on frozen embeddings, full batch, Adam for `steps` steps;
// returns the accuracy on the test embeddings.
double linear_probe_accuracy(const torch::Tensor& train_embeddings, const torch::Tensor& train_labels,
                             const torch::Tensor& test_embeddings, const torch::Tensor& test_labels, int64_t steps = 300,
                             double learning_rate = 0.05, uint64_t seed = 0);

// W_z = mean training embedding of label z; predicts argmax_z W_z . f(x).
double mean_classifier_accuracy(const torch::Tensor& train_embeddings, const torch::Tensor& train_labels,
                                const torch::Tensor& test_embeddings, const torch::Tensor& test_labels);

struct EmbeddingGeometry {
  double spread = 0.0;             // s_f(y), mean over classes
  double subclass_sigma = 0.0;     // sigma_f(z), mean over subclasses
  double sigma_over_spread = 0.0;  // sigma_f(z) / s_f(y), mean over subclasses
};
// Coarse labels are the classes, fine labels the subclasses (each inside one class).
EmbeddingGeometry embedding_geometry(const torch::Tensor& embeddings, const torch::Tensor& coarse,
                                     const torch::Tensor& fine);

// Subgroup recovery (k-means within each coarse class, macro F1 against the fine labels), through
// the core's subgroup_recovery.
double subgroup_recovery_f1(const torch::Tensor& embeddings, const torch::Tensor& coarse, const torch::Tensor& fine,
                            uint64_t seed = 0);

}  // namespace geomsim::train
