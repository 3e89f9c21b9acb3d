// The batch losses two ways: values against direct loops over the formulas, gradients
// (autograd) against central finite differences, in double precision.
#include "catch_with_torch.hpp"
#include <cmath>
#include <functional>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/contrastive_losses.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
using Fn = std::function<torch::Tensor(const torch::Tensor&)>;

// A two-view batch of B samples with the given sample labels, unit rows, double precision.
struct Views {
  torch::Tensor z, labels, partner;
};
Views views(const std::vector<int64_t>& sample_labels, int64_t d, uint64_t seed) {
  torch::manual_seed(seed);
  const auto B = static_cast<int64_t>(sample_labels.size());
  Views v;
  v.z = torch::nn::functional::normalize(torch::randn({2 * B, d}, torch::kDouble),
                                         torch::nn::functional::NormalizeFuncOptions().dim(1));
  auto l = torch::tensor(sample_labels, torch::kLong);
  v.labels = torch::cat({l, l});
  v.partner = two_view_partners(B);
  return v;
}

double sim(const torch::Tensor& z, int64_t i, int64_t j, double tau) { return (z[i] * z[j]).sum().item<double>() / tau; }

// Direct loops over each formula (the header's), sharing nothing with the implementation.
double loop_supcon_out(const Views& v, double tau) {
  const int64_t n = v.z.size(0);
  double total = 0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    double denom = 0;
    for (int64_t a = 0; a < n; ++a) if (a != i) denom += std::exp(sim(v.z, i, a, tau));
    double sum = 0;
    int P = 0;
    for (int64_t p = 0; p < n; ++p) {
      if (p == i || v.labels[p].item<int64_t>() != v.labels[i].item<int64_t>()) continue;
      sum += std::log(std::exp(sim(v.z, i, p, tau)) / denom);
      ++P;
    }
    if (P) { total += -sum / P; ++anchors; }
  }
  return total / anchors;
}
double loop_supcon_in(const Views& v, double tau) {
  const int64_t n = v.z.size(0);
  double total = 0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    double denom = 0, num = 0;
    int P = 0;
    for (int64_t a = 0; a < n; ++a) if (a != i) denom += std::exp(sim(v.z, i, a, tau));
    for (int64_t p = 0; p < n; ++p) {
      if (p == i || v.labels[p].item<int64_t>() != v.labels[i].item<int64_t>()) continue;
      num += std::exp(sim(v.z, i, p, tau)) / denom;
      ++P;
    }
    if (P) { total += -std::log(num / P); ++anchors; }
  }
  return total / anchors;
}
double loop_info_nce(const Views& v, double tau) {
  const int64_t n = v.z.size(0);
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    double denom = 0;
    for (int64_t a = 0; a < n; ++a) if (a != i) denom += std::exp(sim(v.z, i, a, tau));
    total += -std::log(std::exp(sim(v.z, i, v.partner[i].item<int64_t>(), tau)) / denom);
  }
  return total / static_cast<double>(n);
}
double loop_sup(const Views& v, double tau) {
  const int64_t n = v.z.size(0);
  double total = 0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    double neg = 0, sum = 0;
    int P = 0;
    for (int64_t j = 0; j < n; ++j) {
      if (v.labels[j].item<int64_t>() != v.labels[i].item<int64_t>()) neg += std::exp(sim(v.z, i, j, tau));
    }
    for (int64_t p = 0; p < n; ++p) {
      if (p == i || v.labels[p].item<int64_t>() != v.labels[i].item<int64_t>()) continue;
      const double e = std::exp(sim(v.z, i, p, tau));
      sum += std::log(e / (e + neg));
      ++P;
    }
    if (P) { total += -sum / P; ++anchors; }
  }
  return total / anchors;
}
double loop_cnce(const Views& v, double tau, bool include_partner) {
  const int64_t n = v.z.size(0);
  double total = 0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t a = v.partner[i].item<int64_t>();
    double denom = 0;
    int D = 0;
    for (int64_t p = 0; p < n; ++p) {
      if (p == i || v.labels[p].item<int64_t>() != v.labels[i].item<int64_t>()) continue;
      if (!include_partner && p == a) continue;
      denom += std::exp(sim(v.z, i, p, tau));
      ++D;
    }
    if (D) { total += -std::log(std::exp(sim(v.z, i, a, tau)) / denom); ++anchors; }
  }
  return total / anchors;
}

// max |autograd - central difference| / max(1, |fd|) over every entry of z.
double gradient_error(const Fn& f, const torch::Tensor& z0) {
  auto z = z0.clone().requires_grad_(true);
  f(z).backward();
  const auto grad = z.grad();
  double worst = 0;
  const double h = 1e-6;
  auto flat = z0.clone();
  for (int64_t k = 0; k < flat.numel(); ++k) {
    auto plus = flat.clone(), minus = flat.clone();
    plus.view(-1)[k] += h;
    minus.view(-1)[k] -= h;
    const double fd = (f(plus).item<double>() - f(minus).item<double>()) / (2 * h);
    worst = std::max(worst, std::abs(grad.view(-1)[k].item<double>() - fd) / std::max(1.0, std::abs(fd)));
  }
  return worst;
}
}  // namespace

