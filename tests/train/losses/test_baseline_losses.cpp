// The baseline losses (baseline_losses.hpp) against direct loops and central differences, in
// float64: seed 002's eqs. 3-5, the triplet loss, and seed 004 Table 9's two L_sup variants.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>
#include <functional>
#include <vector>

#include "geomsim/train/losses/baseline_losses.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "train/losses/loss_inputs.hpp"

using namespace geomsim::train;

namespace {
using geomsim::train::testing::unit_rows;

double dot(const torch::Tensor& a, int64_t i, const torch::Tensor& b, int64_t j) {
  double sum = 0;
  for (int64_t k = 0; k < a.size(1); ++k) sum += a[i][k].item<double>() * b[j][k].item<double>();
  return sum;
}

// Central differences of f at x (every entry), against autograd's gradient: max relative error.
double gradient_error(const std::function<torch::Tensor(const torch::Tensor&)>& f, const torch::Tensor& x0) {
  auto x = x0.clone().set_requires_grad(true);
  f(x).backward();
  const auto analytic = x.grad().clone();
  const double h = 1e-6;
  double worst = 0.0, scale = analytic.abs().max().item<double>();
  for (int64_t i = 0; i < x0.size(0); ++i) {
    for (int64_t k = 0; k < x0.size(1); ++k) {
      auto plus = x0.clone(), minus = x0.clone();
      plus[i][k] += h;
      minus[i][k] -= h;
      const double numeric = (f(plus).item<double>() - f(minus).item<double>()) / (2 * h);
      worst = std::max(worst, std::abs(numeric - analytic[i][k].item<double>()) / std::max(scale, 1e-12));
    }
  }
  return worst;
}

}  // namespace

TEST_CASE("WeaklySup-InfoNCE and Fair-InfoNCE (seed 002 eqs. 3-4) equal direct loops", "[train][baseline_losses]") {
  const int64_t b = 7;
  const auto x = unit_rows(b, 4, 1), y = unit_rows(b, 4, 2);
  const auto z = torch::tensor({0, 1, 0, 2, 1, 0, 2}, torch::kLong);
  const double tau = 0.4;
  double weak = 0, fair = 0;
  for (int64_t i = 0; i < b; ++i) {
    double all = 0, same = 0;
    for (int64_t k = 0; k < b; ++k) {
      all += std::exp(dot(x, i, y, k) / tau);
      if (z[k].item<int64_t>() == z[i].item<int64_t>()) same += std::exp(dot(x, i, y, k) / tau);
    }
    double mean_log = 0;
    int count = 0;
    for (int64_t j = 0; j < b; ++j) {
      if (z[j].item<int64_t>() != z[i].item<int64_t>()) continue;
      // e^{s_ij} / (e^{s_ij} + sum_{k != j} e^{s_ik}): every other y is a negative.
      mean_log += std::log(std::exp(dot(x, i, y, j) / tau) / all);
      ++count;
    }
    weak -= mean_log / count / b;
    fair -= std::log(std::exp(dot(x, i, y, i) / tau) / same) / b;
  }
  CHECK(weakly_supervised_info_nce_loss(x, y, z, tau).item<double>() == Approx(weak).epsilon(1e-12));
  CHECK(fair_info_nce_loss(x, y, z, tau).item<double>() == Approx(fair).epsilon(1e-12));
  // Every sample its own z: Fair's only "negative" is none, and the loss is 0; WeaklySup is InfoNCE.
  const auto own = torch::arange(b, torch::kLong);
  CHECK(fair_info_nce_loss(x, y, own, tau).item<double>() == Approx(0.0).margin(1e-14));
  CHECK(gradient_error([&](const torch::Tensor& v) { return weakly_supervised_info_nce_loss(v, y, z, tau); }, x) < 1e-7);
  CHECK(gradient_error([&](const torch::Tensor& v) { return fair_info_nce_loss(x, v, z, tau); }, y) < 1e-7);
  CHECK_THROWS_WITH(fair_info_nce_loss(x, y, z.narrow(0, 0, 3), tau), Catch::Contains("one conditioning value per sample"));
}

TEST_CASE("HardNeg-InfoNCE conditions on k-means clusters of the batch (seed 002 eq. 5)", "[train][baseline_losses]") {
  // Three tight, well separated blobs: the clusters are the blobs.
  std::vector<double> rows;
  const double centres[3][2] = {{1, 0}, {-1, 0}, {0, 1}};
  for (int i = 0; i < 12; ++i) {
    rows.push_back(centres[i % 3][0] + 0.01 * (i % 4));
    rows.push_back(centres[i % 3][1] - 0.01 * (i % 5));
  }
  const auto x = torch::tensor(rows, torch::kDouble).view({12, 2});
  const auto clusters = batch_clusters(x, 3);
  for (int i = 0; i < 12; ++i) {
    for (int j = 0; j < 12; ++j) CHECK((clusters[i].item<int64_t>() == clusters[j].item<int64_t>()) == (i % 3 == j % 3));
  }
  CHECK(batch_clusters(torch::ones({5, 2}, torch::kDouble), 3).eq(0).all().item<bool>());  // one distinct row: one cluster
  const auto y = x + 0.05;
  CHECK(hard_negative_info_nce_loss(x, y, 3, 0.5).item<double>() ==
        Approx(fair_info_nce_loss(x, y, clusters, 0.5).item<double>()).epsilon(1e-14));
}

