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
  CHECK_THROWS_WITH(spread_sup_loss(v.z, v.labels.slice(0, 0, 3), 0.5), Catch::Contains("labels must hold one value per row of z (6)"));
  CHECK_THROWS_WITH(info_nce_loss(v.z, torch::arange(6, torch::kLong), 0.5), Catch::Contains("own partner"));
  auto wrong = v.partner.clone();
  wrong[0] = 1;  // sample 0 (label 0) paired with a label-1 row
  CHECK_THROWS_WITH(spread_cnce_loss(v.z, v.labels, wrong, 0.5), Catch::Contains("partner must have the label of its row"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner, 0.5, 1.5), Catch::Contains("alpha must be in [0, 1]"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, wrong, 0.5, 0.5), Catch::Contains("partner must have the label of its row"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, torch::arange(6, torch::kLong), 0.5, 0.5), Catch::Contains("own partner"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, torch::full({6}, 6, torch::kLong), 0.5, 0.5),
                    Catch::Contains("partner indices must be in [0, N)"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner.slice(0, 0, 5), 0.5, 0.5),
                    Catch::Contains("partner must hold one value per row of z (6)"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels, v.partner, -1.0, 0.5), Catch::Contains("tau must be a finite number > 0"));
  CHECK_THROWS_WITH(spread_loss(v.z, v.labels.slice(0, 0, 3), v.partner, 0.5, 0.5),
                    Catch::Contains("labels must hold one value per row of z (6)"));
  auto unpaired = v.partner.clone();
  unpaired[0] = 2;  // row 0's partner is row 2, whose partner is row 5
  CHECK_THROWS_WITH(info_nce_loss(v.z, unpaired, 0.5), Catch::Contains("partner must pair the rows"));
}

TEST_CASE("The streamed losses refuse a second derivative", "[train][losses]") {
  const Views v = views({0, 1, 0}, 3, 1);
  auto z = v.z.clone().requires_grad_(true);
  const auto loss = spread_loss(z, v.labels, v.partner, 0.5, 0.5);
  CHECK_THROWS_WITH(torch::autograd::grad({loss}, {z}, {}, /*retain_graph=*/true, /*create_graph=*/true),
                    Catch::Contains("first derivatives only"));
}
