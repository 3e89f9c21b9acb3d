#pragma once
// Seed 000's two answers to noisy labels (§5.3 and Appendices E.3.2, F.3), on a two-view batch.
//
// The noise-aware L_attract (Appendix F.3.1, Proposition A1; Lemma A4 at m = 2): for each anchor
// row, m noisy positives x~1+..x~m+ (rows of other images with the anchor's noisy label) and m
// noisy negatives x~1-..x~m- (rows with another label), drawn uniformly with replacement, and
//   -w+ s(x, x~1+) + w- s(x, x~1-) + sum_{k=0..m} w_k log( sum_{i<=k} e^s(x,x~i+) + sum_{j<=m-k} e^s(x,x~j-) ),
// s = z.z'/tau, with the weights of theory/label_noise_debiasing.hpp for the label accuracy p~
// (the chance that a label is correct); its expectation over the noise is L_attract's, for binary
// labels. The mean runs over the anchors that have both kinds.
//
// The geometric correction (Appendix E.3.2): "for each point, we compute the cosine similarity
// between the embedding of the point and the center of all the other points in the batch that
// have the same class. We compare this similarity value to the average cosine similarity with
// points in the batch from every other class, and rank the points by the difference between these
// two values. [...] Given the noise level eps as an input, we rank the points by this heuristic and
// mark the eps fraction of the batch with the smallest scores as noisy. We then correct their
// labels by adopting the label of the closest cluster center." Here a point is an image, its
// embedding the normalised mean of its two views (detached: the correction picks labels, it has
// no gradient), the marked fraction floor(eps B) of the B images, and the cluster centres the
// means of each label's unmarked images in the batch.
//
// Both run on their inputs' device and read no value back from it.
#include <torch/torch.h>

#include <utility>

namespace geomsim::train {

// For each of the N rows of a two-view batch (labels: N, the rows' labels; partner: N, each row's
// other view), m noisy positives and m noisy negatives (N x m each, int64), uniform with
// replacement from the generator of the labels' device; -1 throughout a row without any.
std::pair<torch::Tensor, torch::Tensor> draw_noisy_pairs(const torch::Tensor& labels, const torch::Tensor& partner, int64_t m);

// L~_attract on given draws (draw_noisy_pairs'). Throws InvalidArgument naming "label-accuracy"
// and "denominator-size" (m, the draws' width) as noise_aware_attract_weights does, "tau", and
// "labels" when, in host memory, no anchor has both kinds.
torch::Tensor noise_aware_attract_loss(const torch::Tensor& z, const torch::Tensor& positives, const torch::Tensor& negatives,
                                       double label_accuracy, double tau);

// The corrected labels (B) of a two-view batch: z (2B x d, [view 1; view 2]), labels (B).
// noise_rate in [0, 1) (InvalidArgument("noise-correction") otherwise); 0 returns the labels.
torch::Tensor geometric_label_correction(const torch::Tensor& z, const torch::Tensor& labels, double noise_rate);

}  // namespace geomsim::train
