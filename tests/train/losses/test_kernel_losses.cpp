// CCL-K (seed 002) against direct matrix computations and the delta-kernel closed form, its
// gradients against finite differences, and seed 000's weighting against seed 004's.
#include "train/catch_with_torch.hpp"
#include <cmath>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"
#include "train/losses/loss_inputs.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
using geomsim::train::testing::unit_rows;
}  // namespace

TEST_CASE("CCL-K with a delta kernel is the scaled conditional average", "[train][losses][cclk]") {
  const int64_t b = 6;
  const auto x = unit_rows(b, 3, 1), y = unit_rows(b, 3, 2);
  const auto z = torch::tensor({0, 1, 0, 0, 1, 2}, torch::kLong);
  const double lambda = 0.5, tau = 0.5;
  const auto W = conditional_embedding_weights(delta_kernel(z), lambda);
  CHECK(torch::allclose(W, torch::matmul(torch::inverse(delta_kernel(z) + lambda * torch::eye(b, torch::kDouble)), delta_kernel(z))));
  const auto K = torch::exp(torch::matmul(x, y.t()) / tau);
  double fair = 0, weak = 0;
  for (int64_t i = 0; i < b; ++i) {
    double group = 0;
    int m = 0;
    for (int64_t j = 0; j < b; ++j) {
      if (z[j].item<int64_t>() == z[i].item<int64_t>()) {
        group += K[i][j].item<double>();
        ++m;
      }
    }
    const double conditional = m / (m + lambda) * group / m;  // the closed form
    CHECK(torch::matmul(K, W)[i][i].item<double>() == Approx(conditional).epsilon(1e-12));
    const double kii = K[i][i].item<double>();
    fair += -std::log(kii / (kii + (b - 1) * conditional)) / b;
    double others = 0;
    for (int64_t j = 0; j < b; ++j) if (j != i) others += K[i][j].item<double>();
    weak += -std::log(conditional / (conditional + others)) / b;
  }
  CHECK(cclk_fair_loss(x, y, delta_kernel(z), lambda, tau).item<double>() == Approx(fair).epsilon(1e-12));
  CHECK(cclk_weakly_supervised_loss(x, y, delta_kernel(z), lambda, tau).item<double>() == Approx(weak).epsilon(1e-12));
}

TEST_CASE("CCL-K gradients agree with central differences", "[train][losses][cclk][gradient]") {
  const auto x0 = unit_rows(5, 3, 3), y = unit_rows(5, 3, 4);
  const auto kernel = delta_kernel(torch::tensor({0, 0, 1, 1, 1}, torch::kLong));
  const std::vector<std::function<torch::Tensor(const torch::Tensor&)>> losses{
      [&](const torch::Tensor& x) { return cclk_weakly_supervised_loss(x, y, kernel, 0.3, 0.5); },
      [&](const torch::Tensor& x) { return cclk_fair_loss(x, y, kernel, 0.3, 0.5); }};
  for (const auto& f : losses) {
    auto x = x0.clone().requires_grad_(true);
    f(x).backward();
    const double h = 1e-6;
    for (int64_t k = 0; k < x0.numel(); ++k) {
      auto plus = x0.clone(), minus = x0.clone();
      plus.view(-1)[k] += h;
      minus.view(-1)[k] -= h;
      const double fd = (f(plus).item<double>() - f(minus).item<double>()) / (2 * h);
      CHECK(x.grad().view(-1)[k].item<double>() == Approx(fd).margin(1e-7));
    }
  }
  // HardNeg: Fair with a Gaussian kernel on the embeddings (finite, and its kernel is PSD).
  CHECK(std::isfinite(cclk_hard_negative_loss(x0, y, 2.0, 0.5, 0.5).item<double>()));
  CHECK_THROWS_WITH(cclk_fair_loss(x0, y, kernel.narrow(0, 0, 4), 0.3, 0.5), Catch::Contains("kernel must be b x b"));
  CHECK_THROWS_WITH(conditional_embedding_weights(kernel, 0.0), Catch::Contains("lambda must be a finite number > 0"));
}

TEST_CASE("Seed 000's L_spread is seed 004's with alpha reversed", "[train][losses]") {
  torch::manual_seed(9);
  const auto z = torch::nn::functional::normalize(torch::randn({8, 4}, torch::kDouble), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto labels = torch::tensor({0, 1, 0, 1, 0, 1, 0, 1}, torch::kLong);
  const auto partner = two_view_partners(4);
  for (double alpha : {0.0, 0.3, 1.0}) {
    CHECK(spread_loss_seed000(z, labels, partner, 0.5, alpha).item<double>() ==
          Approx(spread_loss(z, labels, partner, 0.5, 1.0 - alpha).item<double>()).epsilon(1e-14));
  }
  CHECK(attract_loss(z, labels, 0.5).item<double>() == spread_sup_loss(z, labels, 0.5).item<double>());
}
