#pragma once
// Batch losses of the seeds, vectorised over the batch and stable (every log of a sum of
// exponentials is a logsumexp). Inputs:
//   z          N x d embeddings, L2-normalised by the encoder's head (the losses do not
//              normalise), any floating dtype;
//   labels     N class labels (int64);
//   partner    N indices: partner[i] is the other view a(x_i) of sample i in the batch (int64).
// Similarities are s_ij = z_i . z_j / tau. Each loss is the mean over the anchors it is
// defined for (anchors without a positive are skipped; a batch with none throws).
//
// SupCon (seed 001), over all anchors a != i in the denominator:
//   L_out(i) = -1/|P(i)| sum_{p in P(i)} log( e^{s_ip} / sum_{a != i} e^{s_ia} )
//   L_in(i)  = -log( 1/|P(i)| sum_{p in P(i)} e^{s_ip} / sum_{a != i} e^{s_ia} )
// InfoNCE / SimCLR: L(i) = -log( e^{s_i,partner(i)} / sum_{a != i} e^{s_ia} )
// Seed 004, eq. (2)-(3), with P(i) = same label minus i and N(i) = other labels:
//   L_sup(i)  = -1/|P(i)| sum_{p in P(i)} log( e^{s_ip} / (e^{s_ip} + sum_{n in N(i)} e^{s_in}) )
//   L_cNCE(i) = -log( e^{s_i,a(i)} / sum_{p in D(i)} e^{s_ip} )
//   L_spread  = (1 - alpha) L_sup + alpha L_cNCE
// where D(i) = P(i), which holds a(x_i) in a two-view batch: eq. (10)'s form, the default.
//
// The public code's conventions differ here (read at the commit named; details with line numbers
// in docs/reference/losses.md, "The public code's conventions"):
//   SupContrast 66a8fe5, losses.py:14-15, 103: SupConLoss multiplies L_out by
//     tau / base_temperature, base_temperature = 0.07 by default; supcon_out_loss is
//     SupConLoss with base_temperature = tau, and supcon_out_loss_scaled(.., base) is the
//     released scaling. Anchors without a positive count 0 in its mean (losses.py:98-104); here
//     they are skipped (no difference in a two-view batch, where every anchor has one).
//   thanos-code b4f704e, unagi/tasks/loss_fns/contrastive_loss.py:91-107: its l_spread takes only
//     the cross-view block, the second view's rows as anchors against the first view's columns;
//     here every row of both views is an anchor against all others. Its weighting
//     (a_lc L + a_spread L_spread-term) / (a_lc + a_spread) (lines 225-228) is alpha =
//     a_spread / (a_lc + a_spread). Its default clip_pos = 1.0 clamps the positive logits of the
//     numerator at 1 (lines 186-207, an inverted test); spread_loss never clips.
//     spread_loss_thanos_code below is that released l_spread (the loss spread-thanos-code).
// With include_partner = false, D(i) = P(i) minus a(x_i) (eq. (3) read with a(x_i) outside
// the batch); anchors with no other positive are then skipped.
// SupCon L_out and L_in, InfoNCE and L_spread (each term and both) are geomsim's streaming engine's
// (streamed_contrastive_loss.hpp): no N x N matrix, on every device, the statistics of its rows
// kept and the tiles recomputed for the gradient. Anchors without the terms' positives are
// skipped; a batch with none gives 0 with a zero gradient.
//
// Device. Every loss computes on its inputs' device and reads no value back from it. Values are
// checked only where that costs no synchronisation, i.e. for tensors in host memory: partner
// indices (range, not the row itself, same label; for InfoNCE, that partners pair the rows).
#include <torch/torch.h>

