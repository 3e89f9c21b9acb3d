#include "geomsim/train/losses/contrastive_losses.hpp"

#include <string>

#include "device_ops.hpp"
#include "fused_spread_loss.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

using detail::check_batch;
using detail::keep;
using detail::kInf;
using detail::mask_and;
using detail::mask_not;
using detail::mask_or;
using detail::on_host;

struct Batch {
  torch::Tensor s;         // N x N similarities / tau
  torch::Tensor not_self;  // N x N bool
  torch::Tensor same;      // same label, not self
  torch::Tensor diff;      // different label
};

Batch prepare(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  check_batch(z, labels, tau);
  const int64_t n = z.size(0);
  Batch b;
  b.s = torch::matmul(z, z.t()) / tau;
  const auto eye = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(z.device()));
  b.not_self = mask_not(eye);
  const auto l = labels.to(z.device());
  const auto equal = l.unsqueeze(1).eq(l.unsqueeze(0));
  b.same = mask_and(equal, b.not_self);
  b.diff = mask_not(equal);
  return b;
}

// logsumexp of s over the entries where mask is true, row by row; -inf for an empty row.
// An empty row is reduced over all its (finite) entries and then replaced, so that its
// backward pass sees no -inf - -inf (which would turn a zero gradient into NaN).
torch::Tensor masked_logsumexp(const torch::Tensor& s, const torch::Tensor& mask) {
  const auto empty = mask_not(mask.any(1));
  const auto lse = detail::logsumexp(keep(s, mask_or(mask, empty.unsqueeze(1)), -kInf), 1);
  return lse.masked_fill(empty, -kInf);
}

// Mean of per-anchor losses over the anchors in `valid`: on the device, as a sum divided by the
// count. With no valid anchor this is 0/0 = NaN; a batch in host memory is refused instead (its
// count is read without a device synchronisation).
torch::Tensor mean_over(const torch::Tensor& per_anchor, const torch::Tensor& valid, const char* loss) {
  const auto count = valid.sum();
  if (on_host(count) && count.item<int64_t>() == 0) {
    throw InvalidArgument("labels", std::string("give no anchor with a positive for ") + loss);
  }
  return keep(per_anchor, valid, 0.0).sum() / count.to(per_anchor.dtype());
}

// The partner indices as int64 indices on the partner's device. Shapes are always checked; the
// values (one per row, in [0, N), never the row itself and, with labels, of the row's label) only
// when partner and labels are in host memory, in one loop, since reading them from a device would
// synchronise it every step. On a device, gather still refuses an index outside [0, N).
torch::Tensor checked_partner(const torch::Tensor& partner, int64_t n, const torch::Tensor& labels = {}) {
  if (partner.dim() != 1 || partner.size(0) != n) {
    throw InvalidArgument("partner", "must hold one index per row (" + std::to_string(n) + ")");
  }
  const auto p = partner.to(torch::kLong).contiguous();
  if (!on_host(p)) return p;
  const auto* index = p.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    if (index[i] < 0 || index[i] >= n) throw InvalidArgument("partner", "indices must be in [0, N)");
    if (index[i] == i) throw InvalidArgument("partner", "a row cannot be its own partner");
  }
  if (labels.defined() && on_host(labels)) {
    const auto l = labels.contiguous();
    AT_DISPATCH_ALL_TYPES_AND3(torch::kBool, torch::kHalf, torch::kBFloat16, l.scalar_type(), "checked_partner", [&] {
      const auto* label = l.data_ptr<scalar_t>();
      for (int64_t i = 0; i < n; ++i) {
        if (label[index[i]] != label[i]) throw InvalidArgument("partner", "must have the label of its row (a(x) is a view of x)");
      }
    });
  }
  return p;
}

}  // namespace

torch::Tensor two_view_partners(int64_t batch_size, const torch::Device& device) {
  require_at_least("batch_size", batch_size, 1);
  const auto i = torch::arange(2 * batch_size, torch::TensorOptions(torch::kLong).device(device));
  return torch::remainder(i + batch_size, 2 * batch_size);
}

