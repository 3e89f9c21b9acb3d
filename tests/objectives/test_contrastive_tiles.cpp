// The streaming engine of the contrastive losses (contrastive_tiles.hpp) without torch: its row
// statistics and gradient against direct loops over their definitions, on batches that span
// several 256-row blocks, at the CPU level this run chose (and under the sanitizers in CI's
// sanitizer build, which has no torch).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "geomsim/objectives/contrastive_tiles.hpp"
#include "helpers.hpp"

using namespace geomsim;

namespace {

// A batch in class order: classes of random sizes, unit rows, a partner in each row's class when
// it has another row (else -1), a random half of the rows anchors.
struct Batch {
  Index n = 0, dim = 0;
  std::vector<double> z;
  std::vector<std::int64_t> first, last, partner;
  std::unique_ptr<bool[]> anchor;

  template <class T>
  ContrastiveRows<T> rows(const std::vector<T>& values, double tau, bool anchors) const {
    ContrastiveRows<T> r;
    r.z = values.data();
    r.n = n;
    r.dim = dim;
    r.inv_tau = 1.0 / tau;
    r.class_first = first.data();
    r.class_last = last.data();
    r.partner = partner.data();
    r.anchor = anchors ? anchor.get() : nullptr;
    return r;
  }
};

Batch batch(Index n, Index dim, unsigned seed) {
  std::mt19937_64 random(seed);
  Batch b;
  b.n = n;
  b.dim = dim;
  std::normal_distribution<double> normal;
  b.z.resize(static_cast<std::size_t>(n * dim));
  for (Index i = 0; i < n; ++i) {
    double norm = 0;
    for (Index k = 0; k < dim; ++k) norm += std::pow(b.z[static_cast<std::size_t>(i * dim + k)] = normal(random), 2);
    for (Index k = 0; k < dim; ++k) b.z[static_cast<std::size_t>(i * dim + k)] /= std::sqrt(norm);
  }
  std::uniform_int_distribution<Index> size(1, 90);
  for (Index begin = 0; begin < n;) {
    const Index end = std::min(n, begin + size(random));
    for (Index i = begin; i < end; ++i) {
      b.first.push_back(begin);
      b.last.push_back(end);
      b.partner.push_back(end - begin > 1 ? (i + 1 < end ? i + 1 : begin) : -1);
    }
    begin = end;
  }
  b.anchor = std::make_unique<bool[]>(static_cast<std::size_t>(std::clamp<Index>(n, 0, Index{1} << 20)));
  std::bernoulli_distribution half(0.5);
  for (Index i = 0; i < n; ++i) b.anchor[static_cast<std::size_t>(i)] = half(random);
  return b;
}

double similarity(const Batch& b, Index i, Index j, double tau) {
  double s = 0;
  for (Index k = 0; k < b.dim; ++k) s += b.z[static_cast<std::size_t>(i * b.dim + k)] * b.z[static_cast<std::size_t>(j * b.dim + k)];
  return s / tau;
}

enum class Set { negatives, positives, denominator };
bool in(const Batch& b, Set set, Index i, Index j) {
  const auto k = static_cast<std::size_t>(i);
  const bool same = j >= b.first[k] && j < b.last[k];
  if (set == Set::negatives) return !same;
  return same && j != i && (set == Set::positives || j != b.partner[k]);
}

double lse(const Batch& b, Set set, Index i, double tau) {
  double top = -INFINITY, sum = 0;
  for (Index j = 0; j < b.n; ++j) {
    if (in(b, set, i, j)) top = std::max(top, similarity(b, i, j, tau));
  }
  if (top == -INFINITY) return top;
  for (Index j = 0; j < b.n; ++j) {
    if (in(b, set, i, j)) sum += std::exp(similarity(b, i, j, tau) - top);
  }
  return top + std::log(sum);
}

double sigmoid(double t) { return 1.0 / (1.0 + std::exp(-t)); }

}  // namespace

