// Seed 000's noisy labels: the symmetric noise (data/label_noise.hpp), the noise-aware L_attract
// against a loop over its formula and central differences, its draws, and the geometric label
// correction on batches whose right answer is known (losses/label_noise_losses.hpp).
#include "train/catch_with_torch.hpp"
#include "train/gradient_error.hpp"

#include <cmath>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/theory/label_noise_debiasing.hpp"
#include "geomsim/train/data/label_noise.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/label_noise_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "train/losses/loss_inputs.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
using geomsim::train::testing::unit_rows;
// Proposition A1's per-anchor value by a loop, on given draws.
double loop_noise_aware(const torch::Tensor& z, const torch::Tensor& pos, const torch::Tensor& neg, double p, double tau) {
  const int64_t n = z.size(0), m = pos.size(1);
  const auto w = noise_aware_attract_weights(p, static_cast<int>(m));
  const auto t = noise_aware_triplet_weights(p);
  const auto s = [&](int64_t i, int64_t j) { return (z[i] * z[j]).sum().item<double>() / tau; };
  double total = 0.0;
  int anchors = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (pos[i][0].item<int64_t>() < 0 || neg[i][0].item<int64_t>() < 0) continue;
    double value = -t.positive * s(i, pos[i][0].item<int64_t>()) + t.negative * s(i, neg[i][0].item<int64_t>());
    for (int64_t k = 0; k <= m; ++k) {
      double sum = 0.0;
      for (int64_t a = 0; a < k; ++a) sum += std::exp(s(i, pos[i][a].item<int64_t>()));
      for (int64_t b = 0; b < m - k; ++b) sum += std::exp(s(i, neg[i][b].item<int64_t>()));
      value += w[static_cast<std::size_t>(k)] * std::log(sum);
    }
    total += value;
    ++anchors;
  }
  return total / anchors;
}
}  // namespace

TEST_CASE("Symmetric label noise replaces labels by other ones at the given rate, deterministically", "[train][noise]") {
  const auto labels = torch::arange(20000, torch::kLong).remainder(10);
  CHECK(torch::equal(symmetric_label_noise(labels, 10, 0.0, 3), labels));
  const auto all = symmetric_label_noise(labels, 10, 1.0, 3);
  CHECK(all.ne(labels).all().item<bool>());  // never to the same label
  CHECK(all.ge(0).all().item<bool>());
  CHECK(all.lt(10).all().item<bool>());
  const auto some = symmetric_label_noise(labels, 10, 0.3, 3);
  const double changed = some.ne(labels).to(torch::kDouble).mean().item<double>();
  CHECK(std::abs(changed - 0.3) < 4 * std::sqrt(0.3 * 0.7 / 20000));
  // Each other label about equally often: 1/9 of the replaced ones, within 5 binomial sds.
  const auto replaced = some.masked_select(some.ne(labels));
  const auto moved = (replaced - labels.masked_select(some.ne(labels))).remainder(10);
  for (int64_t shift = 1; shift < 10; ++shift) {
    const double share = moved.eq(shift).to(torch::kDouble).mean().item<double>();
    CHECK(std::abs(share - 1.0 / 9) < 5 * std::sqrt((1.0 / 9) * (8.0 / 9) / static_cast<double>(replaced.numel())));
  }
  CHECK(torch::equal(symmetric_label_noise(labels, 10, 0.3, 3), some));
  CHECK_FALSE(torch::equal(symmetric_label_noise(labels, 10, 0.3, 4), some));
  // Two classes: a flip.
  const auto two = torch::arange(100, torch::kLong).remainder(2);
  CHECK(torch::equal(symmetric_label_noise(two, 2, 1.0, 1), 1 - two));
  CHECK_THROWS_AS(symmetric_label_noise(labels, 10, 1.5, 0), InvalidArgument);
  CHECK_THROWS_AS(symmetric_label_noise(labels, 10, std::nan(""), 0), InvalidArgument);
  CHECK_THROWS_AS(symmetric_label_noise(labels, 5, 0.2, 0), InvalidArgument);  // a label of 5..9
}

TEST_CASE("The noise-aware L_attract's draws are other images of the label and rows of other labels", "[train][noise]") {
  const auto sample = torch::tensor(std::vector<int64_t>{0, 1, 0, 0, 1, 2});
  const auto labels = torch::cat({sample, sample});
  const auto partner = two_view_partners(6);
  torch::manual_seed(5);
  const auto [pos, neg] = draw_noisy_pairs(labels, partner, 4);
  REQUIRE(pos.sizes() == torch::IntArrayRef({12, 4}));
  for (int64_t i = 0; i < 12; ++i) {
    for (int64_t t = 0; t < 4; ++t) {
      const int64_t p = pos[i][t].item<int64_t>(), q = neg[i][t].item<int64_t>();
      CAPTURE(i, t, p, q);
      if (i % 6 == 5) {
        CHECK(p == -1);  // label 2 has no other image
      } else {
        CHECK(labels[p].item<int64_t>() == labels[i].item<int64_t>());
        CHECK(p % 6 != i % 6);  // neither itself nor its other view
      }
      CHECK(labels[q].item<int64_t>() != labels[i].item<int64_t>());
    }
  }
  CHECK_THROWS_AS(draw_noisy_pairs(labels, partner, 1), InvalidArgument);
}

