#include "geomsim/train/losses/baseline_losses.hpp"

#include <string>

#include "device_ops.hpp"
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

void check_two_views(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& z, double tau) {
  require_positive("tau", tau);
  if (x.dim() != 2 || !x.sizes().equals(y.sizes()) || x.size(0) < 2) throw InvalidArgument("embeddings", "x and y must both be b x d with b >= 2");
  if (z.dim() != 1 || z.size(0) != x.size(0)) throw InvalidArgument("labels", "must hold one conditioning value per sample");
}

// logsumexp of each row of s over the entries where mask is true (every row has one).
torch::Tensor row_logsumexp(const torch::Tensor& s, const torch::Tensor& mask) {
  return detail::logsumexp(keep(s, mask, -kInf), 1);
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
  const auto all = detail::logsumexp(s, 1);
  const auto positives = keep(s, same, 0.0).sum(1) / same.sum(1).to(s.dtype());
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
  const auto long_options = torch::TensorOptions().dtype(torch::kLong).device(points.device());
  // Farthest-point seeding from row 0, a fixed `clusters` rounds on the device: a seed whose
  // distance to the seeds before it is 0 (no distinct row left) is inactive, never assigned.
  std::vector<torch::Tensor> seeds = {torch::zeros({1}, long_options)}, active = {torch::ones({1}, long_options.dtype(torch::kBool))};
  auto nearest = (points - detail::take_rows(points, seeds[0])).pow(2).sum(1);
  for (int64_t k = 1; k < clusters; ++k) {
    const auto next = nearest.argmax().view({1});
    active.push_back(nearest.amax().gt(0.0).view({1}));
    seeds.push_back(next);
    nearest = torch::minimum(nearest, (points - detail::take_rows(points, next)).pow(2).sum(1));
  }
  const auto live = torch::cat(active);
  auto centres = detail::take_rows(points, torch::cat(seeds));
  const auto cluster_ids = torch::arange(clusters, long_options);
  // Lloyd's iterations; an (active) centre without members stays where it is.
  torch::Tensor assignment;
  for (int iteration = 0; iteration < 20; ++iteration) {
    assignment = detail::euclidean_distances(points, centres).masked_fill(mask_not(live).unsqueeze(0), kInf).argmin(1);
    const auto members = assignment.unsqueeze(1).eq(cluster_ids.unsqueeze(0)).to(points.dtype());  // b x clusters
    const auto counts = members.sum(0).unsqueeze(1);
    const auto has = counts.gt(0.0);
    centres = keep(members.t().mm(points) / counts.clamp_min(1.0), has, 0.0) + centres.masked_fill(has, 0.0);
  }
  return assignment;
}

torch::Tensor hard_negative_info_nce_loss(const torch::Tensor& x, const torch::Tensor& y, int64_t clusters, double tau) {
  // k-means runs `clusters` seeding rounds on the batch: more clusters than rows cannot be seeded.
  if (x.dim() == 2 && clusters > x.size(0)) {
    throw InvalidArgument("num_classes", "(the k-means clusters of the batch's embeddings) must be at most the batch's " +
                                             std::to_string(x.size(0)) + " rows, got " + std::to_string(clusters));
  }
  return fair_info_nce_loss(x, y, batch_clusters(x, clusters).to(x.device()), tau);
}

