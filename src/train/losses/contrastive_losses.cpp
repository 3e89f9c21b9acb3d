#include "geomsim/train/losses/contrastive_losses.hpp"

#include <string>

#include "device_ops.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/streamed_contrastive_loss.hpp"

namespace geomsim::train {
namespace {

using detail::check_batch;
using detail::keep;
using detail::kInf;
using detail::mask_not;
using detail::mask_or;

// logsumexp of s over the entries where mask is true, row by row; -inf for an empty row.
// An empty row is reduced over all its (finite) entries and then replaced, so that its
// backward pass sees no -inf - -inf (which would turn a zero gradient into NaN).
torch::Tensor masked_logsumexp(const torch::Tensor& s, const torch::Tensor& mask) {
  const auto empty = mask_not(mask.any(1));
  const auto lse = detail::logsumexp(keep(s, mask_or(mask, empty.unsqueeze(1)), -kInf), 1);
  return lse.masked_fill(empty, -kInf);
}

ContrastiveLossSpec spec_of(ContrastiveKind kind, double tau, double alpha = 0.0, bool include_partner = true) {
  ContrastiveLossSpec spec;
  spec.kind = kind;
  spec.tau = tau;
  spec.alpha = alpha;
  spec.include_partner = include_partner;
  return spec;
}

}  // namespace

torch::Tensor two_view_partners(int64_t batch_size, const torch::Device& device) {
  require_at_least("batch_size", batch_size, 1);
  const auto i = torch::arange(2 * batch_size, torch::TensorOptions(torch::kLong).device(device));
  return torch::remainder(i + batch_size, 2 * batch_size);
}

torch::Tensor supcon_out_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  return streamed_contrastive_loss(z, labels, {}, {}, spec_of(ContrastiveKind::supcon_out, tau));
}

torch::Tensor positive_groups(const torch::Tensor& labels, int64_t group_size) {
  require_at_least("positives", group_size, 1);
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be one label per image (1-D)");
  const int64_t b = labels.size(0);
  const auto l = labels.to(torch::kLong);
  // The images of the same label before each one: its position in the stable sort by label less
  // its label's first position there (O(B log B), no B x B mask).
  const auto [sorted, order] = l.sort(/*stable=*/true, 0, /*descending=*/false);
  const auto rank_in_sorted = torch::arange(b, l.options()) - torch::searchsorted(sorted, sorted);
  const auto rank = torch::empty_like(rank_in_sorted).scatter_(0, order, rank_in_sorted);
  return l * b + rank.div(group_size, "floor");
}

torch::Tensor supcon_out_loss_scaled(const torch::Tensor& z, const torch::Tensor& labels, double tau,
                                     double base_temperature) {
  require_positive("base-temperature", base_temperature);
  require_positive("tau", tau);
  ContrastiveLossSpec spec = spec_of(ContrastiveKind::supcon_out, tau);
  spec.scale = tau / base_temperature;
  return streamed_contrastive_loss(z, labels, {}, {}, spec);
}

torch::Tensor supcon_in_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  return streamed_contrastive_loss(z, labels, {}, {}, spec_of(ContrastiveKind::supcon_in, tau));
}

torch::Tensor pair_labels(const torch::Tensor& partner) {
  if (partner.dim() != 1) throw InvalidArgument("partner", "must hold one index per row (1-D)");
  const int64_t n = partner.size(0);
  const auto p = partner.to(torch::kLong);
  if (p.device().is_cpu()) {
    const auto c = p.contiguous();
    const int64_t* index = c.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      if (index[i] < 0 || index[i] >= n) throw InvalidArgument("partner", "indices must be in [0, N)");
      if (index[i] == i) throw InvalidArgument("partner", "a row cannot be its own partner");
      if (index[index[i]] != i) throw InvalidArgument("partner", "must pair the rows: the partner of a row's partner is the row");
    }
  }
  const auto row = torch::arange(n, p.options());
  return row + (p - row).clamp_max(0);  // min(row, partner), with operations the meta device has
}