TEST_CASE("The noise-aware L_attract is its formula, with the gradient of central differences", "[train][noise][gradient]") {
  const auto sample = torch::tensor(std::vector<int64_t>{0, 1, 0, 1, 1, 0, 2});
  const auto labels = torch::cat({sample, sample});
  const auto partner = two_view_partners(7);
  const auto z = unit_rows(14, 4, 9);
  for (const int64_t m : {2, 3}) {
    torch::manual_seed(static_cast<uint64_t>(m));
    const auto [pos, neg] = draw_noisy_pairs(labels, partner, m);
    for (const double p : {0.9, 0.7, 1.0}) {
      CAPTURE(m, p);
      CHECK(noise_aware_attract_loss(z, pos, neg, p, 0.5).item<double>() == Approx(loop_noise_aware(z, pos, neg, p, 0.5)).epsilon(1e-12));
      CHECK(geomsim::test::gradient_error([&](const torch::Tensor& x) { return noise_aware_attract_loss(x, pos, neg, p, 0.5); }, z) < 1e-7);
    }
  }
  // At p = 1 and m = 2 it is the triplet loss on its first draws.
  torch::manual_seed(2);
  const auto [pos, neg] = draw_noisy_pairs(labels, partner, 2);
  const auto valid = pos.select(1, 0).ge(0).logical_and(neg.select(1, 0).ge(0));
  double triplet = 0.0;
  for (int64_t i = 0; i < 14; ++i) {
    if (!valid[i].item<bool>()) continue;
    const double sp = (z[i] * z[pos[i][0].item<int64_t>()]).sum().item<double>() / 0.5;
    const double sn = (z[i] * z[neg[i][0].item<int64_t>()]).sum().item<double>() / 0.5;
    triplet += std::log1p(std::exp(sn - sp));
  }
  triplet /= valid.sum().item<double>();
  CHECK(noise_aware_attract_loss(z, pos, neg, 1.0, 0.5).item<double>() == Approx(triplet).epsilon(1e-12));
  CHECK_THROWS_AS(noise_aware_attract_loss(z, pos, neg, 0.5, 0.5), InvalidArgument);
}

TEST_CASE("The geometric correction gives a mislabelled image its cluster's label", "[train][noise]") {
  // Three tight clusters of four images each (labels 0, 1, 2), the first image of cluster 1
  // labelled 2: it is the least like its label's other images, and its cluster's centre is 1's.
  const auto centres = torch::eye(3, torch::kDouble);
  std::vector<torch::Tensor> rows;
  std::vector<int64_t> truth;
  torch::manual_seed(1);
  for (int64_t c = 0; c < 3; ++c) {
    for (int k = 0; k < 4; ++k) {
      rows.push_back(centres[c] + 0.05 * torch::randn({3}, torch::kDouble));
      truth.push_back(c);
    }
  }
  const auto views = torch::nn::functional::normalize(torch::stack(rows), torch::nn::functional::NormalizeFuncOptions().dim(1));
  const auto z = torch::cat({views, views});
  auto noisy = torch::tensor(truth);
  noisy[4] = 2;
  // 1/12 of the batch: one image marked.
  const auto fixed = geometric_label_correction(z, noisy, 1.0 / 12 + 1e-9);
  CHECK(torch::equal(fixed, torch::tensor(truth)));
  CHECK(torch::equal(geometric_label_correction(z, noisy, 0.0), noisy));
  CHECK(torch::equal(geometric_label_correction(z, noisy, 0.05), noisy));  // floor(0.05 * 12) = 0 marked
  // Marking more than the wrong ones leaves the right ones right: each takes its own cluster's label.
  CHECK(torch::equal(geometric_label_correction(z, noisy, 0.25), torch::tensor(truth)));
  CHECK_THROWS_AS(geometric_label_correction(z, noisy, 1.0), InvalidArgument);
  CHECK_THROWS_AS(geometric_label_correction(z, noisy, -0.1), InvalidArgument);
}

TEST_CASE("The registry's supcon and spread correct the labels with --noise-correction", "[train][noise][registry]") {
  const auto sample = torch::tensor(std::vector<int64_t>{0, 0, 0, 1, 1, 1});
  const auto z = unit_rows(12, 3, 4);
  LossOptions o;
  o.tau = 0.5;
  const LossBatch batch{z, sample, two_view_partners(6), 2};
  const double plain = batch_loss("supcon", batch, o).item<double>();
  o.noise_correction = 0.4;  // two of six images relabelled
  const auto fixed = geometric_label_correction(z, sample, 0.4);
  const LossBatch by_hand{z, fixed, two_view_partners(6), 2};
  LossOptions none = o;
  none.noise_correction = 0.0;
  CHECK(batch_loss("supcon", batch, o).item<double>() == Approx(batch_loss("supcon", by_hand, none).item<double>()).epsilon(1e-14));
  CHECK(batch_loss("spread", batch, o).item<double>() == Approx(batch_loss("spread", by_hand, none).item<double>()).epsilon(1e-14));
  CHECK(std::isfinite(plain));
  CHECK_THROWS_AS(set_loss_parameter(o, "noise-correction", 1.0), InvalidArgument);
  CHECK_THROWS_AS(set_loss_parameter(o, "label-accuracy", 0.5), InvalidArgument);
  CHECK_THROWS_AS(set_loss_parameter(o, "denominator-size", 2.5), InvalidArgument);
}
