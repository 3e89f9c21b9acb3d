#include "geomsim/train/losses/kernel_contrastive_losses.hpp"

#include <string>

#include "device_ops.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"

namespace geomsim::train {
namespace {

void check_views(const torch::Tensor& x, const torch::Tensor& y, double tau) {
  require_positive("tau", tau);
  if (x.dim() != 2 || !x.sizes().equals(y.sizes()) || x.size(0) < 2) {
    throw InvalidArgument("embeddings", "x and y must both be b x d with b >= 2");
  }
}

void check_kernel(const torch::Tensor& kernel, int64_t b) {
  if (kernel.dim() != 2 || kernel.size(0) != b || kernel.size(1) != b) {
    throw InvalidArgument("kernel", "must be b x b with b = " + std::to_string(b));
  }
}

// log [K_XY W]_ii = log sum_j exp(s_ij) W_ji, with s = x y^T / tau. W may have negative
// entries in general, so this is done as a max-shifted sum rather than a logsumexp. A
// non-positive score is refused when the scores are in host memory; on a device its log is NaN
// or -inf, and so is the loss.
torch::Tensor log_conditional_scores(const torch::Tensor& s, const torch::Tensor& W) {
  const auto shift = std::get<0>(s.max(1, true)).detach();
  const auto scores = (torch::exp(s - shift) * W.t()).sum(1);
  if (detail::on_host(scores) && scores.le(0).any().item<bool>()) {
    throw InvalidArgument("kernel", "gives a non-positive conditional score; use a positive semi-definite, non-negative kernel");
  }
  return torch::log(scores) + shift.squeeze(1);
}

// The released code's clamp of its scores to [1e-7, 1e20] (torch.clamp's value, and its gradient:
// none where clamped), with masked_fill, which has a meta kernel for its backward pass.
torch::Tensor released_clamp(const torch::Tensor& v) {
  constexpr double kLow = 1e-7, kHigh = 1e20;
  return v.masked_fill(v.detach().lt(kLow), kLow).masked_fill(v.detach().gt(kHigh), kHigh);
}

// The released critic's within-view scores exp(v v^T / tau) with a zero diagonal (the critic sets
// those scores to -inf before the exponential, critic.py:27-28).
torch::Tensor within_view_scores(const torch::Tensor& v, double tau) {
  const auto s = torch::matmul(v, v.t()) / tau;
  const auto diagonal = torch::eye(s.size(0), torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  return torch::exp(s.masked_fill(diagonal, -INFINITY));
}

// [K V]_ii = sum_j K_ij V_ji.
torch::Tensor weighted_diagonal(const torch::Tensor& K, const torch::Tensor& V) { return (K * V.t()).sum(1); }

struct ReleasedScores {
  torch::Tensor s12_diagonal, k12, k11, k22, V;
};

ReleasedScores released_scores(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel, double lambda,
                               double tau) {
  check_views(x, y, tau);
  check_kernel(kernel, x.size(0));
  ReleasedScores r;
  const auto s12 = torch::matmul(x, y.t()) / tau;
  r.s12_diagonal = s12.diagonal();
  r.k12 = torch::exp(s12);
  r.k11 = within_view_scores(x, tau);
  r.k22 = within_view_scores(y, tau);
  r.V = released_conditional_weights(kernel, lambda).to(s12.dtype()).to(s12.device());
  return r;
}

// W (or W+, its negative entries set to 0) in the similarities' dtype, on their device.
torch::Tensor loss_weights(const torch::Tensor& kernel, double lambda, ConditionalWeights weights, const torch::Tensor& s) {
  auto W = conditional_embedding_weights(kernel, lambda);
  if (weights == ConditionalWeights::nonnegative) W = W.masked_fill(W.lt(0), 0.0);
  return W.to(s.dtype()).to(s.device());
}

}  // namespace

torch::Tensor delta_kernel(const torch::Tensor& labels) {
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be a vector");
  return labels.unsqueeze(1).eq(labels.unsqueeze(0)).to(torch::kDouble);
}

torch::Tensor gaussian_kernel(const torch::Tensor& values, double bandwidth) {
  require_positive("bandwidth", bandwidth);
  if (values.dim() != 2) throw InvalidArgument("values", "must be b x k");
  const auto v = values.to(torch::kDouble);
  return torch::exp(-detail::euclidean_distances(v, v).pow(2) / (2.0 * bandwidth * bandwidth));
}

torch::Tensor conditional_embedding_weights(const torch::Tensor& kernel, double lambda) {
  require_positive("lambda", lambda);
  check_kernel(kernel, kernel.size(0));
  const auto K = kernel.detach().to(torch::kDouble);
  // cholesky_ex: linalg::cholesky would read its status back from a device to check it; it is
  // read here only in host memory (K + lambda I is positive definite for a valid kernel).
  const auto [L, info] = torch::linalg_cholesky_ex(K + lambda * torch::eye(K.size(0), K.options()));
  if (detail::on_host(info) && info.item<int64_t>() != 0) {
    throw InvalidArgument("kernel", "plus lambda I is not positive definite; use a positive semi-definite kernel");
  }
  return detail::cholesky_solve(K, L);
}

torch::Tensor cclk_weakly_supervised_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel,
                                          double lambda, double tau, ConditionalWeights weights) {
  check_views(x, y, tau);
  check_kernel(kernel, x.size(0));
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto W = loss_weights(kernel, lambda, weights, s);
  const auto positive = log_conditional_scores(s, W);
  const auto diagonal = torch::eye(s.size(0), torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  const auto negatives = detail::logsumexp(s.masked_fill(diagonal, -INFINITY), 1);
  return (-(positive - torch::logaddexp(positive, negatives))).mean();
}

torch::Tensor cclk_fair_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel, double lambda,
                             double tau, ConditionalWeights weights) {
  check_views(x, y, tau);
  check_kernel(kernel, x.size(0));
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto W = loss_weights(kernel, lambda, weights, s);
  const auto positive = s.diagonal();
  const auto negatives = log_conditional_scores(s, W) + std::log(static_cast<double>(s.size(0) - 1));
  return (-(positive - torch::logaddexp(positive, negatives))).mean();
}

torch::Tensor cclk_hard_negative_loss(const torch::Tensor& x, const torch::Tensor& y, double bandwidth, double lambda,
                                      double tau) {
  return cclk_fair_loss(x, y, gaussian_kernel(x.detach(), bandwidth), lambda, tau);
}

torch::Tensor released_conditional_weights(const torch::Tensor& kernel, double lambda) {
  require_positive("lambda", lambda);
  check_kernel(kernel, kernel.size(0));
  constexpr double kWeightClipThreshold = 1e-6;  // ConditionalSampling.py:14's default
  const auto K = kernel.detach().to(torch::kDouble);
  const int64_t n = K.size(0);
  const auto identity = torch::eye(n, K.options());
  const auto [L, info] = torch::linalg_cholesky_ex(K + lambda * identity);
  if (detail::on_host(info) && info.item<int64_t>() != 0) {
    throw InvalidArgument("kernel", "plus lambda I is not positive definite; use a positive semi-definite kernel");
  }
  // The inverse in float64, then float32 (np.linalg.inv(...).astype(np.float32)), times K_Z in float32.
  const auto inverse = detail::cholesky_solve(identity, L).to(torch::kFloat);
  const auto W = torch::matmul(inverse, K.to(torch::kFloat));
  const auto diagonal = torch::eye(n, torch::TensorOptions().dtype(torch::kBool).device(K.device()));
  const auto off_diagonal = W.masked_fill(diagonal, 0.0);
  return off_diagonal.masked_fill(off_diagonal.lt(kWeightClipThreshold), 0.0);
}

torch::Tensor cclk_fair_released_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel,
                                      double lambda, double tau) {
  const ReleasedScores r = released_scores(x, y, kernel, lambda, tau);
  const double others = static_cast<double>(x.size(0) - 1);
  const auto positive = r.s12_diagonal;
  const auto denominator_x = released_clamp(torch::exp(positive) +
                                            others * (weighted_diagonal(r.k12, r.V) + weighted_diagonal(r.k11, r.V)));
  const auto denominator_y = released_clamp(torch::exp(positive) +
                                            others * (weighted_diagonal(r.k12.t(), r.V) + weighted_diagonal(r.k22, r.V)));
  const auto loss_x = -(positive - torch::log(denominator_x)).mean();
  const auto loss_y = -(positive - torch::log(denominator_y)).mean();
  return (loss_x + loss_y) / 2;
}

