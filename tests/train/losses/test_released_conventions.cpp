// The released code's conventions offered as losses (issue 29 §3): spread-thanos-code
// (thanos-code b4f704e's l_spread), cclk-fair-released (CCLK-release a5b4136's weac-infonce) and
// cclk-weak-released (its cl-infonce). Each against its formula written out here in plain double
// loops (docs/reference/losses.md, "The public code's conventions", has the released lines), its
// gradient against central differences, and each shown to differ from the paper's loss on the
// same input; the paper's losses are unchanged by the new option.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)
#include "train/gradient_error.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"

using namespace geomsim::train;
using geomsim::test::gradient_error;

namespace {

using Matrix = std::vector<std::vector<double>>;

// Two views of b samples in float64: the second a perturbation of the first, so that some
// positive cosines are high (above tau: clipped by thanos-code's default).
std::pair<torch::Tensor, torch::Tensor> two_views(int64_t b, int64_t d, uint64_t seed, double noise) {
  torch::manual_seed(seed);
  const auto unit = torch::nn::functional::NormalizeFuncOptions().dim(1);
  const auto x = torch::nn::functional::normalize(torch::randn({b, d}, torch::kDouble), unit);
  const auto y = torch::nn::functional::normalize(x + noise * torch::randn({b, d}, torch::kDouble), unit);
  return {x, y};
}

Matrix rows(const torch::Tensor& t) {
  Matrix m(static_cast<size_t>(t.size(0)), std::vector<double>(static_cast<size_t>(t.size(1))));
  const auto c = t.contiguous();
  for (int64_t i = 0; i < t.size(0); ++i) {
    for (int64_t k = 0; k < t.size(1); ++k) m[i][k] = c[i][k].item<double>();
  }
  return m;
}

std::vector<int64_t> label_vector(const torch::Tensor& labels) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < labels.size(0); ++i) v.push_back(labels[i].item<int64_t>());
  return v;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

// thanos-code's l_spread with two views: anchors the second view's rows, columns the first's.
double thanos_code_formula(const Matrix& first, const Matrix& second, const std::vector<int64_t>& y, double tau,
                           double alpha, double clip_pos) {
  const size_t b = y.size();
  double total = 0;
  for (size_t i = 0; i < b; ++i) {
    double negatives = 0, positives = 0;
    for (size_t j = 0; j < b; ++j) {
      const double e = std::exp(dot(second[i], first[j]) / tau);
      (y[j] == y[i] ? positives : negatives) += e;
    }
    double sup = 0;
    int count = 0;
    for (size_t p = 0; p < b; ++p) {
      if (y[p] != y[i]) continue;
      const double s = dot(second[i], first[p]) / tau;
      const double numerator = clip_pos == 1.0 ? std::min(s, clip_pos) : s;  // the released test, inverted
      sup += -numerator + std::log(std::exp(s) + negatives);
      ++count;
    }
    sup /= count;
    const double cnce = -dot(second[i], first[i]) / tau + std::log(positives);
    total += (1 - alpha) * sup + alpha * cnce;
  }
  return total / static_cast<double>(b);
}

// CCLK-release's W for a delta kernel: (K + lambda I)^{-1} by Gauss-Jordan in double, each entry
// rounded to float, times K summed in float (index order), diagonal 0, entries below 1e-6 set to 0.
Matrix released_weights(const std::vector<int64_t>& y, double lambda) {
  const size_t n = y.size();
  Matrix a(n, std::vector<double>(2 * n, 0.0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) a[i][j] = (y[i] == y[j] ? 1.0 : 0.0) + (i == j ? lambda : 0.0);
    a[i][n + i] = 1.0;
  }
  for (size_t c = 0; c < n; ++c) {  // positive definite: no pivoting needed
    const double pivot = a[c][c];
    for (auto& v : a[c]) v /= pivot;
    for (size_t r = 0; r < n; ++r) {
      if (r == c || a[r][c] == 0.0) continue;
      const double f = a[r][c];
      for (size_t k = 0; k < 2 * n; ++k) a[r][k] -= f * a[c][k];
    }
  }
  Matrix w(n, std::vector<double>(n, 0.0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < n; ++j) {
      float sum = 0.0f;
      for (size_t k = 0; k < n; ++k) sum += static_cast<float>(a[i][n + k]) * (y[k] == y[j] ? 1.0f : 0.0f);
      w[i][j] = (i == j || sum < static_cast<float>(1e-6)) ? 0.0 : static_cast<double>(sum);
    }
  }
  return w;
}

double released_clamp(double v) { return std::min(std::max(v, 1e-7), 1e20); }