torch::Tensor info_nce_loss(const torch::Tensor& z, const torch::Tensor& partner, double tau) {
  // InfoNCE is L_out with each pair of views its own class: P(i) = {a(x_i)}.
  return supcon_out_loss(z, pair_labels(partner), tau);
}

torch::Tensor spread_sup_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  return streamed_contrastive_loss(z, labels, {}, {}, spec_of(ContrastiveKind::spread, tau, 0.0));
}

torch::Tensor spread_cnce_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                               double tau, bool include_partner) {
  return streamed_contrastive_loss(z, labels, partner, {}, spec_of(ContrastiveKind::spread, tau, 1.0, include_partner));
}

torch::Tensor spread_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau,
                          double alpha, bool include_partner) {
  return streamed_contrastive_loss(z, labels, partner, {}, spec_of(ContrastiveKind::spread, tau, alpha, include_partner));
}

torch::Tensor spread_loss_thanos_code(const torch::Tensor& first, const torch::Tensor& second, const torch::Tensor& labels,
                                      double tau, double alpha, double clip_pos) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_finite("clip-pos", clip_pos);
  check_batch(second, labels, tau);
  if (first.dim() != 2 || !first.sizes().equals(second.sizes())) {
    throw InvalidArgument("embeddings", "the two views must both be B x d");
  }
  const auto s = torch::matmul(second, first.t()) / tau;  // row i: the second view of sample i
  const auto l = labels.to(s.device());
  const auto positive = l.unsqueeze(1).eq(l.unsqueeze(0));  // j = i included: the anchor's first view
  const auto negatives = masked_logsumexp(s, mask_not(positive)).unsqueeze(1);  // -inf without negatives
  // The released test is inverted: clip_pos == 1 clamps at 1 (torch.clamp's value and gradient),
  // any other value leaves the numerator as it is.
  const auto numerator = clip_pos == 1.0 ? s.masked_fill(s.detach().gt(clip_pos), clip_pos) : s;
  const auto per_positive = torch::logaddexp(s, negatives) - numerator;
  const auto sup = keep(per_positive, positive, 0.0).sum(1) / positive.sum(1).to(s.dtype());
  const auto cnce = masked_logsumexp(s, positive) - s.diagonal();
  return ((1.0 - alpha) * sup + alpha * cnce).mean();
}

torch::Tensor supcon_out_loss_masked(const torch::Tensor& z, const torch::Tensor& mask, int64_t anchors, double tau) {
  require_positive("tau", tau);
  if (z.dim() != 2 || !z.is_floating_point() || z.size(0) < 1) {
    throw InvalidArgument("embeddings", "must be a floating-point N x d matrix with N >= 1");
  }
  const int64_t n = z.size(0);
  if (mask.dim() != 2 || mask.size(0) != mask.size(1) || mask.size(0) < 1 || n % mask.size(0) != 0) {
    throw InvalidArgument("mask", "must be B x B with N = " + std::to_string(n) + " rows a multiple of B (the views)");
  }
  const int64_t b = mask.size(0);
  if (anchors != b && anchors != n) throw InvalidArgument("anchors", "must be B (view 0) or N (every row)");
  const auto s = torch::matmul(z.narrow(0, 0, anchors), z.t()) / tau;  // anchors x N
  const auto not_self = mask_not(torch::eye(anchors, n, torch::TensorOptions().dtype(torch::kBool).device(z.device())));
  const auto weights = mask.to(z.device(), z.scalar_type()).repeat({anchors / b, n / b}).masked_fill(mask_not(not_self), 0.0);
  const auto log_prob = s - masked_logsumexp(s, not_self).unsqueeze(1);  // finite where not_self (N >= 2)
  const auto total = weights.sum(1);
  const auto valid = total.gt(0);
  const auto per_anchor = -keep(log_prob, weights.ne(0), 0.0).mul(weights).sum(1) / keep(total, valid, 1.0);
  return keep(per_anchor, valid, 0.0).sum() / valid.sum().clamp_min(1).to(z.scalar_type());
}

}  // namespace geomsim::train
