#pragma once
// The training losses' gradient check: autograd's gradient of a scalar function of one tensor
// against central differences, entry by entry (float64 inputs; h = 1e-6).
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>

namespace geomsim::test {

// max |autograd - central difference| / max(1, |fd|) over every entry of z0.
inline double gradient_error(const std::function<torch::Tensor(const torch::Tensor&)>& f, const torch::Tensor& z0) {
  auto z = z0.clone().requires_grad_(true);
  f(z).backward();
  const auto grad = z.grad();
  double worst = 0;
  const double h = 1e-6;
  for (int64_t k = 0; k < z0.numel(); ++k) {
    auto plus = z0.clone(), minus = z0.clone();
    plus.view(-1)[k] += h;
    minus.view(-1)[k] -= h;
    const double fd = (f(plus).item<double>() - f(minus).item<double>()) / (2 * h);
    worst = std::max(worst, std::abs(grad.view(-1)[k].item<double>() - fd) / std::max(1.0, std::abs(fd)));
  }
  return worst;
}

}  // namespace geomsim::test
