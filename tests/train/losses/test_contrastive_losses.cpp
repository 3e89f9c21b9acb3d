// The batch losses two ways: values against direct loops over the formulas, gradients
// (autograd) against central finite differences, in double precision.
#include "train/catch_with_torch.hpp"
#include "train/gradient_error.hpp"
#include "train/scoped_torch_threads.hpp"
#include <cmath>
#include <algorithm>
#include <functional>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"

using namespace geomsim;
using namespace geomsim::train;
using geomsim::test::gradient_error;

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
      {"spread", [&](const torch::Tensor& z) { return spread_loss(z, v.labels, v.partner, tau, 0.6); }},
      {"spread_excl", [&](const torch::Tensor& z) { return spread_loss(z, v.labels, v.partner, tau, 0.6, false); }},
      {"spread_alpha0", [&](const torch::Tensor& z) { return spread_loss(z, v.labels, v.partner, tau, 0.0); }},
      {"spread_alpha1", [&](const torch::Tensor& z) { return spread_loss(z, v.labels, v.partner, tau, 1.0); }}};
  for (const auto& [name, f] : losses) {
    INFO(name);
    CHECK(gradient_error(f, v.z) < 1e-7);
  }
}

namespace {
// SupContrast's SupConLoss.forward (HobbitLong/SupContrast 66a8fe5, losses.py:44-104, contrast_mode
// 'all', labels given), transcribed line by line: features B x V x d, the views stacked view-major.
torch::Tensor released_supcon(const torch::Tensor& features, const torch::Tensor& labels, double temperature,
                              double base_temperature) {
  const int64_t batch_size = features.size(0), contrast_count = features.size(1);
  auto mask = torch::eq(labels.view({-1, 1}), labels.view({-1, 1}).t()).to(torch::kDouble);
  const auto contrast_feature = torch::cat(features.unbind(1), 0);
  const auto anchor_feature = contrast_feature;
  const int64_t anchor_count = contrast_count;
  const auto anchor_dot_contrast = torch::matmul(anchor_feature, contrast_feature.t()) / temperature;
  const auto logits_max = std::get<0>(anchor_dot_contrast.max(1, true));
  const auto logits = anchor_dot_contrast - logits_max.detach();
  mask = mask.repeat({anchor_count, contrast_count});
  const auto logits_mask = torch::ones_like(mask).scatter(1, torch::arange(batch_size * anchor_count).view({-1, 1}), 0);
  mask = mask * logits_mask;
  const auto exp_logits = torch::exp(logits) * logits_mask;
  const auto log_prob = logits - torch::log(exp_logits.sum(1, true));
  auto mask_pos_pairs = mask.sum(1);
  mask_pos_pairs = torch::where(mask_pos_pairs < 1e-6, torch::ones_like(mask_pos_pairs), mask_pos_pairs);
  const auto mean_log_prob_pos = (mask * log_prob).sum(1) / mask_pos_pairs;
  const auto loss = -(temperature / base_temperature) * mean_log_prob_pos;
  return loss.view({anchor_count, batch_size}).mean();
}
}  // namespace

TEST_CASE("supcon with a base temperature is SupContrast's SupConLoss", "[train][losses]") {
  // geomsim's z is [view 1; view 2], SupContrast's features B x 2 x d: the same rows.
  const auto v = views({0, 1, 0, 2, 1, 0}, 5, 41);
  const int64_t B = 6;
  const auto features = torch::stack({v.z.narrow(0, 0, B), v.z.narrow(0, B, B)}, 1);
  const auto sample_labels = v.labels.narrow(0, 0, B);
  for (const double tau : {0.07, 0.1, 0.5, 2.0}) {
    CAPTURE(tau);
    // base_temperature = tau: no factor, seed 001's L_out.
    CHECK(supcon_out_loss(v.z, v.labels, tau).item<double>() ==
          Approx(released_supcon(features, sample_labels, tau, tau).item<double>()).epsilon(1e-12));
    // SupContrast's default base_temperature = 0.07, and another.
    for (const double base : {0.07, 1.0}) {
      CAPTURE(base);
      const double released = released_supcon(features, sample_labels, tau, base).item<double>();
      CHECK(supcon_out_loss_scaled(v.z, v.labels, tau, base).item<double>() == Approx(released).epsilon(1e-12));
      CHECK(supcon_out_loss_scaled(v.z, v.labels, tau, base).item<double>() ==
            Approx(tau / base * loop_supcon_out(v, tau)).epsilon(1e-12));
    }
  }
  CHECK_THROWS_WITH(supcon_out_loss_scaled(v.z, v.labels, 0.5, 0.0), Catch::StartsWith("base-temperature must be"));
}