// weac-infonce (fair = true) or cl-infonce (fair = false), both views' anchors averaged.
double cclk_released_formula(const Matrix& x, const Matrix& yv, const std::vector<int64_t>& labels, double lambda,
                             double tau, bool fair) {
  const size_t n = labels.size();
  const Matrix w = released_weights(labels, lambda);
  double views[2] = {0, 0};
  for (int view = 0; view < 2; ++view) {
    const Matrix& a = view == 0 ? x : yv;  // the anchors' view
    const Matrix& o = view == 0 ? yv : x;  // the other view
    for (size_t i = 0; i < n; ++i) {
      const double s_ii = dot(a[i], o[i]) / tau;
      double cross_weighted = 0, within_weighted = 0, cross_sum = 0, within_sum = 0;
      for (size_t j = 0; j < n; ++j) {
        const double cross = std::exp(dot(a[i], o[j]) / tau);
        const double within = j == i ? 0.0 : std::exp(dot(a[i], a[j]) / tau);
        cross_weighted += cross * w[j][i];
        within_weighted += within * w[j][i];
        cross_sum += cross;  // j = i included (cl-infonce's Kxy.sum(1))
        within_sum += within;
      }
      if (fair) {
        const double denominator = released_clamp(std::exp(s_ii) + static_cast<double>(n - 1) * (cross_weighted + within_weighted));
        views[view] += (std::log(denominator) - s_ii) / static_cast<double>(n);
      } else {
        const double positive = released_clamp(within_weighted + cross_weighted);
        const double denominator = released_clamp(positive + cross_sum + within_sum);
        views[view] += (std::log(denominator) - std::log(positive)) / static_cast<double>(n);
      }
    }
  }
  return (views[0] + views[1]) / 2;
}


LossBatch batch_of(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& labels) {
  return {torch::cat({x, y}), labels, two_view_partners(labels.size(0)), 3};
}

}  // namespace

TEST_CASE("spread-thanos-code is thanos-code's l_spread", "[train][losses][released_conventions]") {
  const auto [x, y] = two_views(6, 3, 11, 0.4);
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong);
  const double tau = 0.5;
  // Some positive logits are above 1, so the default clip_pos = 1 clips.
  CHECK(torch::matmul(y, x.t()).diagonal().div(tau).gt(1.0).any().item<bool>());
  for (const double alpha : {0.0, 0.3, 1.0}) {
    for (const double clip_pos : {1.0, 0.95, 2.0}) {
      CAPTURE(alpha, clip_pos);
      const double expected = thanos_code_formula(rows(x), rows(y), label_vector(labels), tau, alpha, clip_pos);
      const double value = spread_loss_thanos_code(x, y, labels, tau, alpha, clip_pos).item<double>();
      CHECK(value == Approx(expected).epsilon(1e-12).margin(1e-12));
      LossOptions o;
      o.tau = tau;
      o.alpha = alpha;
      o.clip_pos = clip_pos;
      CHECK(batch_loss("spread-thanos-code", batch_of(x, y, labels), o).item<double>() == value);
    }
  }
  // The released meaning: 0.95 does not clip, so it is the loss of any other non-1 value.
  CHECK(spread_loss_thanos_code(x, y, labels, tau, 0.5, 0.95).item<double>() ==
        spread_loss_thanos_code(x, y, labels, tau, 0.5, -3.0).item<double>());
  CHECK(spread_loss_thanos_code(x, y, labels, tau, 0.5, 1.0).item<double>() !=
        spread_loss_thanos_code(x, y, labels, tau, 0.5, 0.95).item<double>());
}

TEST_CASE("spread-thanos-code has the gradient of central differences", "[train][losses][released_conventions][gradient]") {
  const auto [x, y] = two_views(6, 3, 12, 0.4);
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong);
  for (const double clip_pos : {1.0, 0.95}) {
    CAPTURE(clip_pos);
    const auto f = [&](const torch::Tensor& z) { return spread_loss_thanos_code(z.narrow(0, 0, 6), z.narrow(0, 6, 6), labels, 0.5, 0.4, clip_pos); };
    CHECK(gradient_error(f, torch::cat({x, y})) < 1e-7);
  }
}