torch::Tensor cclk_weakly_supervised_released_loss(const torch::Tensor& x, const torch::Tensor& y,
                                                   const torch::Tensor& kernel, double lambda, double tau) {
  const ReleasedScores r = released_scores(x, y, kernel, lambda, tau);
  const auto k21 = r.k12.t();
  const auto positive_x = released_clamp(weighted_diagonal(r.k11, r.V) + weighted_diagonal(r.k12, r.V));
  const auto denominator_x = released_clamp(positive_x + r.k12.sum(1) + r.k11.sum(1));
  const auto positive_y = released_clamp(weighted_diagonal(r.k22, r.V) + weighted_diagonal(k21, r.V));
  const auto denominator_y = released_clamp(positive_y + k21.sum(1) + r.k22.sum(1));
  const auto loss_x = -(torch::log(positive_x) - torch::log(denominator_x)).mean();
  const auto loss_y = -(torch::log(positive_y) - torch::log(denominator_y)).mean();
  return (loss_x + loss_y) / 2;
}

torch::Tensor attract_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  return spread_sup_loss(z, labels, tau);
}

torch::Tensor repel_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau) {
  return spread_cnce_loss(z, labels, partner, tau);
}

torch::Tensor spread_loss_seed000(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                  double tau, double alpha) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  return alpha * attract_loss(z, labels, tau) + (1.0 - alpha) * repel_loss(z, labels, partner, tau);
}

}  // namespace geomsim::train