namespace {
// Seed 001 Table 3's loss with N positives by a direct loop: an anchor's positives are the rows of
// the images of its label whose rank among the label's images (in batch order) falls in the
// anchor's block of N (rank / N equal); the denominator is every other row (L_out's).
double loop_supcon_positives(const Views& v, int64_t n_positives, double tau) {
  const int64_t n = v.z.size(0), B = n / 2;
  std::vector<int64_t> rank(static_cast<std::size_t>(B));
  for (int64_t s = 0; s < B; ++s) {
    for (int64_t t = 0; t < s; ++t) rank[s] += v.labels[t].item<int64_t>() == v.labels[s].item<int64_t>() ? 1 : 0;
  }
  double total = 0;
  for (int64_t i = 0; i < n; ++i) {
    double denom = 0, sum = 0;
    int P = 0;
    for (int64_t a = 0; a < n; ++a) if (a != i) denom += std::exp(sim(v.z, i, a, tau));
    for (int64_t p = 0; p < n; ++p) {
      if (p == i || v.labels[p].item<int64_t>() != v.labels[i].item<int64_t>()) continue;
      if (rank[p % B] / n_positives != rank[i % B] / n_positives) continue;
      sum += std::log(std::exp(sim(v.z, i, p, tau)) / denom);
      ++P;
    }
    total += -sum / P;  // every anchor has its other view
  }
  return total / static_cast<double>(n);
}
}  // namespace

TEST_CASE("SupCon with N positives: groups of N images of a label, SimCLR at 1 and L_out at the whole label", "[train][losses]") {
  // Labels 0 0 1 0 1 0 0: class 0's ranks 0 1 . 2 . 3 4, class 1's 0 1.
  const auto labels = torch::tensor({0, 0, 1, 0, 1, 0, 0}, torch::kLong);
  const int64_t B = 7;
  CHECK(torch::equal(positive_groups(labels, 1), torch::tensor(std::vector<int64_t>{0, 1, B + 0, 2, B + 1, 3, 4})));
  CHECK(torch::equal(positive_groups(labels, 2), torch::tensor(std::vector<int64_t>{0, 0, B + 0, 1, B + 0, 1, 2})));
  CHECK(torch::equal(positive_groups(labels, 5), torch::tensor(std::vector<int64_t>{0, 0, B, 0, B, 0, 0})));
  const Views v = views({0, 0, 1, 0, 1, 0, 0}, 4, 19);
  const double tau = 0.4;
  const auto grouped = [&](int64_t n) {
    const auto g = positive_groups(v.labels.narrow(0, 0, B), n);
    return torch::cat({g, g});
  };
  for (const int64_t n : {1, 2, 3, 5}) {
    CAPTURE(n);
    CHECK(supcon_out_loss(v.z, grouped(n), tau).item<double>() == Approx(loop_supcon_positives(v, n, tau)).epsilon(1e-12));
    CHECK(gradient_error([&](const torch::Tensor& z) { return supcon_out_loss(z, grouped(n), tau); }, v.z) < 1e-7);
  }
  // One positive is SimCLR's InfoNCE; groups as large as the label are L_out itself.
  CHECK(supcon_out_loss(v.z, grouped(1), tau).item<double>() == Approx(info_nce_loss(v.z, v.partner, tau).item<double>()).epsilon(1e-13));
  CHECK(supcon_out_loss(v.z, grouped(5), tau).item<double>() == Approx(supcon_out_loss(v.z, v.labels, tau).item<double>()).epsilon(1e-13));
  CHECK_THROWS_WITH(positive_groups(labels, 0), Catch::StartsWith("positives must be"));
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
  // L_spread checks the same on its CPU kernel's path.
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, wrong, 0.5, 0.5), Catch::Contains("partner must have the label of its row"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, torch::arange(6, torch::kLong), 0.5, 0.5), Catch::Contains("own partner"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, torch::full({6}, 6, torch::kLong), 0.5, 0.5),
                    Catch::Contains("partner indices must be in [0, N)"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner.slice(0, 0, 5), 0.5, 0.5),
                    Catch::Contains("partner must hold one index per row (6)"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner, -1.0, 0.5), Catch::Contains("tau must be a finite number > 0"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels.slice(0, 0, 3), v.partner, 0.5, 0.5),
                    Catch::Contains("labels must hold one label per row"));
  const auto one = torch::randn({2, 3}, torch::kDouble);
  CHECK_THROWS_WITH(supcon_out_loss(one, torch::tensor({0, 1}, torch::kLong), 0.5), Catch::Contains("no anchor with a positive"));
}