std::pair<torch::Tensor, torch::Tensor> draw_triplets(const torch::Tensor& labels) {
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be a vector");
  const int64_t n = labels.size(0);
  const auto equal = labels.unsqueeze(1).eq(labels.unsqueeze(0));
  const auto self = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(labels.device()));
  const auto pick = [&](const torch::Tensor& mask) {
    // The argmax of uniform draws over the allowed entries is a uniform choice among them; the
    // draws come from the generator of the labels' device.
    const auto draws = keep(torch::rand({n, n}, torch::TensorOptions().dtype(torch::kDouble).device(labels.device())), mask, -1.0);
    return draws.argmax(1).masked_fill(mask_not(mask.any(1)), -1);
  };
  auto positive = pick(mask_and(equal, mask_not(self)));
  auto negative = pick(mask_not(equal));
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
  if (on_host(p) && (p.max().item<int64_t>() >= n || q.max().item<int64_t>() >= n)) {
    throw InvalidArgument("triplets", "indices must be below N");
  }
  // Every anchor is computed (a missing index, -1, reads row 0) and the mean runs over those
  // with both: a sum and a count on the device.
  const auto valid = mask_and(p.ge(0), q.ge(0));
  const auto count = valid.sum();
  if (on_host(count) && count.item<int64_t>() == 0) {
    throw InvalidArgument("labels", "give no anchor with both a positive and a negative for the triplet loss");
  }
  // The anchors are taken as rows too (all of them), so that autograd adds z's three gradient
  // parts in the order it did when the anchors were a selection: the same bits as before.
  const auto za = detail::take_rows(z, torch::arange(n, p.options()));
  const auto sp = (za * detail::take_rows(z, p.clamp_min(0))).sum(1) / tau;
  const auto sn = (za * detail::take_rows(z, q.clamp_min(0))).sum(1) / tau;
  const auto per_anchor = torch::nn::functional::softplus(sn - sp);  // -log(e^sp / (e^sp + e^sn))
  return keep(per_anchor, valid, 0.0).sum() / count.to(per_anchor.dtype());
}

torch::Tensor clipped_positives_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau, double clip_cosine) {
  check_batch(z, labels, tau);
  require_in_closed_range("clip-cosine", clip_cosine, -1.0, 1.0);
  const auto s = torch::matmul(z, z.t()) / tau;
  const int64_t n = z.size(0);
  const auto equal = same_value(labels, s.device());
  const auto self = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  const auto same = mask_and(equal, mask_not(self)), diff = mask_not(equal);
  const auto no_negative = mask_not(diff.any(1));
  const auto negatives = row_logsumexp(s, mask_or(diff, no_negative.unsqueeze(1))).masked_fill(no_negative, -kInf).unsqueeze(1);
  // clamp_max(s, c / tau), as a fill (clamp's backward has no meta kernel in libtorch 1.13)
  const double clip = clip_cosine / tau;
  const auto log_ratio = s.masked_fill(s.gt(clip), clip) - torch::logaddexp(s, negatives);
  const auto positives = same.sum(1);
  const auto per_anchor = -keep(log_ratio, same, 0.0).sum(1) / positives.clamp_min(1).to(s.dtype());
  const auto valid = positives.gt(0);
  if (on_host(valid) && !valid.any().item<bool>()) {
    throw InvalidArgument("labels", "give no anchor with a positive for the clipped-positives loss");
  }
  return keep(per_anchor, valid, 0.0).sum() / valid.sum().to(s.dtype());
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
  const auto same = mask_and(equal, mask_not(self)), diff = mask_not(equal);
  // Shift each row by its largest similarity (self excluded), then work with E = e^{s - m} <= 1.
  const auto m = std::get<0>(s.masked_fill(self, -kInf).max(1, true)).detach();
  const auto e = torch::exp(s - m);
  const auto positive_sum = keep(e, same, 0.0).sum(1, true), negative_sum = keep(e, diff, 0.0).sum(1, true);
  // e_ip + w_pos (sum_P e - e_ip) + w_neg sum_N e = (1 - w_pos) e_ip + w_pos sum_P e + w_neg sum_N e >= e_ip > 0
  const auto denominator = (1.0 - positive_weight) * e + positive_weight * positive_sum + negative_weight * negative_sum;
  const auto log_ratio = (s - m) - torch::log(keep(denominator, same, 1.0));
  const auto positives = same.sum(1);
  const auto per_anchor = -keep(log_ratio, same, 0.0).sum(1) / positives.clamp_min(1).to(s.dtype());
  const auto valid = positives.gt(0);
  if (on_host(valid) && !valid.any().item<bool>()) {
    throw InvalidArgument("labels", "give no anchor with a positive for the weighted-denominator loss");
  }
  return keep(per_anchor, valid, 0.0).sum() / valid.sum().to(s.dtype());
}

}  // namespace geomsim::train
