#include "geomsim/train/losses/baseline_losses.hpp"

#include <limits>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

void check_two_views(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau) {
  require_positive("tau", tau);
  if (x.dim() != 2 || !x.sizes().equals(y.sizes()) || x.size(0) < 2) throw InvalidArgument("embeddings", "x and y must both be b x d with b >= 2");
  if (z.dim() != 1 || z.size(0) != x.size(0)) throw InvalidArgument("labels", "must hold one conditioning value per sample");
}

void check_batch(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  require_positive("tau", tau);
  if (z.dim() != 2 || z.size(0) < 2) throw InvalidArgument("embeddings", "must be N x d with N >= 2");
  if (labels.dim() != 1 || labels.size(0) != z.size(0)) throw InvalidArgument("labels", "must hold one label per row");
}

// logsumexp of each row of s over the entries where mask is true (every row has one).
torch::Tensor row_logsumexp(const torch::Tensor& s, const torch::Tensor& mask) {
  return torch::logsumexp(torch::where(mask, s, torch::full_like(s, -kInf)), 1);
}

torch::Tensor same_value(const torch::Tensor& z, const torch::Device& device) {
  const auto l = z.to(device);
  return l.unsqueeze(1).eq(l.unsqueeze(0));
}

}  // namespace

torch::Tensor weakly_supervised_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau) {
  check_two_views(x, y, z, tau);
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto same = same_value(z, s.device());  // P_i, i itself included: a draw from P_{Y|Z=z_i}
  const auto all = torch::logsumexp(s, 1);
  const auto positives = torch::where(same, s, torch::zeros_like(s)).sum(1) / same.sum(1).to(s.dtype());
  return (all - positives).mean();
}

torch::Tensor fair_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau) {
  check_two_views(x, y, z, tau);
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto same = same_value(z, s.device());  // the positive y_i and the same-z negatives
  return (row_logsumexp(s, same) - s.diagonal()).mean();
}

torch::Tensor batch_clusters(const torch::Tensor& x, int64_t clusters) {
  require_at_least("clusters", clusters, 1);
  if (x.dim() != 2 || x.size(0) < 1) throw InvalidArgument("embeddings", "must be b x d with b >= 1");
  const auto points = x.detach().to(torch::kDouble);
  const int64_t b = points.size(0);
  std::vector<int64_t> seeds = {0};
  auto nearest = (points - points[0]).pow(2).sum(1);
  while (static_cast<int64_t>(seeds.size()) < std::min(clusters, b)) {
    const int64_t next = nearest.argmax().item<int64_t>();
    if (nearest[next].item<double>() <= 0.0) break;  // no distinct row left
    seeds.push_back(next);
    nearest = torch::minimum(nearest, (points - points[next]).pow(2).sum(1));
  }
  auto centres = points.index_select(0, torch::tensor(seeds));
  torch::Tensor assignment;
  for (int iteration = 0; iteration < 20; ++iteration) {
    assignment = torch::cdist(points, centres).argmin(1);
    for (int64_t k = 0; k < centres.size(0); ++k) {
      const auto members = assignment.eq(k);
      if (members.any().item<bool>()) centres[k] = points.index({members}).mean(0);
    }
  }
  return assignment;
}

torch::Tensor hard_negative_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, int64_t clusters, double tau) {
  return fair_info_nce_loss(x, y, batch_clusters(x, clusters).to(x.device()), tau);
}

std::pair<torch::Tensor, torch::Tensor> draw_triplets(const torch::Tensor& labels) {
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be a vector");
  const int64_t n = labels.size(0);
  const auto equal = labels.unsqueeze(1).eq(labels.unsqueeze(0));
  const auto self = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(labels.device()));
  const auto pick = [&](const torch::Tensor& mask) {
    // The argmax of uniform draws over the allowed entries is a uniform choice among them.
    const auto draws = torch::where(mask, torch::rand({n, n}, torch::TensorOptions().dtype(torch::kDouble)).to(labels.device()),
                                    torch::full({n, n}, -1.0, torch::TensorOptions().dtype(torch::kDouble).device(labels.device())));
    return torch::where(mask.any(1), draws.argmax(1), torch::full({n}, -1, torch::TensorOptions().dtype(torch::kLong).device(labels.device())));
  };
  auto positive = pick(equal.logical_and(self.logical_not()));
  auto negative = pick(equal.logical_not());
  return {positive, negative};
}

