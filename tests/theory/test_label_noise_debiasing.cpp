// Seed 000's noise-aware losses (theory/label_noise_debiasing.hpp): Lemmas A3 and A4 and
// Proposition A1 checked by enumerating the noise model exactly. Every noisy label is correct
// with probability p, independently; a drawn point is truly positive when its correctness and the
// anchor's agree (a noisy positive) or differ (a noisy negative, binary labels); its similarity to
// the anchor is drawn uniformly from {a1, a2} when truly positive and from {b1, b2} when truly
// negative. The expectations are sums over every outcome, no sampling.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/theory/label_noise_debiasing.hpp"

using namespace geomsim;

namespace {

const double kPositive[2] = {1.3, 0.4}, kNegative[2] = {-0.2, 0.7};

// The k-th value of a true positive's or a true negative's law. (Written as two indexings: GCC 12.2
// with -fsanitize=undefined at -O2 reads (c ? kPositive : kNegative)[k] from the wrong array.)
double similarity(bool truly_positive, unsigned long k) { return truly_positive ? kPositive[k] : kNegative[k]; }

// E over the anchor's correctness, each of `points` draws' correctness and similarity, of f(s),
// where noisy[t] says whether draw t is a noisy positive, and s[t] its similarity.
double expect(double p, const std::vector<bool>& noisy_positive, const std::function<double(const std::vector<double>&)>& f) {
  const std::size_t n = noisy_positive.size();
  double total = 0.0;
  for (int anchor = 0; anchor < 2; ++anchor) {
    const double pa = anchor ? p : 1 - p;
    for (unsigned long correct = 0; correct < (1ul << n); ++correct) {
      double pc = pa;
      std::vector<bool> truly_positive(n);
      for (std::size_t t = 0; t < n; ++t) {
        const bool c = (correct >> t) & 1ul;
        pc *= c ? p : 1 - p;
        truly_positive[t] = noisy_positive[t] ? (c == static_cast<bool>(anchor)) : (c != static_cast<bool>(anchor));
      }
      for (unsigned long pick = 0; pick < (1ul << n); ++pick) {
        std::vector<double> s(n);
        for (std::size_t t = 0; t < n; ++t) s[t] = similarity(truly_positive[t], (pick >> t) & 1ul);
        total += pc * f(s) / static_cast<double>(1ul << n);
      }
    }
  }
  return total;
}

// E of f over clean draws: `positives` true positives then `negatives` true negatives.
double expect_clean(int positives, int negatives, const std::function<double(const std::vector<double>&)>& f) {
  const int n = positives + negatives;
  double total = 0.0;
  for (unsigned long pick = 0; pick < (1ul << n); ++pick) {
    std::vector<double> s(static_cast<std::size_t>(n));
    for (int t = 0; t < n; ++t) s[static_cast<std::size_t>(t)] = similarity(t < positives, (pick >> t) & 1ul);
    total += f(s) / static_cast<double>(1ul << n);
  }
  return total;
}

double log_sum_exp(std::initializer_list<double> values) {
  double sum = 0.0;
  for (double v : values) sum += std::exp(v);
  return std::log(sum);
}

}  // namespace

TEST_CASE("Lemma A3: the noisy triplet loss is the clean one and three swapped terms", "[theory][noise]") {
  for (const double p : {0.9, 0.7, 0.3}) {
    CAPTURE(p);
    const auto mix = noisy_triplet_mixture(p);
    // Draws: a noisy positive (s[0]) and a noisy negative (s[1]).
    const double noisy = expect(p, {true, false}, [](const std::vector<double>& s) { return -s[0] + log_sum_exp({s[0], s[1]}); });
    const double clean = expect_clean(1, 1, [](const std::vector<double>& s) { return -s[0] + log_sum_exp({s[0], s[1]}); });
    const double two_positives = expect_clean(2, 0, [](const std::vector<double>& s) { return -s[0] + log_sum_exp({s[0], s[1]}); });
    const double two_negatives = expect_clean(0, 2, [](const std::vector<double>& s) { return -s[0] + log_sum_exp({s[0], s[1]}); });
    const double reversed = expect_clean(1, 1, [](const std::vector<double>& s) { return -s[1] + log_sum_exp({s[0], s[1]}); });
    CHECK(noisy == Approx(mix.clean * clean + mix.swapped * (two_positives + two_negatives + reversed)).epsilon(1e-13));
    CHECK(mix.clean + 3 * mix.swapped == Approx(1.0).epsilon(1e-15));
  }
}