TEST_CASE("Each batch loss equals a direct loop over its formula", "[train][losses]") {
  const double tau = GENERATE(0.1, 0.5, 1.0);
  const auto seed = GENERATE(1u, 2u, 3u);
  const Views v = views({0, 1, 0, 2, 1, 0}, 4, seed);
  CAPTURE(tau, seed);
  CHECK(supcon_out_loss(v.z, v.labels, tau).item<double>() == Approx(loop_supcon_out(v, tau)).epsilon(1e-12));
  CHECK(supcon_in_loss(v.z, v.labels, tau).item<double>() == Approx(loop_supcon_in(v, tau)).epsilon(1e-12));
  CHECK(info_nce_loss(v.z, v.partner, tau).item<double>() == Approx(loop_info_nce(v, tau)).epsilon(1e-12));
  CHECK(spread_sup_loss(v.z, v.labels, tau).item<double>() == Approx(loop_sup(v, tau)).epsilon(1e-12));
  for (bool include : {true, false}) {
    CHECK(spread_cnce_loss(v.z, v.labels, v.partner, tau, include).item<double>() ==
          Approx(loop_cnce(v, tau, include)).epsilon(1e-12));
  }
  const double alpha = 0.7;
  CHECK(spread_loss(v.z, v.labels, v.partner, tau, alpha).item<double>() ==
        Approx(0.3 * loop_sup(v, tau) + 0.7 * loop_cnce(v, tau, true)).epsilon(1e-12));
}

TEST_CASE("Each batch loss has the gradient of central differences", "[train][losses][gradient]") {
  const double tau = 0.5;
  const Views v = views({0, 1, 0, 1, 2}, 3, 7);
  const std::vector<std::pair<const char*, Fn>> losses{
      {"supcon_out", [&](const torch::Tensor& z) { return supcon_out_loss(z, v.labels, tau); }},
      {"supcon_in", [&](const torch::Tensor& z) { return supcon_in_loss(z, v.labels, tau); }},
      {"info_nce", [&](const torch::Tensor& z) { return info_nce_loss(z, v.partner, tau); }},
      {"spread_sup", [&](const torch::Tensor& z) { return spread_sup_loss(z, v.labels, tau); }},
      {"spread_cnce", [&](const torch::Tensor& z) { return spread_cnce_loss(z, v.labels, v.partner, tau); }},
      {"spread_cnce_excl", [&](const torch::Tensor& z) { return spread_cnce_loss(z, v.labels, v.partner, tau, false); }},
      {"spread", [&](const torch::Tensor& z) { return spread_loss(z, v.labels, v.partner, tau, 0.6); }}};
  for (const auto& [name, f] : losses) {
    INFO(name);
    CHECK(gradient_error(f, v.z) < 1e-7);
  }
}

TEST_CASE("Identities between the losses", "[train][losses]") {
  // With every sample its own class, SupCon's positives are just the other view: L_out = L_in = InfoNCE.
  const Views v = views({0, 1, 2, 3, 4}, 5, 11);
  const double info = info_nce_loss(v.z, v.partner, 0.3).item<double>();
  CHECK(supcon_out_loss(v.z, v.labels, 0.3).item<double>() == Approx(info).epsilon(1e-13));
  CHECK(supcon_in_loss(v.z, v.labels, 0.3).item<double>() == Approx(info).epsilon(1e-13));
  // ...and cNCE's denominator holds only the partner: the loss is 0.
  CHECK(spread_cnce_loss(v.z, v.labels, v.partner, 0.3).item<double>() == Approx(0.0).margin(1e-14));
  // Jensen: L_in <= L_out.
  const Views w = views({0, 1, 0, 1, 0}, 3, 5);
  CHECK(supcon_in_loss(w.z, w.labels, 0.5).item<double>() <= supcon_out_loss(w.z, w.labels, 0.5).item<double>());
  // Stable at a small temperature, float32 included.
  const auto small = spread_loss(w.z.to(torch::kFloat), w.labels, w.partner, 0.01, 0.5);
  CHECK(std::isfinite(small.item<double>()));
}

TEST_CASE("The losses reject bad batches by name", "[train][losses][errors]") {
  const Views v = views({0, 1, 0}, 3, 1);
  CHECK_THROWS_WITH(spread_sup_loss(v.z, v.labels, 0.0), Catch::Contains("tau must be a finite number > 0"));
  CHECK_THROWS_WITH(spread_sup_loss(v.z, v.labels.slice(0, 0, 3), 0.5), Catch::Contains("labels must hold one label per row"));
  CHECK_THROWS_WITH(info_nce_loss(v.z, torch::arange(6, torch::kLong), 0.5), Catch::Contains("own partner"));
  auto wrong = v.partner.clone();
  wrong[0] = 1;  // sample 0 (label 0) paired with a label-1 row
  CHECK_THROWS_WITH(spread_cnce_loss(v.z, v.labels, wrong, 0.5), Catch::Contains("partner must have the label of its row"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner, 0.5, 1.5), Catch::Contains("alpha must be in [0, 1]"));
  const auto one = torch::randn({2, 3}, torch::kDouble);
  CHECK_THROWS_WITH(supcon_out_loss(one, torch::tensor({0, 1}, torch::kLong), 0.5), Catch::Contains("no anchor with a positive"));
}