TEST_CASE("cclk-fair-released and cclk-weak-released are CCLK-release's weac-infonce and cl-infonce",
          "[train][losses][released_conventions]") {
  const auto [x, y] = two_views(6, 3, 13, 1.0);
  // A class of 3, one of 2 and a singleton (its W row is all zero: cl-infonce's positive is
  // clamped up to 1e-7). tau = 0.002 drives the scores past the clamp's 1e20.
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong);
  for (const double lambda : {0.1, 1.0}) {
    for (const double tau : {0.5, 0.002}) {
      CAPTURE(lambda, tau);
      const double fair = cclk_released_formula(rows(x), rows(y), label_vector(labels), lambda, tau, true);
      const double weak = cclk_released_formula(rows(x), rows(y), label_vector(labels), lambda, tau, false);
      // To float32's rounding, not 1e-12: W is float32's, a sum over each class, and the order in
      // which the BLAS adds (Debian's OpenBLAS, pip torch's own; with or without FMA) may move an
      // entry by an ulp (6e-8), which moves the loss by as much, relatively.
      CHECK(cclk_fair_released_loss(x, y, delta_kernel(labels), lambda, tau).item<double>() ==
            Approx(fair).epsilon(1e-6).margin(1e-12));
      CHECK(cclk_weakly_supervised_released_loss(x, y, delta_kernel(labels), lambda, tau).item<double>() ==
            Approx(weak).epsilon(1e-6).margin(1e-12));
      LossOptions o;
      o.tau = tau;
      o.kernel_lambda = lambda;
      CHECK(batch_loss("cclk-fair-released", batch_of(x, y, labels), o).item<double>() ==
            cclk_fair_released_loss(x, y, delta_kernel(labels), lambda, tau).item<double>());
      CHECK(batch_loss("cclk-weak-released", batch_of(x, y, labels), o).item<double>() ==
            cclk_weakly_supervised_released_loss(x, y, delta_kernel(labels), lambda, tau).item<double>());
    }
  }
  // W is float32's: its entries are floats, the diagonal 0.
  const auto W = released_conditional_weights(delta_kernel(labels), 0.1);
  CHECK(W.scalar_type() == torch::kFloat);
  CHECK(torch::equal(W.diagonal(), torch::zeros({6}, torch::kFloat)));
}

TEST_CASE("cclk-fair-released and cclk-weak-released have the gradient of central differences",
          "[train][losses][released_conventions][gradient]") {
  const auto [x, y] = two_views(6, 3, 14, 1.0);
  const auto kernel = delta_kernel(torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong));
  const auto fair = [&](const torch::Tensor& z) { return cclk_fair_released_loss(z.narrow(0, 0, 6), z.narrow(0, 6, 6), kernel, 0.1, 0.5); };
  const auto weak = [&](const torch::Tensor& z) {
    return cclk_weakly_supervised_released_loss(z.narrow(0, 0, 6), z.narrow(0, 6, 6), kernel, 0.1, 0.5);
  };
  CHECK(gradient_error(fair, torch::cat({x, y})) < 1e-7);
  CHECK(gradient_error(weak, torch::cat({x, y})) < 1e-7);
}

TEST_CASE("Each released convention differs from the paper's loss on the same input", "[train][losses][released_conventions]") {
  const auto [x, y] = two_views(6, 3, 15, 0.4);
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong);
  const auto batch = batch_of(x, y, labels);
  const LossOptions o;  // the defaults: tau 0.5, alpha 0.5, kernel-lambda 0.1, clip-pos 1
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"spread", "spread-thanos-code"}, {"cclk-fair", "cclk-fair-released"}, {"cclk-weak", "cclk-weak-released"}};
  for (const auto& [paper, released] : pairs) {
    CAPTURE(paper, released);
    const double a = batch_loss(paper, batch, o).item<double>(), b = batch_loss(released, batch, o).item<double>();
    CHECK(std::isfinite(b));
    CHECK(std::abs(a - b) > 1e-3);
  }
  // Without the clip (clip-pos 0.95) thanos-code's l_spread still differs: the cross-view block alone.
  LossOptions unclipped;
  unclipped.clip_pos = 0.95;
  CHECK(std::abs(batch_loss("spread", batch, o).item<double>() - batch_loss("spread-thanos-code", batch, unclipped).item<double>()) > 1e-3);
}

TEST_CASE("The paper's losses do not read the released conventions' option", "[train][losses][released_conventions]") {
  const auto [x, y] = two_views(8, 4, 16, 0.4);
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0, 2, 1}, torch::kLong);
  const auto batch = batch_of(x, y, labels);
  CHECK(LossOptions{}.clip_pos == 1.0);
  LossOptions other;
  other.clip_pos = 0.95;
  const auto z = torch::cat({x, y});
  const auto y2 = torch::cat({labels, labels});
  // Bit for bit the direct calls, whatever clip-pos is.
  for (const LossOptions& o : {LossOptions{}, other}) {
    CHECK(torch::equal(batch_loss("spread", batch, o), spread_loss(z, y2, two_view_partners(8), o.tau, o.alpha, true)));
    CHECK(torch::equal(batch_loss("cclk-fair", batch, o), cclk_fair_loss(x, y, delta_kernel(labels), o.kernel_lambda, o.tau)));
    CHECK(torch::equal(batch_loss("cclk-weak", batch, o),
                       cclk_weakly_supervised_loss(x, y, delta_kernel(labels), o.kernel_lambda, o.tau)));
  }
  for (const auto& entry : loss_registry()) {
    CAPTURE(entry.name);
    CHECK(entry.reads("clip-pos") == (entry.name == "spread-thanos-code"));
  }
}