// spread_loss runs as one kernel on the CPU (fused_spread_loss.hpp) and as the composition
// (1 - alpha) spread_sup_loss + alpha spread_cnce_loss elsewhere; the composition is the
// reference here, in value and in its autograd gradient.
namespace {
struct Compared {
  double value_error, gradient_error;  // relative to max(1, |value|), max(1, max |gradient|)
};
Compared against_composition(const torch::Tensor& z0, const torch::Tensor& labels, const torch::Tensor& partner,
                             double tau, double alpha, bool include_partner) {
  auto z = z0.clone().requires_grad_(true);
  const auto fused = spread_loss(z, labels, partner, tau, alpha, include_partner);
  fused.backward();
  const auto fused_gradient = z.grad().clone();
  z.mutable_grad() = torch::Tensor();
  const auto composed = (1.0 - alpha) * spread_sup_loss(z, labels, tau) +
                        alpha * spread_cnce_loss(z, labels, partner, tau, include_partner);
  composed.backward();
  const double value = composed.item<double>(), scale = std::max(1.0, z.grad().abs().max().item<double>());
  return {std::abs(fused.item<double>() - value) / std::max(1.0, std::abs(value)),
          (fused_gradient - z.grad()).abs().max().item<double>() / scale};
}
}  // namespace

TEST_CASE("The CPU kernel of L_spread has the composed loss's value and gradient", "[train][losses]") {
  // Unsorted, unbalanced classes with arbitrary label values (negative, large), singleton-free
  // because every sample has its second view; B = 40 spans several of the kernel's row chunks.
  const int64_t B = GENERATE(5, 40);
  const double tau = GENERATE(0.1, 1.0);
  const double alpha = GENERATE(0.0, 0.35, 1.0);
  const bool include_partner = GENERATE(true, false);
  CAPTURE(B, tau, alpha, include_partner);
  torch::manual_seed(static_cast<uint64_t>(B));
  const auto classes = torch::tensor(std::vector<int64_t>{-3, 7, 1000000007, 7, -3, 7, 2}, torch::kLong);
  const auto sample_labels = classes.index_select(0, torch::randint(0, classes.size(0), {B}, torch::kLong));
  const auto labels = torch::cat({sample_labels, sample_labels});
  const auto z = torch::nn::functional::normalize(torch::randn({2 * B, 6}, torch::kDouble),
                                                  torch::nn::functional::NormalizeFuncOptions().dim(1));
  // Double precision: both sides sum at most 2B terms of size O(1/tau) per entry, so they agree
  // to a few hundred ulps of the largest term.
  const Compared e = against_composition(z, labels, two_view_partners(B), tau, alpha, include_partner);
  CHECK(e.value_error < 1e-12);
  CHECK(e.gradient_error < 1e-12);
  // int32 labels take the kernel too.
  const Compared narrow = against_composition(z, labels.to(torch::kInt), two_view_partners(B), tau, alpha, include_partner);
  CHECK(narrow.value_error < 1e-12);
  CHECK(narrow.gradient_error < 1e-12);
}

TEST_CASE("The CPU kernel of L_spread and its composed form agree in float32", "[train][losses]") {
  // Both sides in float32 (eps = 2^-23 ~ 1.2e-7) on the same batch: the similarities are rounded
  // to eps/tau (|s| <= 1/tau), and each side then sums at most 2B such terms per row and per
  // mean in its own order (the kernel accumulates the means in double, the composition in
  // float). The rounding grows at worst linearly with the terms, so the two agree to
  // 2B eps max(1, 1/tau), relative to max(1, |L|) for the value and to max(1, max |grad|) for
  // the gradient: 9.6e-5 at B = 40, tau = 0.1. float64 is held to 1e-12 above.
  const int64_t B = GENERATE(5, 40);
  const double tau = GENERATE(0.1, 1.0);
  const double alpha = GENERATE(0.0, 0.35, 1.0);
  const bool include_partner = GENERATE(true, false);
  CAPTURE(B, tau, alpha, include_partner);
  torch::manual_seed(static_cast<uint64_t>(B) + 1);
  const auto sample_labels = torch::randint(0, 3, {B}, torch::kLong);
  const auto labels = torch::cat({sample_labels, sample_labels});
  const auto z = torch::nn::functional::normalize(torch::randn({2 * B, 6}), torch::nn::functional::NormalizeFuncOptions().dim(1));
  REQUIRE(z.scalar_type() == torch::kFloat);
  const double tolerance = 2.0 * static_cast<double>(B) * 1.2e-7 * std::max(1.0, 1.0 / tau);
  const Compared e = against_composition(z, labels, two_view_partners(B), tau, alpha, include_partner);
  CHECK(e.value_error < tolerance);
  CHECK(e.gradient_error < tolerance);
}