namespace geomsim::train {

// partner indices for a batch made of two views stacked: rows [0, B) and [B, 2B), on `device`
// (the embeddings' device).
torch::Tensor two_view_partners(int64_t batch_size, const torch::Device& device = torch::kCPU);

torch::Tensor supcon_out_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau);
// Seed 001 Table 3's number of positives N_ỹ ("the total number of images in the minibatch that
// have the same label", Eq. 4): the labels (B, int64) made into groups of `group_size` images of
// one label, so that SupCon on the group ids counts N_ỹ = group_size. Each label's images are
// taken in batch order (a shuffled batch: a random draw) and cut into consecutive groups; the last
// group of a label holds what is left (fewer when group_size does not divide the label's count).
// Group id = label * B + (the image's rank among its label's images) / group_size, so images of one
// label in other groups are negatives, as in SimCLR, which is group_size 1 ("self-supervised
// learning is considered as having 1 positive", §4.4). On the labels' device, no host read.
// Throws InvalidArgument("positives") for group_size < 1.
torch::Tensor positive_groups(const torch::Tensor& labels, int64_t group_size);
// SupContrast's SupConLoss(temperature = tau, base_temperature): (tau / base_temperature) L_out.
// base_temperature > 0 (InvalidArgument("base-temperature"); the registry's option keeps it in
// tau's range).
torch::Tensor supcon_out_loss_scaled(const torch::Tensor& z, const torch::Tensor& labels, double tau,
                                     double base_temperature);
// SupContrast's SupConLoss given its `mask` instead of labels (66a8fe5, losses.py, SupConLoss.forward), for
// the positives that are no label structure (geomsim.torch's SupConLoss(features, mask=...)):
// z the V B rows of torch.cat(torch.unbind(features, 1)) (view-major: row v B + i is view v of
// sample i), mask B x B with mask[i][j] the weight (1: a positive) of sample j's views as
// positives of sample i's rows, not necessarily symmetric, any real dtype; the first
// `anchors` rows are the anchors (V B: contrast_mode 'all'; B: 'one', view 0 only) against
// every row. As SupContrast: the mask repeated over the views, the anchor's own row removed, so
//   L(i) = -1/W(i) sum_j w_ij log( e^{s_ij} / sum_{a != i} e^{s_ia} ),  W(i) = sum_j w_ij.
// The mean is over the anchors with W(i) > 0, and 0 with a zero gradient when there is none (the
// streaming engine's rule, streamed_contrastive_loss.hpp; SupContrast counts such an anchor as 0
// in its mean: the same wherever every anchor has a positive), on any device without a host read. It holds the anchors x rows matrices (no streaming: a mask is not a
// label structure). Throws InvalidArgument naming "embeddings", "mask" or "anchors".
torch::Tensor supcon_out_loss_masked(const torch::Tensor& z, const torch::Tensor& mask, int64_t anchors, double tau);
torch::Tensor supcon_in_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau);
torch::Tensor info_nce_loss(const torch::Tensor& z, const torch::Tensor& partner, double tau);
torch::Tensor spread_sup_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau);
torch::Tensor spread_cnce_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                               double tau, bool include_partner = true);
torch::Tensor spread_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau,
                          double alpha, bool include_partner = true);

// thanos-code's l_spread (b4f704e, contrastive_loss.py:76-238, two views), the released
// convention: first and second are the B x d views (rows i of both are sample i), labels (B)
// their classes. Only the cross-view block s_ij = second_i . first_j / tau is used, the second
// view's rows as anchors; P(i) = {j : labels_j = labels_i} holds j = i, N(i) the other labels:
//   L_sup(i)  = 1/|P(i)| sum_{p in P(i)} ( -c(s_ip) + log(e^{s_ip} + sum_{n in N(i)} e^{s_in}) )
//   L_cNCE(i) = -s_ii + log sum_{p in P(i)} e^{s_ip}
//   loss      = mean_i ( (1 - alpha) L_sup(i) + alpha L_cNCE(i) ),  alpha = a_spread / (a_lc + a_spread)
// with c(s) = min(s, 1) when clip_pos == 1 (the released default: its test is inverted) and
// c(s) = s for any other clip_pos. The clipped logits count only in the numerator; a clipped
// one has no gradient there (torch.clamp's).
torch::Tensor spread_loss_thanos_code(const torch::Tensor& first, const torch::Tensor& second, const torch::Tensor& labels,
                                      double tau, double alpha, double clip_pos = 1.0);

}  // namespace geomsim::train