torch::Tensor supcon_out_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  const Batch b = prepare(z, labels, tau);
  const auto log_prob = b.s - masked_logsumexp(b.s, b.not_self).unsqueeze(1);
  const auto positives = b.same.sum(1);
  const auto per_anchor = -keep(log_prob, b.same, 0.0).sum(1) / positives.clamp_min(1).to(z.dtype());
  return mean_over(per_anchor, positives.gt(0), "SupCon L_out");
}

torch::Tensor positive_groups(const torch::Tensor& labels, int64_t group_size) {
  require_at_least("positives", group_size, 1);
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be one label per image (1-D)");
  const int64_t b = labels.size(0);
  const auto same = labels.unsqueeze(0).eq(labels.unsqueeze(1));  // B x B
  const auto earlier = torch::ones({b, b}, labels.options().dtype(torch::kBool)).tril(-1);
  const auto rank = same.logical_and(earlier).sum(1);  // images of the same label before this one
  return labels.to(torch::kLong) * b + rank.div(group_size, "floor");
}

torch::Tensor supcon_out_loss_scaled(const torch::Tensor& z, const torch::Tensor& labels, double tau,
                                     double base_temperature) {
  require_positive("base-temperature", base_temperature);
  return supcon_out_loss(z, labels, tau) * (tau / base_temperature);
}

torch::Tensor supcon_in_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  const Batch b = prepare(z, labels, tau);
  const auto positives = b.same.sum(1);
  const auto per_anchor = -(masked_logsumexp(b.s, b.same) - torch::log(positives.clamp_min(1).to(z.dtype())) -
                            masked_logsumexp(b.s, b.not_self));
  return mean_over(per_anchor, positives.gt(0), "SupCon L_in");
}

torch::Tensor info_nce_loss(const torch::Tensor& z, const torch::Tensor& partner, double tau) {
  const auto labels = torch::arange(z.size(0), torch::TensorOptions().dtype(torch::kLong).device(z.device()));  // every row its own class
  const Batch b = prepare(z, labels, tau);
  const auto p = checked_partner(partner, z.size(0)).to(z.device());
  const auto positive = b.s.gather(1, p.unsqueeze(1)).squeeze(1);
  return (-(positive - masked_logsumexp(b.s, b.not_self))).mean();
}

torch::Tensor spread_sup_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  const Batch b = prepare(z, labels, tau);
  const auto negatives = masked_logsumexp(b.s, b.diff).unsqueeze(1);  // -inf without negatives
  const auto log_ratio = b.s - torch::logaddexp(b.s, negatives);      // log e^s / (e^s + sum_n e^{s_n})
  const auto positives = b.same.sum(1);
  const auto per_anchor = -keep(log_ratio, b.same, 0.0).sum(1) / positives.clamp_min(1).to(z.dtype());
  return mean_over(per_anchor, positives.gt(0), "L_sup");
}

torch::Tensor spread_cnce_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                               double tau, bool include_partner) {
  const Batch b = prepare(z, labels, tau);
  const int64_t n = z.size(0);
  const auto p = checked_partner(partner, n, labels).to(z.device());
  auto denominator = b.same;
  if (!include_partner) {
    const auto is_partner = torch::zeros({n, n}, b.same.options()).scatter_(1, p.unsqueeze(1), true);
    denominator = mask_and(denominator, mask_not(is_partner));
  }
  const auto positive = b.s.gather(1, p.unsqueeze(1)).squeeze(1);
  const auto per_anchor = -(positive - masked_logsumexp(b.s, denominator));
  return mean_over(per_anchor, denominator.any(1), "L_cNCE");
}

torch::Tensor spread_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau,
                          double alpha, bool include_partner) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  if (detail::fused_spread_loss_applies(z, labels) && on_host(partner)) {  // CPU: one kernel, no masks
    check_batch(z, labels, tau);
    return detail::fused_spread_loss(z, labels, checked_partner(partner, z.size(0), labels), tau, alpha, include_partner);
  }
  return (1.0 - alpha) * spread_sup_loss(z, labels, tau) + alpha * spread_cnce_loss(z, labels, partner, tau, include_partner);
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