TEST_CASE("The CPU kernel of L_spread on batches without negatives or other positives", "[train][losses]") {
  SECTION("one class: no negatives, so L_sup and its gradient are 0") {
    const Views v = views({4, 4, 4}, 3, 2);
    CHECK(spread_loss(v.z, v.labels, v.partner, 0.5, 0.0).item<double>() == 0.0);
    const Compared e = against_composition(v.z, v.labels, v.partner, 0.5, 0.4, true);
    CHECK(e.value_error < 1e-13);
    CHECK(e.gradient_error < 1e-13);
  }
  SECTION("classes of one sample (two views): without a(x), their anchors leave L_cNCE") {
    const Views v = views({0, 1, 1, 2}, 3, 4);
    const Compared e = against_composition(v.z, v.labels, v.partner, 0.5, 0.6, false);
    CHECK(e.value_error < 1e-13);
    CHECK(e.gradient_error < 1e-13);
    CHECK(spread_loss(v.z, v.labels, v.partner, 0.5, 0.6, false).item<double>() ==
          Approx(0.4 * loop_sup(v, 0.5) + 0.6 * loop_cnce(v, 0.5, false)).epsilon(1e-12));
    const Views singles = views({0, 1, 2}, 3, 4);  // no class has a positive besides a(x)
    CHECK_THROWS_WITH(spread_loss(singles.z, singles.labels, singles.partner, 0.5, 0.6, false),
                      Catch::Contains("labels give no anchor with a positive for L_cNCE"));
  }
}

TEST_CASE("The CPU kernel of L_spread in float32 at a small temperature", "[train][losses]") {
  // tau = 0.01 puts similarities 200 apart, beyond float's exp range: the kernel works relative
  // to each set's maximum. Float32 rounding of s = z.z / tau (|s| <= 100, eps 6e-8) bounds
  // the agreement with double to about 1e-5 of the largest term.
  const Views v = views({0, 1, 0, 2, 1, 0, 3, 3}, 5, 8);
  for (double tau : {0.01, 0.5}) {
    CAPTURE(tau);
    auto z32 = v.z.to(torch::kFloat).requires_grad_(true);
    auto z64 = v.z.clone().requires_grad_(true);
    const auto f32 = spread_loss(z32, v.labels, v.partner, tau, 0.5);
    const auto f64 = spread_loss(z64, v.labels, v.partner, tau, 0.5);
    f32.backward();
    f64.backward();
    REQUIRE(std::isfinite(f32.item<double>()));
    CHECK(f32.item<double>() == Approx(f64.item<double>()).epsilon(1e-5).margin(1e-5 / tau));
    const double scale = std::max(1.0, z64.grad().abs().max().item<double>());
    CHECK((z32.grad().to(torch::kDouble) - z64.grad()).abs().max().item<double>() < 1e-5 * scale);
  }
}

TEST_CASE("The CPU kernel of L_spread gives the same bits on 1 and 2 threads, with or without autograd", "[train][losses][determinism]") {
  torch::manual_seed(21);
  const int64_t B = 256;
  const auto sample_labels = torch::randint(0, 3, {B}, torch::kLong);
  const auto labels = torch::cat({sample_labels, sample_labels});
  const auto z0 = torch::nn::functional::normalize(torch::randn({2 * B, 16}), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto run = [&](int threads) {
    const train::testing::ScopedTorchThreads scoped(threads);
    auto z = z0.clone().requires_grad_(true);
    const auto loss = spread_loss(z, labels, two_view_partners(B), 0.5, 0.5);
    loss.backward();
    return std::make_pair(loss.item<float>(), z.grad());
  };
  const auto [one_value, one_gradient] = run(1);
  const auto [two_value, two_gradient] = run(2);
  CHECK(one_value == two_value);
  CHECK(torch::equal(one_gradient, two_gradient));
  torch::NoGradGuard no_grad;
  CHECK(spread_loss(z0, labels, two_view_partners(B), 0.5, 0.5).item<float>() == one_value);
}

TEST_CASE("The CPU kernel of L_spread refuses a second derivative", "[train][losses]") {
  const Views v = views({0, 1, 0}, 3, 1);
  auto z = v.z.clone().requires_grad_(true);
  const auto loss = spread_loss(z, v.labels, v.partner, 0.5, 0.5);
  CHECK_THROWS_WITH(torch::autograd::grad({loss}, {z}, {}, /*retain_graph=*/true, /*create_graph=*/true),
                    Catch::Contains("first derivatives only"));
}
