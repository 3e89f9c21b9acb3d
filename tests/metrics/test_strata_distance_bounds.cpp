// Seed 000 §4.3.1, Lemmas 1 and 2: the mean classifier's exact errors against a literal
// long-double loop, the printed bounds against eqs. (4)-(6) written out from delta, Lemma A1's
// closed form for collapsed strata, Jensen's lower bound at lambda = 1, and the smallest lambda.
#include <catch2/catch.hpp>
#include <cmath>
#include <tuple>
#include <vector>

#include "geomsim/metrics/strata_distance_bounds.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/collapsed_transfer.hpp"

using namespace geomsim;

namespace {

// K classes; class y has strata_per_class[y] strata of `count` points each, spread by `noise`
// around a random unit direction per stratum, then normalised (unit embeddings).
struct Stratified {
  Matrix points;
  std::vector<int> labels, strata;
};

Stratified stratified(int d, const std::vector<int>& strata_per_class, int count, double noise, std::uint64_t seed) {
  Rng rng(seed);
  Stratified s;
  int z = 0;
  std::vector<Vector> columns;
  for (std::size_t y = 0; y < strata_per_class.size(); ++y) {
    for (int k = 0; k < strata_per_class[y]; ++k, ++z) {
      Vector centre(d);
      for (int i = 0; i < d; ++i) centre(i) = rng.normal();
      centre.normalize();
      // unequal stratum sizes: p(z) is not uniform
      for (int j = 0; j < count + z % 3; ++j) {
        Vector x(d);
        for (int i = 0; i < d; ++i) x(i) = centre(i) + noise * rng.normal();
        columns.push_back(x.normalized());
        s.labels.push_back(static_cast<int>(y));
        s.strata.push_back(z);
      }
    }
  }
  s.points.resize(d, static_cast<Index>(columns.size()));
  for (std::size_t i = 0; i < columns.size(); ++i) s.points.col(static_cast<Index>(i)) = columns[i];
  return s;
}

// -f^T W_t + log sum_j exp(f^T W_j), averaged over the points, in long double.
long double literal_cross_entropy(const Matrix& F, const Matrix& W, const std::vector<int>& target) {
  long double total = 0;
  for (Index i = 0; i < F.cols(); ++i) {
    long double sum = 0;
    for (Index j = 0; j < W.cols(); ++j) {
      long double dot = 0;
      for (Index k = 0; k < F.rows(); ++k) dot += static_cast<long double>(F(k, i)) * W(k, j);
      sum += std::exp(dot);
    }
    long double own = 0;
    for (Index k = 0; k < F.rows(); ++k) own += static_cast<long double>(F(k, i)) * W(k, target[static_cast<std::size_t>(i)]);
    total += std::log(sum) - own;
  }
  return total / F.cols();
}

}  // namespace

TEST_CASE("The mean classifier's exact errors equal a literal loop", "[strata_bounds]") {
  const auto noise = GENERATE(0.05, 0.5, 3.0);
  const Stratified s = stratified(6, {2, 3, 1}, 7, noise, 11);
  const StrataMeanClassifier m = strata_mean_classifier(s.points, s.labels, s.strata);
  REQUIRE(m.num_strata() == 6);
  REQUIRE(m.num_classes() == 3);
  // means by a loop
  Matrix means = Matrix::Zero(6, 6);
  std::vector<int> count(6, 0);
  for (Index i = 0; i < s.points.cols(); ++i) {
    means.col(s.strata[static_cast<std::size_t>(i)]) += s.points.col(i);
    ++count[static_cast<std::size_t>(s.strata[static_cast<std::size_t>(i)])];
  }
  for (int z = 0; z < 6; ++z) means.col(z) /= count[static_cast<std::size_t>(z)];
  CHECK((m.stratum_means - means).norm() <= 1e-14);
  CHECK(m.stratum_probability.sum() == Approx(1.0).epsilon(1e-15));
  CHECK(m.stratum_class == std::vector<int>{0, 0, 1, 1, 1, 2});
  CHECK(m.distances(0, 3) == Approx((means.col(0) - means.col(3)).norm()).epsilon(1e-14));
  CAPTURE(noise);
  CHECK(m.transfer_loss == Approx(static_cast<double>(literal_cross_entropy(s.points, means, s.strata))).epsilon(1e-13));
  CHECK(m.original_loss ==
        Approx(static_cast<double>(literal_cross_entropy(s.points, m.class_means, s.labels))).epsilon(1e-13));
}

