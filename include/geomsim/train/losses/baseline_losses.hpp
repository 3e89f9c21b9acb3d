#pragma once
// Further losses of the seeds, for baselines: seed 002's conditional-sampling InfoNCE objectives
// (eqs. 3-5, which CCL-K replaces by kernel estimates), the triplet loss (seed 001 §3.3, seed
// 000 eq. A7), and seed 004 Table 9's two variants of L_sup (Appendix G.4), whose formulas the
// paper does not give (the definitions below are geomsim's reading, and say so).
//
// The InfoNCE objectives take a two-view batch as x (first views, b x d) and y (second views),
// s_ij = x_i . y_j / tau, and a conditioning value z_i per sample (the coarse label here). Each
// is the mean over anchors i of the negative log of the objective's ratio:
//   WeaklySup-InfoNCE (002 eq. 3), positives (x, y) ~ P_{X|Z=z} P_{Y|Z=z}, negatives ~ P_Y:
//     L(i) = -1/|P_i| sum_{j in P_i} log( e^{s_ij} / sum_k e^{s_ik} ),   P_i = {j : z_j = z_i}
//     (the denominator e^{s_ij} + sum_{k != j} e^{s_ik}: every other y of the batch is a negative)
//   Fair-InfoNCE (002 eq. 4), positive (x, y) ~ P_{XY|Z=z} (the other view), negatives ~ P_{Y|Z=z}:
//     L(i) = -log( e^{s_ii} / (e^{s_ii} + sum_{k != i, z_k = z_i} e^{s_ik}) )
//   HardNeg-InfoNCE (002 eq. 5), z ~ P_{Z|X=x}, negatives ~ P_{Y|Z=z}: Fair's form, with z the
//     cluster of x's (detached) embedding among `clusters` k-means clusters of the batch (002
//     §4.1 clusters a continuous z the same way for its InfoNCE baselines). With z a label of x,
//     eq. 5 is eq. 4.
// Triplet (000 eq. A7): L = E[-log( e^{s(x, x+)} / (e^{s(x, x+)} + e^{s(x, x-)}) )], one positive
//   x+ of the anchor's label and one negative x- of another per anchor (their indices given),
//   s = z . z' / tau. Seed 001 §3.3 shows it is ~ |z_a - z_p|^2 - |z_a - z_n|^2 + 2 tau for
//   aligned positives (a triplet loss with margin 2 tau).
// Table 9's "Clip Positives" ("clipping the values of the positives in the numerator Lsup"):
//   L_sup with each positive's similarity in the numerator replaced by min(s_ip, c / tau), c a
//   cosine; the denominator keeps e^{s_ip}. Once z_i . z_p > c, the anchor is no longer pulled
//   towards that positive but pushed away from it.
//   Public code (thanos-code b4f704e, unagi/tasks/loss_fns/contrastive_loss.py:186-207): the
//   clamp is on the logit s/tau, not the cosine, and its test is inverted: clip_pos = 1.0 (the
//   default) clamps the numerator's positive logits at 1, any other value (0.95 in the released
//   clip-positives config) does not clip. docs/reference/losses.md, "The public code's conventions".
// Table 9's "Weighted Pos in Denom." (its text: "upweighting the negatives in the denominator of
//   Lsup"): L_sup(i) = -1/|P| sum_p log( e^{s_ip} / (e^{s_ip} + w_pos sum_{p' in P, p' != p} e^{s_ip'}
//   + w_neg sum_{n in N} e^{s_in}) ). weighted_positives uses (w_pos, 1): w_pos = 0 is L_sup and
//   w_pos = 1 SupCon L_out; upweighted_negatives uses (0, w_neg).
#include <torch/torch.h>

namespace geomsim::train {

torch::Tensor weakly_supervised_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau);
torch::Tensor fair_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau);
// Fair-InfoNCE conditioned on batch_clusters(x.detach(), clusters).
torch::Tensor hard_negative_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, int64_t clusters, double tau);
// k-means (Lloyd, 20 iterations) of the rows of x into `clusters` groups (fewer when x has fewer
// distinct rows), started from the farthest-point seeding that begins at row 0: deterministic,
// and it draws nothing from torch's generator. Returns the cluster of each row (int64, on x's
// device). It runs on x's device in a fixed number of steps, reading nothing back: a seed that
// would repeat a row is kept but inactive (never assigned). Distances are cdist's
// matrix-product form |a|^2 + |b|^2 - 2 a.b.
torch::Tensor batch_clusters(const torch::Tensor& x, int64_t clusters);

// One positive (same label, not the anchor) and one negative (another label) per anchor, drawn
// uniformly with the default generator of the labels' device; anchors without either get -1 and
// are skipped by triplet_loss. The indices are on the labels' device.
std::pair<torch::Tensor, torch::Tensor> draw_triplets(const torch::Tensor& labels);
// Indices at or above N, and triplets with no valid anchor, are refused when the indices are in
// host memory (on a device: see contrastive_losses.hpp, Device).
torch::Tensor triplet_loss(const torch::Tensor& z, const torch::Tensor& positive, const torch::Tensor& negative, double tau);

torch::Tensor clipped_positives_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau, double clip_cosine);
torch::Tensor weighted_denominator_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau, double positive_weight,
                                        double negative_weight);

}  // namespace geomsim::train
