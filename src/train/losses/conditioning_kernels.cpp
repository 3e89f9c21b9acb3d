#include "geomsim/train/losses/conditioning_kernels.hpp"

#include <algorithm>
#include <cmath>

#include "device_ops.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"

namespace geomsim::train {
namespace {

// |u_i - u_j|^2 from the differences themselves (b x b x k), not the matrix-product form
// |a|^2 + |b|^2 - 2 a.b, which loses the small distances to cancellation.
torch::Tensor squared_distances(const torch::Tensor& u) { return (u.unsqueeze(1) - u.unsqueeze(0)).pow(2).sum(2); }

torch::Tensor identity_mask(int64_t b, const torch::Device& device) {
  return torch::eye(b, torch::TensorOptions().dtype(torch::kBool).device(device));
}

// The kernel as a function of the inner products g = u_i . u_j, the squared distances d2, and
// the rows' norms (cosine); `values` float64 and detached.
torch::Tensor kernel_matrix(const torch::Tensor& u, const ConditioningKernel& k) {
  const auto& name = k.name;
  if (name == "cosine") {
    // F.normalize's form: u / max(|u|, 1e-12), a zero row stays zero; then K_ii = 1.
    const auto norms = u.pow(2).sum(1, true).sqrt().clamp_min(1e-12);
    const auto n = u / norms;
    return torch::matmul(n, n.t()).masked_fill(identity_mask(u.size(0), u.device()), 1.0);
  }
  if (name == "rbf") return torch::exp(-squared_distances(u) / (2.0 * k.bandwidth * k.bandwidth));
  if (name == "laplacian") return torch::exp(-squared_distances(u).sqrt() / k.bandwidth);
  if (name == "linear") return torch::matmul(u, u.t());
  return (torch::matmul(u, u.t()) + k.offset).pow(k.degree);  // polynomial
}

void require_finite_on_host(const torch::Tensor& t, const char* what, const std::string& requirement) {
  if (detail::on_host(t) && !torch::isfinite(t).all().item<bool>()) throw InvalidArgument(what, requirement);
}

}  // namespace

const std::vector<std::string>& conditioning_kernel_names() {
  static const std::vector<std::string> names = {"cosine", "rbf", "laplacian", "linear", "polynomial"};
  return names;
}

std::string conditioning_kernel_list() {
  std::string list;
  for (const auto& name : conditioning_kernel_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

void validate(const ConditioningKernel& k) {
  const auto& names = conditioning_kernel_names();
  if (std::find(names.begin(), names.end(), k.name) == names.end()) {
    throw InvalidArgument("cond-kernel", "must be one of " + conditioning_kernel_list() + "; got '" + k.name + "'");
  }
  require_positive("cond-bandwidth", k.bandwidth);
  if (!(k.degree >= 1.0 && k.degree <= kMaxPolynomialDegree && std::floor(k.degree) == k.degree)) {
    throw InvalidArgument("cond-degree", "must be an integer in [1, " + format_number(kMaxPolynomialDegree) + "], got " +
                                             format_number(k.degree));
  }
  require_non_negative("cond-offset", k.offset);
}

torch::Tensor conditioning_kernel(const torch::Tensor& values, const ConditioningKernel& k) {
  validate(k);
  if (values.dim() != 2 || values.size(0) < 1 || values.size(1) < 1) {
    throw InvalidArgument("condition", "must be b x k with b, k >= 1 (one row of conditioning values per sample)");
  }
  const auto u = values.detach().to(torch::kDouble);
  require_finite_on_host(u, "condition", "must hold finite values only");
  const auto K = kernel_matrix(u, k);
  require_finite_on_host(K, "cond-kernel", k.name + " gives a non-finite kernel on these values (e.g. a polynomial that "
                                                    "overflows float64); use smaller values or a lower --cond-degree");
  return K;
}

torch::Tensor label_conditioning_kernel(const torch::Tensor& labels, const ConditioningKernel& k) {
  validate(k);
  const auto delta = delta_kernel(labels);  // refuses a labels tensor that is not a vector
  const auto& name = k.name;
  if (name == "cosine" || name == "linear") return delta;
  // One-hot vectors: u_i . u_j = delta, |u_i - u_j|^2 = 2 (1 - delta).
  if (name == "rbf") return torch::exp(-(1.0 - delta) / (k.bandwidth * k.bandwidth));
  if (name == "laplacian") return torch::exp(-std::sqrt(2.0) * (1.0 - delta) / k.bandwidth);
  return (delta + k.offset).pow(k.degree);
}

}  // namespace geomsim::train