TEST_CASE("The printed bounds are eqs. (4)-(6) written out from delta", "[strata_bounds]") {
  const Stratified s = stratified(5, {3, 2}, 9, 0.4, 3);
  const StrataMeanClassifier m = strata_mean_classifier(s.points, s.labels, s.strata);
  const int C = m.num_strata(), K = m.num_classes();
  const auto& p = m.stratum_probability;
  const auto h = [&](int z, int zp) { return 0.5 * m.distances(z, zp) * m.distances(z, zp) - 1.0; };  // ½δ² − 1
  std::vector<double> p_y(static_cast<std::size_t>(K), 0.0);
  for (int z = 0; z < C; ++z) p_y[static_cast<std::size_t>(m.stratum_class[static_cast<std::size_t>(z)])] += p(z);
  for (const double lambda : {0.0, 0.3, 1.0, 2.5, 40.0}) {
    // eq. (4): E_z log sum_{z'} exp(-lambda (½δ² − 1)) − 1
    long double lemma1 = -1;
    for (int z = 0; z < C; ++z) {
      long double sum = 0;
      for (int zp = 0; zp < C; ++zp) sum += std::exp(-lambda * h(z, zp));
      lemma1 += p(z) * std::log(sum);
    }
    // eqs. (5)-(6): E_z[ E_{z'|S(z)}(½δ² − 1) + log sum_y exp(E_{z'|y} −lambda(½δ² − 1)) ]
    long double lemma2 = 0;
    for (int z = 0; z < C; ++z) {
      long double own = 0, sum = 0;
      for (int y = 0; y < K; ++y) {
        long double inner = 0;
        for (int zp = 0; zp < C; ++zp) {
          if (m.stratum_class[static_cast<std::size_t>(zp)] != y) continue;
          const double w = p(zp) / p_y[static_cast<std::size_t>(y)];
          inner += w * (-lambda * h(z, zp));
          if (y == m.stratum_class[static_cast<std::size_t>(z)]) own += w * h(z, zp);
        }
        sum += std::exp(inner);
      }
      lemma2 += p(z) * (own + std::log(sum));
    }
    CAPTURE(lambda);
    CHECK(strata_distance_bound(m, StrataTask::coarse_to_fine, StrataDistanceForm::printed, lambda) ==
          Approx(static_cast<double>(lemma1)).epsilon(1e-13));
    CHECK(strata_distance_bound(m, StrataTask::original, StrataDistanceForm::printed, lambda) ==
          Approx(static_cast<double>(lemma2)).epsilon(1e-13));
  }
}

