#pragma once
// The seeds' joint cross-entropy head: a linear classifier trained with the encoder, its
// label-smoothed cross-entropy added to any contrastive loss (TrainOptions::head).
//
// What the seeds say (the protocol values they give, and those they leave out):
//   seed 004 §5 (THANOS): "We jointly optimize all contrastive losses and the class-conditional
//     autoencoder with a cross-entropy loss head. We train all models with dropout as well as
//     label smoothing on the cross-entropy loss heads."
//   seed 004 F.2: "For the ViT models, we jointly optimize the contrastive loss with a
//     cross-entropy loss head. For the ResNets, we train the contrastive loss on its own and use
//     linear probing on the final layer."
//   seed 004 F.3: "A dropout rate of 0.05 was used. ... For each coarse dataset, we trained 5
//     separate models which jointly optimize a cross-entropy loss head with either a contrastive
//     loss (InfoNCE, SupCon, SupCon + InfoNCE, SupCon + Class-conditional InfoNCE) or a
//     reconstruction loss (mean squared error)."
//   seed 000 §5.1: "For the ViT models, we jointly optimize the contrastive loss with a cross
//     entropy loss head." (the same sentence as 004 F.2)
//   seed 000 E.3.2: "introduce symmetric noise into the labels for the contrastive loss head. We
//     train the cross entropy head with a fraction of the full training set. In Section 5.3, we
//     report results from training with 20% labels to cross entropy." and Appendix F: "training
//     the contrastive loss head with noisy labels and the cross entropy loss with clean labels
//     from 20% of the training data"; E.3.3 and Figure A1 train the head "with 1% labeled data".
//   seed 001 scores its cross-entropy baseline by its own softmax head (Table 2); it trains
//     SupCon without one (a linear probe on the frozen encoder).
// Values the seeds give: dropout 0.05 (004 F.3), a labelled share of 20 % (000 E.3.2, §5.3) or
// 1 % (000 E.3.3, Figure A1). Values they do not give: the head's weight (the sums are plain
// joint optimisation, i.e. weight 1) and the label smoothing (the autoencoder's head uses 0.1,
// AutoencoderOptions::label_smoothing; the same here).
//
// Where the head sits: on the encoder's features() (the embedding before its L2 normalisation),
// where the "ce" loss's head and head_accuracy's (classifier_logits) sit. geomsim's encoders end
// in their embedding (there is no separate projection network to strip: seed 004's ViT has a
// "final embedding size of 128" and its head on it), and the contrastive loss reads the same
// features normalised, so one forward pass feeds both. Dropout is applied to the head's input,
// in training only (the head's own module is a plain Linear, so classifier_logits and every
// evaluation see no dropout). The head sees both augmented views of a sample, each with the
// sample's label.
//
// The loss of a step: contrastive + weight x CE, where CE is the mean over the batch's rows whose
// sample is labelled of torch's label-smoothed cross-entropy (CrossEntropyLoss(label_smoothing=e):
// (1 - e) (-log p_y) + e mean_k (-log p_k)); a batch without a labelled row adds 0. The labelled
// samples are a fixed subset of the training set: round(share x N) of them (at least 1), chosen
// from the run's seed alone (labelled_samples), the same in every epoch, on every rank and in a
// resumed run, and drawn from no torch generator, so the run's other draws are unchanged.
//
// With weight 0 (the default) the head is off: nothing is computed or drawn, and training is
// bit for bit what it was without the option.
#include <cstdint>
#include <torch/torch.h>

namespace geomsim::train {

struct JointHeadOptions {
  double weight = 0.0;            // head-weight: CE's weight in the step's loss; 0: no head
  double label_smoothing = 0.1;   // head-label-smoothing, in [0, 1): the seeds give none; the autoencoder head's
  double dropout = 0.05;          // head-dropout, in [0, 1): before the head, in training (004 F.3's rate)
  double labelled_share = 1.0;    // head-labelled-share, in (0, 1]: the training samples whose labels the head sees
  bool enabled() const { return weight > 0.0; }
};

// Throws InvalidArgument naming the option (head-weight, head-label-smoothing, head-dropout,
// head-labelled-share) and its allowed range.
void validate(const JointHeadOptions& options);

// How many of n training samples are labelled: round(share x n), at least 1 (n >= 1).
int64_t labelled_count(int64_t n, double share);
// Which of n training samples are labelled (a boolean vector of n on the CPU, labelled_count of
// them true): the samples with the smallest keys splitmix64(seed-derived key, index), ties by
// index. A function of (n, share, seed) alone, the same on every platform and libtorch version.
torch::Tensor labelled_samples(int64_t n, double share, uint64_t seed);

// The dropout before the head in a training step: a scale per element of a rows x cols input,
// 0 with chance p and 1 / (1 - p) otherwise (torch's dropout), drawn with bernoulli_ from the
// generator of `options`' device; all ones (nothing drawn) for p = 0. Data-parallel ranks draw
// the global batch's scale and keep their rows, so that they draw what one process draws.
torch::Tensor joint_head_dropout_scale(int64_t rows, int64_t cols, double dropout, const torch::TensorOptions& options);

// The head's logits on features (N x d): head(features x scale) with a scale drawn by
// joint_head_dropout_scale in training, head(features) otherwise (evaluation: no dropout).
torch::Tensor joint_head_logits(torch::nn::Linear& head, const torch::Tensor& features, double dropout, bool training);

// Each row's label-smoothed cross-entropy (torch's, reduction none) of head(features x scale);
// `scale` undefined: no dropout.
torch::Tensor joint_head_row_losses(torch::nn::Linear& head, const torch::Tensor& features, const torch::Tensor& labels,
                                    double label_smoothing, const torch::Tensor& scale);

// The head's CE term (unweighted): the mean over the rows with labelled[i] of the label-smoothed
// cross-entropy of joint_head_logits; `labelled` (N, bool, on the features' device) undefined
// means every row. Reads nothing back from the device. (The trainer's data-parallel ranks use
// the parts above: each its rows' sum over the global batch's count of labelled rows.)
torch::Tensor joint_head_loss(const JointHeadOptions& options, torch::nn::Linear& head, const torch::Tensor& features,
                              const torch::Tensor& labels, const torch::Tensor& labelled, bool training);

}  // namespace geomsim::train