torch::Tensor triplet_loss(const torch::Tensor& z, const torch::Tensor& positive, const torch::Tensor& negative, double tau) {
  require_positive("tau", tau);
  if (z.dim() != 2) throw InvalidArgument("embeddings", "must be N x d");
  const int64_t n = z.size(0);
  if (positive.dim() != 1 || negative.dim() != 1 || positive.size(0) != n || negative.size(0) != n) {
    throw InvalidArgument("triplets", "need one positive and one negative index per row");
  }
  const auto p = positive.to(z.device()).to(torch::kLong), q = negative.to(z.device()).to(torch::kLong);
  if (p.max().item<int64_t>() >= n || q.max().item<int64_t>() >= n) throw InvalidArgument("triplets", "indices must be below N");
  const auto valid = p.ge(0).logical_and(q.ge(0));
  const auto count = valid.sum().item<int64_t>();
  if (count == 0) throw InvalidArgument("labels", "give no anchor with both a positive and a negative for the triplet loss");
  const auto anchors = torch::nonzero(valid).squeeze(1);
  const auto za = z.index_select(0, anchors);
  const auto sp = (za * z.index_select(0, p.index_select(0, anchors))).sum(1) / tau;
  const auto sn = (za * z.index_select(0, q.index_select(0, anchors))).sum(1) / tau;
  return torch::nn::functional::softplus(sn - sp).mean();  // -log(e^sp / (e^sp + e^sn))
}

torch::Tensor clipped_positives_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau, double clip_cosine) {
  check_batch(z, labels, tau);
  require_in_closed_range("clip-cosine", clip_cosine, -1.0, 1.0);
  const auto s = torch::matmul(z, z.t()) / tau;
  const int64_t n = z.size(0);
  const auto equal = same_value(labels, s.device());
  const auto self = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  const auto same = equal.logical_and(self.logical_not()), diff = equal.logical_not();
  const auto negatives = torch::where(diff.any(1), row_logsumexp(s, diff.logical_or(diff.any(1).logical_not().unsqueeze(1))),
                                      torch::full({n}, -kInf, s.options()))
                             .unsqueeze(1);
  const auto log_ratio = torch::clamp_max(s, clip_cosine / tau) - torch::logaddexp(s, negatives);
  const auto positives = same.sum(1);
  const auto per_anchor = -torch::where(same, log_ratio, torch::zeros_like(log_ratio)).sum(1) / positives.clamp_min(1).to(s.dtype());
  const auto valid = positives.gt(0);
  if (!valid.any().item<bool>()) throw InvalidArgument("labels", "give no anchor with a positive for the clipped-positives loss");
  return torch::where(valid, per_anchor, torch::zeros_like(per_anchor)).sum() / valid.sum().to(s.dtype());
}

torch::Tensor weighted_denominator_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau, double positive_weight,
                                        double negative_weight) {
  check_batch(z, labels, tau);
  require_non_negative("positive-weight", positive_weight);
  require_non_negative("negative-weight", negative_weight);
  const auto s = torch::matmul(z, z.t()) / tau;
  const int64_t n = z.size(0);
  const auto equal = same_value(labels, s.device());
  const auto self = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  const auto same = equal.logical_and(self.logical_not()), diff = equal.logical_not();
  // Shift each row by its largest similarity (self excluded), then work with E = e^{s - m} <= 1.
  const auto m = std::get<0>(torch::where(self, torch::full_like(s, -kInf), s).max(1, true)).detach();
  const auto e = torch::exp(s - m);
  const auto zero = torch::zeros_like(e);
  const auto positive_sum = torch::where(same, e, zero).sum(1, true), negative_sum = torch::where(diff, e, zero).sum(1, true);
  // e_ip + w_pos (sum_P e - e_ip) + w_neg sum_N e = (1 - w_pos) e_ip + w_pos sum_P e + w_neg sum_N e >= e_ip > 0
  const auto denominator = (1.0 - positive_weight) * e + positive_weight * positive_sum + negative_weight * negative_sum;
  const auto log_ratio = (s - m) - torch::log(torch::where(same, denominator, torch::ones_like(denominator)));
  const auto positives = same.sum(1);
  const auto per_anchor = -torch::where(same, log_ratio, zero).sum(1) / positives.clamp_min(1).to(s.dtype());
  const auto valid = positives.gt(0);
  if (!valid.any().item<bool>()) throw InvalidArgument("labels", "give no anchor with a positive for the weighted-denominator loss");
  return torch::where(valid, per_anchor, torch::zeros_like(per_anchor)).sum() / valid.sum().to(s.dtype());
}

}  // namespace geomsim::train