TEST_CASE("Lemma A4: the noise-aware triplet loss is the clean triplet loss in expectation", "[theory][noise]") {
  const double clean = expect_clean(1, 1, [](const std::vector<double>& s) { return -s[0] + log_sum_exp({s[0], s[1]}); });
  for (const double p : {1.0, 0.95, 0.8, 0.6, 0.4, 0.1}) {
    CAPTURE(p);
    const auto w = noise_aware_triplet_weights(p);
    // Draws: two noisy positives (s[0], s[1]) and two noisy negatives (s[2], s[3]).
    const double debiased = expect(p, {true, true, false, false}, [&](const std::vector<double>& s) {
      return -w.positive * s[0] + w.negative * s[2] + w.mixed * log_sum_exp({s[0], s[2]}) -
             w.paired * (log_sum_exp({s[0], s[1]}) + log_sum_exp({s[2], s[3]}));
    });
    CHECK(debiased == Approx(clean).epsilon(1e-12));
  }
  // At p = 1 nothing is noisy: the weights are the triplet loss's own.
  const auto exact = noise_aware_triplet_weights(1.0);
  CHECK(exact.positive == 1.0);
  CHECK(exact.negative == 0.0);
  CHECK(exact.mixed == 1.0);
  CHECK(exact.paired == 0.0);
}

TEST_CASE("Proposition A1: Q as printed is the law of the two binomials, and m = 2 is Lemma A4", "[theory][noise]") {
  for (const double p : {0.9, 0.65, 0.2}) {
    for (int m = 2; m <= 6; ++m) {
      for (int j = 0; j <= m; ++j) {
        double column = 0.0;
        for (int i = 0; i <= m; ++i) {
          CAPTURE(p, m, i, j);
          CHECK(noisy_denominator_probability_as_printed(p, m, i, j) ==
                Approx(noisy_denominator_probability(p, m, i, j)).epsilon(1e-13).margin(1e-16));
          column += noisy_denominator_probability(p, m, i, j);
        }
        CHECK(column == Approx(1.0).epsilon(1e-14));
      }
    }
    const auto w = noise_aware_attract_weights(p, 2);
    const auto t = noise_aware_triplet_weights(p);
    CHECK(w[0] == Approx(-t.paired).epsilon(1e-12));
    CHECK(w[1] == Approx(t.mixed).epsilon(1e-12));
    CHECK(w[2] == Approx(-t.paired).epsilon(1e-12));
  }
}

TEST_CASE("Proposition A1: the noise-aware L_attract is L_attract in expectation", "[theory][noise]") {
  for (const int m : {2, 3, 4}) {
    // L_attract: one true positive and m - 1 true negatives in the denominator.
    const double clean = expect_clean(1, m - 1, [&](const std::vector<double>& s) {
      double sum = 0.0;
      for (double v : s) sum += std::exp(v);
      return -s[0] + std::log(sum);
    });
    for (const double p : {0.9, 0.75, 0.3}) {
      CAPTURE(m, p);
      const auto w = noise_aware_attract_weights(p, m);
      const auto t = noise_aware_triplet_weights(p);
      std::vector<bool> kinds(static_cast<std::size_t>(2 * m));
      for (int i = 0; i < m; ++i) kinds[static_cast<std::size_t>(i)] = true;  // m noisy positives, then m noisy negatives
      const double debiased = expect(p, kinds, [&](const std::vector<double>& s) {
        double value = -t.positive * s[0] + t.negative * s[static_cast<std::size_t>(m)];
        for (int k = 0; k <= m; ++k) {
          double sum = 0.0;
          for (int i = 0; i < k; ++i) sum += std::exp(s[static_cast<std::size_t>(i)]);
          for (int j = 0; j < m - k; ++j) sum += std::exp(s[static_cast<std::size_t>(m + j)]);
          value += w[static_cast<std::size_t>(k)] * std::log(sum);
        }
        return value;
      });
      CHECK(debiased == Approx(clean).epsilon(1e-10));
    }
  }
}

TEST_CASE("The noise-aware weights refuse a label accuracy of 1/2 or outside [0, 1], and m outside its range", "[theory][noise]") {
  CHECK_THROWS_AS(noise_aware_triplet_weights(0.5), InvalidArgument);
  CHECK_THROWS_AS(noise_aware_triplet_weights(1.2), InvalidArgument);
  CHECK_THROWS_AS(noise_aware_triplet_weights(std::nan("")), InvalidArgument);
  CHECK_THROWS_AS(noise_aware_attract_weights(0.8, 1), InvalidArgument);
  CHECK_THROWS_AS(noise_aware_attract_weights(0.8, kMaxDebiasedDenominator + 1), InvalidArgument);
  CHECK_THROWS_AS(noise_aware_attract_weights(0.5, 3), InvalidArgument);
  CHECK_THROWS_AS(noisy_triplet_mixture(-0.1), InvalidArgument);
}
