#pragma once
// Per-example difficulty scores of a classifier (an encoder's features and a linear head, the
// "ce" loss's network), the baselines seed 000 compares its coresets with (§5.4: "Toneva et al.
// [18] (Forgetting) and Paul et al. [19] (GradNorm, L2Norm)"):
//   forgetting_events     Forgetting (the seed's [18]), as geomsim counts it: the times an example
//                         goes from classified correctly to incorrectly between two consecutive
//                         records of its prediction; an example never classified correctly ranks
//                         above every other (its count is the number of records).
//   el2n_scores           EL2N (the seed's "L2Norm"): |softmax(logits) - onehot(y)|_2, read after a
//                         few epochs of training.
//   gradient_norm_scores  GraNd (the seed's "GradNorm"): the norm of the gradient of the example's
//                         cross-entropy loss with respect to every weight of the network,
//                         |grad_theta CE(head(features(x)), y)|_2, here at initialisation.
// The callers average each score over several runs and keep the examples with the highest ones
// (metrics/coreset_selection.hpp's top_score_coreset).
#include <torch/torch.h>

#include "geomsim/train/models/encoders.hpp"

namespace geomsim::train {

// correct: R x N booleans, row r the N examples' correctness at the r-th record (R >= 1).
// Returns N doubles on its device: each example's forgetting events, or R for one never correct.
// Throws InvalidArgument("correct") for another shape or type.
torch::Tensor forgetting_events(const torch::Tensor& correct);

// logits: N x K, labels: N in 0..K-1 (on any device). Returns N doubles on the logits' device.
// Throws InvalidArgument naming "logits" or "labels".
torch::Tensor el2n_scores(const torch::Tensor& logits, const torch::Tensor& labels);

// The GraNd score of each image with its label, one backward pass per image, in evaluation mode
// (no batch statistics, so each score is the image's own), on the encoder's device. Returns N
// doubles there, with no read-back in the loop; neither the weights nor their .grad change.
// Throws InvalidArgument naming "images" or "labels".
torch::Tensor gradient_norm_scores(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& images, const torch::Tensor& labels);

}  // namespace geomsim::train