TEST_CASE("Collapsed strata: both forms agree, lambda = 1 is exact, and Lemma A1's closed form holds", "[strata_bounds]") {
  const int K = GENERATE(2, 3, 5);
  const int per = GENERATE(1, 2, 3);
  // Every point of class y at the simplex vertex v_y: the strata of a class coincide.
  const Matrix v = regular_simplex(K, K);
  std::vector<int> labels, strata;
  Matrix F(K, K * per * 4);
  for (int y = 0, i = 0; y < K; ++y) {
    for (int k = 0; k < per; ++k) {
      for (int j = 0; j < 4; ++j, ++i) {
        F.col(i) = v.col(y);
        labels.push_back(y);
        strata.push_back(y * per + k);
      }
    }
  }
  const StrataMeanClassifier m = strata_mean_classifier(F, labels, strata);
  CAPTURE(K, per);
  // Lemma A1 at q = 1: log(m e + (C - m) e^{c_K}) - 1, and the original task its m = 1 case.
  CHECK(m.transfer_loss == Approx(collapsed_transfer_loss(K, per, 1.0).value).epsilon(1e-14));
  CHECK(m.original_loss == Approx(collapsed_original_task_loss(K, 1.0).value).epsilon(1e-14));
  for (const auto task : {StrataTask::coarse_to_fine, StrataTask::original}) {
    const double loss = task == StrataTask::coarse_to_fine ? m.transfer_loss : m.original_loss;
    for (const double lambda : {0.5, 1.0, 3.0}) {
      CHECK(strata_distance_bound(m, task, StrataDistanceForm::printed, lambda) ==
            Approx(strata_distance_bound(m, task, StrataDistanceForm::exact, lambda)).epsilon(1e-14));
    }
    CHECK(strata_distance_bound(m, task, StrataDistanceForm::exact, 1.0) == Approx(loss).epsilon(1e-14));
    const auto lambda = smallest_strata_lambda(m, task, StrataDistanceForm::exact);
    REQUIRE(lambda);
    CHECK(*lambda == Approx(1.0).epsilon(1e-10));
  }
}

TEST_CASE("Spread strata: the exact form at lambda = 1 is a lower bound, and the smallest lambda makes it an equality",
          "[strata_bounds]") {
  const auto noise = GENERATE(0.1, 0.6, 2.0);
  const Stratified s = stratified(8, {2, 2, 3, 1}, 12, noise, 29);
  const StrataMeanClassifier m = strata_mean_classifier(s.points, s.labels, s.strata);
  CAPTURE(noise);
  for (const auto task : {StrataTask::coarse_to_fine, StrataTask::original}) {
    const double loss = task == StrataTask::coarse_to_fine ? m.transfer_loss : m.original_loss;
    // Jensen: E_x LSE(f^T W) >= LSE(m_z^T W).
    CHECK(strata_distance_bound(m, task, StrataDistanceForm::exact, 1.0) <= loss + 1e-14);
    for (const auto form : {StrataDistanceForm::exact, StrataDistanceForm::printed}) {
      const auto lambda = smallest_strata_lambda(m, task, form);
      REQUIRE(lambda);
      const auto bound = [&](double l) { return strata_distance_bound(m, task, form, l); };
      if (*lambda > 0.0) {
        CHECK(bound(*lambda) == Approx(loss).epsilon(1e-11));
        CHECK(bound(*lambda * (1.0 - 1e-6)) < loss);
      }
      for (const double factor : {1.0, 1.5, 4.0, 100.0}) CHECK(bound(*lambda * factor) >= loss - 1e-12);
      if (form == StrataDistanceForm::exact) CHECK(*lambda > 1.0);  // spread strata need more than Jensen's 1
    }
  }
}

TEST_CASE("Larger distances between strata lower the printed bound, as Lemma 1 says", "[strata_bounds]") {
  // Two classes of two strata on S^1 at angles ±phi around the class direction: delta between
  // the strata of a class grows with phi.
  const auto bound_at = [](double phi) {
    Matrix F(2, 4);
    F << std::cos(phi), std::cos(-phi), -std::cos(phi), -std::cos(-phi), std::sin(phi), std::sin(-phi), std::sin(phi),
        std::sin(-phi);
    const auto m = strata_mean_classifier(F, {0, 0, 1, 1}, {0, 1, 2, 3});
    return strata_distance_bound(m, StrataTask::coarse_to_fine, StrataDistanceForm::printed, 2.0);
  };
  CHECK(bound_at(0.1) > bound_at(0.4));
  CHECK(bound_at(0.4) > bound_at(0.8));
}

