// Seed 000's closed forms: Lemma A1's collapse losses against a direct computation of the
// cross-entropy, and Appendix C.2's appearance probabilities against Monte Carlo.
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/collapsed_transfer.hpp"
#include "geomsim/theory/strata_subsampling.hpp"

using namespace geomsim;

TEST_CASE("Lemma A1: the collapsed encoder's transfer loss, computed directly", "[seed000]") {
  const int K = GENERATE(2, 3, 5);
  const int m = GENERATE(1, 2, 4);
  const double q = GENERATE(0.0, 0.3, 1.0);
  const Matrix v = regular_simplex(K, K);
  const int C = m * K;
  // W_z = v_{S(z)}, strata z = 0..C-1 with S(z) = z / m.
  Matrix W(K, C);
  for (int z = 0; z < C; ++z) W.col(z) = v.col(z / m);
  // Cross-entropy of stratum z when the encoder outputs v_h: -log softmax(W^T v_h)_z.
  const auto cross_entropy = [&](int z, int h) {
    const Vector scores = W.transpose() * v.col(h);
    return -(scores(z) - std::log(scores.array().exp().sum()));
  };
  // Expected over h: the true class with probability q, otherwise (any) other class.
  double direct = 0.0;
  for (int z = 0; z < C; ++z) {
    const int y = z / m, other = (y + 1) % K;
    direct += (q * cross_entropy(z, y) + (1 - q) * cross_entropy(z, other)) / C;
  }
  const CollapsedTransferLoss loss = collapsed_transfer_loss(K, m, q);
  CAPTURE(K, m, q);
  CHECK(loss.value == Approx(direct).epsilon(1e-14));
  CHECK(loss.lower <= loss.value + 1e-15);
  CHECK(loss.value <= loss.upper + 1e-15);
  if (q == 1.0) CHECK(loss.value == Approx(loss.lower).epsilon(1e-15));
  if (q == 0.0) CHECK(loss.value == Approx(loss.upper).epsilon(1e-15));
  if (m == 1) CHECK(collapsed_original_task_loss(K, q).value == loss.value);
}

TEST_CASE("Lemma A1: collapse costs more on the fine task than on the coarse one", "[seed000]") {
  // With m strata per class the collapsed classifier cannot tell them apart: at q = 1 the fine
  // loss exceeds the coarse one by about log m.
  for (int K : {2, 10}) {
    const double coarse = collapsed_original_task_loss(K, 1.0).value;
    for (int m : {2, 5}) CHECK(collapsed_transfer_loss(K, m, 1.0).value > coarse + 0.9 * std::log(m));
  }
  CHECK_THROWS_AS(collapsed_transfer_loss(1, 2, 0.5), InvalidArgument);
  CHECK_THROWS_AS(collapsed_transfer_loss(3, 0, 0.5), InvalidArgument);
  CHECK_THROWS_AS(collapsed_transfer_loss(3, 2, 1.5), InvalidArgument);
}

TEST_CASE("Appendix C.2: the appearance probabilities match Monte Carlo", "[seed000]") {
  struct Case {
    double p, q;
    int n;
  };
  const Case c = GENERATE(Case{0.05, 0.02, 50}, Case{0.3, 0.1, 4}, Case{0.01, 0.01, 100}, Case{0.5, 0.5, 2});
  const StrataAppearance exact = strata_appearance(c.p, c.q, c.n);
  CHECK(exact.both + exact.only_z + exact.only_z_prime + exact.neither == Approx(1.0).epsilon(1e-14));
  Rng rng(7);
  const int trials = 100000;
  double both = 0, only_z = 0, only_z_prime = 0, neither = 0;
  for (int t = 0; t < trials; ++t) {
    bool seen_z = false, seen_z_prime = false;
    for (int i = 0; i < c.n; ++i) {
      const double u = rng.uniform();
      seen_z = seen_z || u < c.p;
      seen_z_prime = seen_z_prime || (u >= c.p && u < c.p + c.q);
    }
    both += seen_z && seen_z_prime;
    only_z += seen_z && !seen_z_prime;
    only_z_prime += !seen_z && seen_z_prime;
    neither += !seen_z && !seen_z_prime;
  }
  // Within 5 standard errors of each frequency.
  const auto agrees = [&](double count, double probability) {
    const double se = std::sqrt(std::max(probability * (1 - probability), 1e-12) / trials);
    return std::abs(count / trials - probability) < 5 * se + 1e-12;
  };
  CAPTURE(c.p, c.q, c.n, exact.both, both / trials, exact.neither, neither / trials);
  CHECK(agrees(both, exact.both));
  CHECK(agrees(only_z, exact.only_z));
  CHECK(agrees(only_z_prime, exact.only_z_prime));
  CHECK(agrees(neither, exact.neither));
}

TEST_CASE("Appendix C.2: the closed forms stay accurate for rare strata and huge samples", "[seed000]") {
  // p = p' = 1e-12, n = 1e6: Pr(only z) = (1-p')^n (1 - (1 - p/(1-p'))^n) ~ n p to first order.
  const StrataAppearance a = strata_appearance(1e-12, 1e-12, 1e6);
  CHECK(a.only_z == Approx(1e-6).epsilon(1e-5));
  CHECK(a.both == Approx(1e-12).epsilon(1e-3));  // ~ (n p)^2; the naive form loses it entirely
  CHECK(a.neither == Approx(std::exp(-2e-6)).epsilon(1e-14));
  // Monotone as the paper states: both grows with t (draws) and with p.
  CHECK(strata_appearance(0.1, 0.1, 20).both > strata_appearance(0.1, 0.1, 10).both);
  CHECK(strata_appearance(0.2, 0.1, 10).both > strata_appearance(0.1, 0.1, 10).both);
  CHECK(strata_appearance(0.1, 0.1, 0).neither == 1.0);
  CHECK_THROWS_WITH(strata_appearance(0.7, 0.6, 10), Catch::Contains("p_z + p_z_prime <= 1"));
  CHECK_THROWS_AS(strata_appearance(0.1, 0.1, -1), InvalidArgument);
}
