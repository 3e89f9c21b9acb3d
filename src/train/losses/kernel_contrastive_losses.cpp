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
                                          double lambda, double tau) {
  check_views(x, y, tau);
  check_kernel(kernel, x.size(0));
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto W = conditional_embedding_weights(kernel, lambda).to(s.dtype()).to(s.device());
  const auto positive = log_conditional_scores(s, W);
  const auto diagonal = torch::eye(s.size(0), torch::TensorOptions().dtype(torch::kBool).device(s.device()));
  const auto negatives = detail::logsumexp(s.masked_fill(diagonal, -INFINITY), 1);
  return (-(positive - torch::logaddexp(positive, negatives))).mean();
}

torch::Tensor cclk_fair_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel, double lambda,
                             double tau) {
  check_views(x, y, tau);
  check_kernel(kernel, x.size(0));
  const auto s = torch::matmul(x, y.t()) / tau;
  const auto W = conditional_embedding_weights(kernel, lambda).to(s.dtype()).to(s.device());
  const auto positive = s.diagonal();
  const auto negatives = log_conditional_scores(s, W) + std::log(static_cast<double>(s.size(0) - 1));
  return (-(positive - torch::logaddexp(positive, negatives))).mean();
}

torch::Tensor cclk_hard_negative_loss(const torch::Tensor& x, const torch::Tensor& y, double bandwidth, double lambda,
                                      double tau) {
  return cclk_fair_loss(x, y, gaussian_kernel(x.detach(), bandwidth), lambda, tau);
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