TEST_CASE("Malformed strata input is refused by name", "[strata_bounds][errors]") {
  Matrix F(2, 4);
  F << 1, 0, -1, 0, 0, 1, 0, -1;
  const auto argument_of = [&](const Matrix& points, const std::vector<int>& labels, const std::vector<int>& strata) {
    try {
      strata_mean_classifier(points, labels, strata);
    } catch (const InvalidArgument& e) {
      return e.argument();
    }
    return std::string("accepted");
  };
  CHECK(argument_of(F, {0, 0, 1}, {0, 1, 2, 3}) == "labels");
  CHECK(argument_of(F, {0, 0, 1, 1}, {0, 1, 2}) == "subclass_labels");
  CHECK(argument_of(F, {0, 0, 1, 1}, {0, 1, 1, 2}) == "subclass_labels");  // subclass 1 spans two classes
  CHECK(argument_of(F, {0, 0, 1, 1}, {0, 1, 3, 3}) == "subclass_labels");  // 2 has no points
  CHECK(argument_of(Matrix(2, 0), {}, {}) == "points");
  Matrix bad = F;
  bad(0, 2) = std::nan("");
  CHECK(argument_of(bad, {0, 0, 1, 1}, {0, 1, 2, 3}) == "points");
  bad(0, 2) = 1e200;  // its square overflows the scores
  CHECK(argument_of(bad, {0, 0, 1, 1}, {0, 1, 2, 3}) == "points");
  const auto m = strata_mean_classifier(F, {0, 0, 1, 1}, {0, 1, 2, 3});
  CHECK_THROWS_AS(strata_distance_bound(m, StrataTask::original, StrataDistanceForm::exact, -1.0), InvalidArgument);
  CHECK_THROWS_AS(strata_distance_bound(m, StrataTask::original, StrataDistanceForm::exact, INFINITY), InvalidArgument);
}

TEST_CASE("The mean classifier at its best scale minimises the scaled cross-entropy", "[strata_bounds]") {
  // The same classifier with logits lambda f^T W: its loss at the best lambda is no larger than
  // at lambda = 1 or at nearby lambdas (a literal loop on lambda W), and the best lambda is where
  // the loss stops falling. Noisy strata, so that some points fall nearer another mean and the
  // best scale is finite.
  const auto noise = GENERATE(1.0, 3.0);
  const Stratified s = stratified(6, {2, 3, 1}, 7, noise, 11);
  const StrataMeanClassifier m = strata_mean_classifier(s.points, s.labels, s.strata);
  CAPTURE(noise, m.transfer_best_scale, m.original_best_scale);
  const auto scaled = [&](const Matrix& W, const std::vector<int>& target, double lambda) {
    return static_cast<double>(literal_cross_entropy(s.points, lambda * W, target));
  };
  for (const auto& [W, target, scale, loss, at_one] :
       {std::tuple<Matrix, std::vector<int>, double, double, double>{m.stratum_means, s.strata, m.transfer_best_scale, m.transfer_best_loss,
                                                                      m.transfer_loss},
        {m.class_means, s.labels, m.original_best_scale, m.original_best_loss, m.original_loss}}) {
    REQUIRE(scale > 0.0);
    REQUIRE(scale < kMaxMeanClassifierScale);
    CHECK(loss == Approx(scaled(W, target, scale)).epsilon(1e-12));
    CHECK(loss <= at_one + 1e-14);
    CHECK(loss <= scaled(W, target, 0.99 * scale) + 1e-14);
    CHECK(loss <= scaled(W, target, 1.01 * scale) + 1e-14);
  }
}

TEST_CASE("The mean classifier's best scale is capped where the points are separated", "[strata_bounds]") {
  // Collapsed strata on orthogonal axes: every point is its own stratum's mean, so the loss falls
  // towards 0 as lambda grows and the best scale is the cap.
  Matrix F = Matrix::Identity(4, 4);
  const auto m = strata_mean_classifier(F, {0, 0, 1, 1}, {0, 1, 2, 3});
  CHECK(m.transfer_best_scale == kMaxMeanClassifierScale);
  CHECK(m.transfer_best_loss < 1e-12);
  CHECK(m.transfer_best_loss <= m.transfer_loss);
}