TEST_CASE("The triplet loss (seed 000 eq. A7) equals a direct computation", "[train][baseline_losses]") {
  const auto z = unit_rows(6, 3, 3);
  const auto labels = torch::tensor({0, 0, 1, 1, 0, 2}, torch::kLong);
  torch::manual_seed(11);
  const auto [positive, negative] = draw_triplets(labels);
  double direct = 0;
  int count = 0;
  for (int64_t i = 0; i < 6; ++i) {
    const int64_t p = positive[i].item<int64_t>(), n = negative[i].item<int64_t>();
    if (labels[i].item<int64_t>() == 2) {
      CHECK(p == -1);  // label 2 has one member: no positive
      continue;
    }
    REQUIRE(p >= 0);
    REQUIRE(n >= 0);
    CHECK(p != i);
    CHECK(labels[p].item<int64_t>() == labels[i].item<int64_t>());
    CHECK(labels[n].item<int64_t>() != labels[i].item<int64_t>());
    const double sp = dot(z, i, z, p) / 0.3, sn = dot(z, i, z, n) / 0.3;
    direct += -std::log(std::exp(sp) / (std::exp(sp) + std::exp(sn)));
    ++count;
  }
  CHECK(triplet_loss(z, positive, negative, 0.3).item<double>() == Approx(direct / count).epsilon(1e-12));
  CHECK(gradient_error([&](const torch::Tensor& v) { return triplet_loss(v, positive, negative, 0.3); }, z) < 1e-7);
  CHECK_THROWS_WITH(triplet_loss(z, torch::full({6}, -1, torch::kLong), negative, 0.3), Catch::Contains("no anchor"));
}

TEST_CASE("Table 9's variants of L_sup: direct loops, and the losses they reduce to", "[train][baseline_losses]") {
  const int64_t n = 8;
  const auto z = unit_rows(n, 3, 4);
  const auto labels = torch::tensor({0, 1, 0, 1, 2, 0, 1, 2}, torch::kLong);
  const double tau = 0.5, clip = 0.3, wp = 0.7, wn = 1.6;
  double clipped = 0, weighted = 0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    double negatives = 0, positives = 0;
    std::vector<int64_t> P;
    for (int64_t a = 0; a < n; ++a) {
      if (a == i) continue;
      const double e = std::exp(dot(z, i, z, a) / tau);
      if (labels[a].item<int64_t>() == labels[i].item<int64_t>()) {
        positives += e;
        P.push_back(a);
      } else {
        negatives += e;
      }
    }
    if (P.empty()) continue;
    ++anchors;
    double c = 0, w = 0;
    for (int64_t p : P) {
      const double s = dot(z, i, z, p) / tau, e = std::exp(s);
      c += std::log(std::exp(std::min(s, clip / tau)) / (e + negatives));
      w += std::log(e / (e + wp * (positives - e) + wn * negatives));
    }
    clipped -= c / static_cast<double>(P.size());
    weighted -= w / static_cast<double>(P.size());
  }
  CHECK(clipped_positives_loss(z, labels, tau, clip).item<double>() == Approx(clipped / anchors).epsilon(1e-12));
  CHECK(weighted_denominator_loss(z, labels, tau, wp, wn).item<double>() == Approx(weighted / anchors).epsilon(1e-12));
  // No clipping (c = 1 >= every cosine) is L_sup; (w_pos, w_neg) = (0, 1) is L_sup and (1, 1) SupCon L_out.
  CHECK(clipped_positives_loss(z, labels, tau, 1.0).item<double>() == Approx(spread_sup_loss(z, labels, tau).item<double>()).epsilon(1e-12));
  CHECK(weighted_denominator_loss(z, labels, tau, 0, 1).item<double>() == Approx(spread_sup_loss(z, labels, tau).item<double>()).epsilon(1e-12));
  CHECK(weighted_denominator_loss(z, labels, tau, 1, 1).item<double>() == Approx(supcon_out_loss(z, labels, tau).item<double>()).epsilon(1e-12));
  CHECK(gradient_error([&](const torch::Tensor& v) { return clipped_positives_loss(v, labels, tau, clip); }, z) < 1e-6);
  CHECK(gradient_error([&](const torch::Tensor& v) { return weighted_denominator_loss(v, labels, tau, wp, wn); }, z) < 1e-7);
  CHECK_THROWS_WITH(clipped_positives_loss(z, labels, tau, 1.5), Catch::Contains("clip-cosine must be in [-1, 1]"));
  CHECK_THROWS_WITH(weighted_denominator_loss(z, torch::arange(n, torch::kLong), tau, wp, wn), Catch::Contains("no anchor with a positive"));
}