TEST_CASE("The contrastive tiles' statistics are their definitions", "[objectives][contrastive]") {
  const Index n = GENERATE(Index{7}, Index{300}, Index{600});
  const double tau = GENERATE(0.1, 1.0);
  CAPTURE(n, tau);
  const Batch b = batch(n, 5, static_cast<unsigned>(n));
  std::vector<double> statistics(static_cast<std::size_t>(n * kRowStatistics));
  contrastive_statistics(b.rows(b.z, tau, false), true, statistics.data());
  for (Index i = 0; i < n; ++i) {
    const double* row = statistics.data() + i * kRowStatistics;
    CAPTURE(i);
    CHECK(row[kLseNegatives] == Approx(lse(b, Set::negatives, i, tau)).epsilon(1e-13));
    CHECK(row[kLsePositives] == Approx(lse(b, Set::positives, i, tau)).epsilon(1e-13));
    CHECK(row[kLseDenominator] == Approx(lse(b, Set::denominator, i, tau)).epsilon(1e-13));
    double sum = 0, softplus = 0, sigmoids = 0, partner = 0, positives = 0;
    const double nu = lse(b, Set::negatives, i, tau);
    for (Index j = 0; j < n; ++j) {
      if (!in(b, Set::positives, i, j)) continue;
      const double s = similarity(b, i, j, tau);
      sum += s;
      positives += 1;
      if (std::isfinite(nu)) {
        softplus += std::log1p(std::exp(nu - s));
        sigmoids += sigmoid(nu - s);
      }
      if (j == b.partner[static_cast<std::size_t>(i)]) partner = s;
    }
    CHECK(row[kSumPositives] == Approx(sum).margin(1e-12));
    CHECK(row[kPartnerSimilarity] == Approx(partner).margin(1e-12));
    CHECK(row[kSoftplusSum] == Approx(softplus).epsilon(1e-12).margin(1e-12));
    CHECK(row[kSigmoidSum] == Approx(sigmoids).epsilon(1e-12).margin(1e-12));
    CHECK(row[kPositives] == positives);
  }
}

TEST_CASE("The contrastive tiles' gradient is sum_j (C_ij + C_ji) z_j of its weights", "[objectives][contrastive]") {
  const Index n = GENERATE(Index{7}, Index{600});
  const bool anchors = GENERATE(false, true);
  CAPTURE(n, anchors);
  const double tau = 0.5;
  const Batch b = batch(n, 4, static_cast<unsigned>(n) + 1);
  std::vector<double> statistics(static_cast<std::size_t>(n * kRowStatistics));
  contrastive_statistics(b.rows(b.z, tau, anchors), true, statistics.data());
  // Random weights on the anchors, none on the other rows.
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-1, 1);
  std::vector<double> weights(static_cast<std::size_t>(n * kRowWeights), 0.0);
  for (Index i = 0; i < n; ++i) {
    if (anchors && !b.anchor[static_cast<std::size_t>(i)]) continue;
    for (int k = 0; k < kRowWeights; ++k) weights[static_cast<std::size_t>(i * kRowWeights + k)] = uniform(random);
  }
  std::vector<double> gradient(static_cast<std::size_t>(n * b.dim), 0.0);
  contrastive_gradient(b.rows(b.z, tau, anchors), statistics.data(), weights.data(), gradient.data());
  // C_ij from its definition (contrastive_tiles.hpp).
  const auto coefficient = [&](Index i, Index j) {
    const double* w = weights.data() + i * kRowWeights;
    const double* row = statistics.data() + i * kRowStatistics;
    const double s = similarity(b, i, j, tau);
    double c = 0;
    if (in(b, Set::negatives, i, j)) c += w[kWeightNegatives] * std::exp(s - row[kLseNegatives]);
    if (in(b, Set::positives, i, j)) {
      c += w[kWeightPositives] * std::exp(s - row[kLsePositives]) + w[kWeightConstant];
      if (std::isfinite(row[kLseNegatives])) c += w[kWeightSigmoid] * sigmoid(row[kLseNegatives] - s);
    }
    if (in(b, Set::denominator, i, j)) c += w[kWeightDenominator] * std::exp(s - row[kLseDenominator]);
    if (j == b.partner[static_cast<std::size_t>(i)]) c += w[kWeightPartner];
    return c;
  };
  double largest = 0, error = 0;
  for (Index i = 0; i < n; ++i) {
    for (Index k = 0; k < b.dim; ++k) {
      double expected = 0;
      for (Index j = 0; j < n; ++j) {
        if (j != i) expected += (coefficient(i, j) + coefficient(j, i)) * b.z[static_cast<std::size_t>(j * b.dim + k)];
      }
      largest = std::max(largest, std::abs(expected));
      error = std::max(error, std::abs(expected - gradient[static_cast<std::size_t>(i * b.dim + k)]));
    }
  }
  CHECK(error <= 1e-12 * std::max(1.0, largest));
}

TEST_CASE("The contrastive tiles give the same bits on any number of threads", "[objectives][contrastive][determinism]") {
  const Batch b = batch(1000, 8, 11);
  std::vector<float> z(b.z.begin(), b.z.end());
  const auto run = [&](int threads) {
    return testing::with_threads(threads, [&] {
      std::vector<double> statistics(static_cast<std::size_t>(b.n * kRowStatistics));
      contrastive_statistics(b.rows(z, 0.2, false), true, statistics.data());
      std::vector<double> weights(static_cast<std::size_t>(b.n * kRowWeights), 0.25);
      std::vector<float> gradient(static_cast<std::size_t>(b.n * b.dim), 0.0f);
      contrastive_gradient(b.rows(z, 0.2, false), statistics.data(), weights.data(), gradient.data());
      return std::make_pair(statistics, gradient);
    });
  };
  const auto one = run(1), two = run(2);
  CHECK(one.first == two.first);
  CHECK(one.second == two.second);
}
