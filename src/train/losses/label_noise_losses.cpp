#include "geomsim/train/losses/label_noise_losses.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "device_ops.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/label_noise_debiasing.hpp"

namespace geomsim::train {
using detail::keep;
using detail::mask_and;
using detail::mask_not;
using detail::on_host;

std::pair<torch::Tensor, torch::Tensor> draw_noisy_pairs(const torch::Tensor& labels, const torch::Tensor& partner, int64_t m) {
  if (labels.dim() != 1 || partner.dim() != 1 || partner.size(0) != labels.size(0)) {
    throw InvalidArgument("labels", "must be one label and one partner per row");
  }
  if (m < 2 || m > kMaxDebiasedDenominator) {
    throw InvalidArgument("denominator-size", "must be a whole number in [2, " + std::to_string(kMaxDebiasedDenominator) +
                                                  "], got " + std::to_string(m));
  }
  const int64_t n = labels.size(0);
  const auto options = torch::TensorOptions().device(labels.device());
  const auto equal = labels.unsqueeze(1).eq(labels.unsqueeze(0));
  const auto columns = torch::arange(n, options.dtype(torch::kLong)).unsqueeze(0);
  // The anchor's own image (itself and its other view) is neither kind.
  const auto own = detail::mask_or(columns.eq(columns.t()), columns.eq(partner.to(labels.device()).to(torch::kLong).unsqueeze(1)));
  const auto positive = mask_and(equal, mask_not(own)), negative = mask_not(equal);
  const auto pick = [&](const torch::Tensor& mask) {
    // The argmax of uniform draws over the allowed entries is a uniform choice among them.
    const auto draws = keep(torch::rand({n, m, n}, options.dtype(torch::kDouble)), mask.unsqueeze(1).expand({n, m, n}), -1.0);
    return draws.argmax(2).masked_fill(mask_not(mask.any(1)).unsqueeze(1), -1);
  };
  return {pick(positive), pick(negative)};
}

torch::Tensor noise_aware_attract_loss(const torch::Tensor& z, const torch::Tensor& positives, const torch::Tensor& negatives,
                                       double label_accuracy, double tau) {
  require_positive("tau", tau);
  if (z.dim() != 2) throw InvalidArgument("embeddings", "must be N x d");
  const int64_t n = z.size(0), d = z.size(1);
  if (positives.dim() != 2 || negatives.sizes() != positives.sizes() || positives.size(0) != n) {
    throw InvalidArgument("draws", "need N x m positives and negatives");
  }
  const int64_t m = positives.size(1);
  const std::vector<double> w = noise_aware_attract_weights(label_accuracy, static_cast<int>(m));
  const NoiseAwareTripletWeights linear = noise_aware_triplet_weights(label_accuracy);
  const auto p = positives.to(z.device()).to(torch::kLong), q = negatives.to(z.device()).to(torch::kLong);
  if (on_host(p) && (p.max().item<int64_t>() >= n || q.max().item<int64_t>() >= n)) {
    throw InvalidArgument("draws", "indices must be below N");
  }
  const auto valid = mask_and(p.select(1, 0).ge(0), q.select(1, 0).ge(0));
  const auto count = valid.sum();
  if (on_host(count) && count.item<int64_t>() == 0) {
    throw InvalidArgument("labels", "give no anchor with both a noisy positive and a noisy negative");
  }
  // s(x, x~) for each draw: N x m each (a missing draw, -1, reads row 0 and is never counted).
  const auto similarity = [&](const torch::Tensor& index) {
    const auto rows = detail::take_rows(z, index.clamp_min(0).reshape({-1})).view({n, m, d});
    return (z.unsqueeze(1) * rows).sum(2) / tau;
  };
  const auto sp = similarity(p), sn = similarity(q);
  auto per_anchor = -linear.positive * sp.select(1, 0) + linear.negative * sn.select(1, 0);
  for (int64_t k = 0; k <= m; ++k) {
    const auto terms = torch::cat({sp.narrow(1, 0, k), sn.narrow(1, 0, m - k)}, 1);
    per_anchor = per_anchor + w[static_cast<std::size_t>(k)] * detail::logsumexp(terms, 1);
  }
  return keep(per_anchor, valid, 0.0).sum() / count.to(per_anchor.dtype());
}

torch::Tensor geometric_label_correction(const torch::Tensor& z, const torch::Tensor& labels, double noise_rate) {
  if (!(noise_rate >= 0.0 && noise_rate < 1.0)) {
    throw InvalidArgument("noise-correction", "must be in [0, 1) (the fraction of each batch's labels taken as wrong), got " +
                                                  format_number(noise_rate));
  }
  if (labels.dim() != 1 || z.dim() != 2 || z.size(0) != 2 * labels.size(0)) {
    throw InvalidArgument("labels", "must be one per image of the two-view batch");
  }
  const int64_t b = labels.size(0);
  const auto marked_count = static_cast<int64_t>(std::floor(noise_rate * static_cast<double>(b)));
  if (marked_count == 0) return labels;
  torch::NoGradGuard no_grad;
  const auto e = torch::nn::functional::normalize(z.detach().narrow(0, 0, b) + z.detach().narrow(0, b, b),
                                                  torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto cosine = torch::matmul(e, e.t());  // B x B
  const auto same = labels.unsqueeze(1).eq(labels.unsqueeze(0));
  const auto self = torch::eye(b, torch::TensorOptions().dtype(torch::kBool).device(e.device()));
  const auto fdt = e.options();
  // The cosine with the centre of the other points of the same label, and the mean cosine with
  // the points of the other labels (0 where there are none).
  const auto others = mask_and(same, mask_not(self)).to(fdt);
  const auto centre = torch::nn::functional::normalize(torch::matmul(others, e), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto to_centre = (centre * e).sum(1);
  const auto different = mask_not(same).to(fdt);
  const auto to_others = (cosine * different).sum(1) / different.sum(1).clamp_min(1.0);
  const auto score = to_centre - to_others;
  const auto marked_rows = std::get<1>(score.topk(marked_count, 0, /*largest=*/false));
  const auto marked = torch::zeros({b}, torch::TensorOptions().dtype(torch::kBool).device(e.device())).index_fill(0, marked_rows, true);
  // Each label's centre from its unmarked points; a marked point takes the label of the nearest
  // centre (an unmarked point j stands for the centre of its label).
  const auto members = mask_and(same, mask_not(marked).unsqueeze(0)).to(fdt);
  const auto centres = torch::nn::functional::normalize(torch::matmul(members, e), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto to_centres = keep(torch::matmul(e, centres.t()), mask_not(marked).unsqueeze(0).expand({b, b}), -3.0);
  const auto nearest = labels.index_select(0, to_centres.argmax(1));
  return torch::where(marked, nearest, labels);
}

}  // namespace geomsim::train
