#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

#include "geomsim/objectives/gradient_check.hpp"
#include "geomsim/manifold/pairwise_kernels.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "helpers.hpp"

using namespace geomsim;

namespace {

// eq. (39)-(40) written as literally as possible: explicit pair loops, distances from
// differences (not the Gram matrix), no log-sum-exp shift, in long double (whose
// exponent range holds exp(-1000)). Shares no code with SpreadLoss. For unbalanced labels
// the normalisers are the class sizes n_y: |P(i)| = n_y, |N(i)| = N - n_y, and class y's
// alignment pairs are weighted 1 / (K n_y^2).
long double reference_loss(const Matrix& U, const std::vector<int>& h, double alpha, double tau) {
  const int N = static_cast<int>(h.size());
  const int K = 1 + *std::max_element(h.begin(), h.end());
  std::vector<long double> n(static_cast<std::size_t>(K), 0);
  for (int y : h) ++n[static_cast<std::size_t>(y)];
  long double first = 0, second = 0, third = 0;
  for (int i = 0; i < N; ++i) {
    const long double ny = n[static_cast<std::size_t>(h[i])];
    long double neg = 0, pos = 0;
    for (int j = 0; j < N; ++j) {
      long double d2 = 0;
      for (Index r = 0; r < U.rows(); ++r) {
        const long double diff = static_cast<long double>(U(r, i)) - U(r, j);
        d2 += diff * diff;
      }
      const long double e = std::exp(-d2 / (2.0L * tau));
      if (h[i] != h[j]) {
        neg += e;
      } else {
        pos += e;
        third += d2 / (2.0L * tau) / (K * ny * ny);
      }
    }
    first += std::log(neg / (N - ny));
    second += std::log(pos / ny);
  }
  return (1 - alpha) * first / N + alpha * second / N + (1 - alpha) * third;
}

}  // namespace

TEST_CASE("The loss equals a literal long-double evaluation of eq. (39)-(40)", "[spread_loss]") {
  const auto [K, ny, d, alpha, tau] = GENERATE(table<int, int, int, double, double>({
      {2, 4, 2, 0.7, 0.5}, {3, 8, 3, 0.64, 0.5}, {4, 3, 5, 0.3, 0.2}, {5, 2, 3, 1.0, 1.0}, {3, 4, 4, 0.0, 2.0}}));
  const auto labels = balanced_labels(K, ny);
  const Matrix U = random_uniform_sphere(d, K * ny, 11);
  const SpreadLoss loss(labels, alpha, tau);
  // Both are sums of O(N^2) well-conditioned terms of size O(1/tau); double rounding
  // leaves ~N * 1e-16 / tau, so 1e-13 relative is a safe bound.
  CHECK(loss.evaluate(U) == Approx(static_cast<double>(reference_loss(U, labels, alpha, tau))).epsilon(1e-13));
  const auto c = loss.components(U);
  CHECK(c.total() == Approx(loss.evaluate(U)).epsilon(1e-15));
}

TEST_CASE("A small temperature neither underflows nor produces NaN", "[spread_loss]") {
  // At tau = 0.002 antipodal classes weigh exp(-4 / 0.004) = exp(-1000), which is 0 in
  // double: evaluated naively, log(0) = -inf. The shifted log-sum-exp stays exact.
  const auto labels = balanced_labels(2, 3);
  const double tau = 0.002;
  Matrix U = collapsed_simplex(labels, 2);
  U.col(1) = Eigen::Vector2d(std::cos(0.05), std::sin(0.05));
  const SpreadLoss loss(labels, 0.7, tau);
  const double value = loss.evaluate(U);
  REQUIRE(std::isfinite(value));
  CHECK(value == Approx(static_cast<double>(reference_loss(U, labels, 0.7, tau))).epsilon(1e-13));
  Matrix G(U.rows(), U.cols());
  loss.evaluate_with_gradient(U, G);
  CHECK(G.allFinite());
}

TEST_CASE("The collapsed simplex has loss -(1-alpha) K / ((K-1) tau)", "[spread_loss][closed_form]") {
  // Classes at simplex vertices: |u - u'|^2 = 2K/(K-1) across classes, 0 within.
  const int K = GENERATE(2, 3, 5);
  const double alpha = GENERATE(0.0, 0.6, 0.9);
  const double tau = GENERATE(0.05, 0.5, 3.0);
  const auto labels = balanced_labels(K, 4);
  const SpreadLoss loss(labels, alpha, tau);
  CHECK(loss.evaluate(collapsed_simplex(labels, K + 1)) ==
        Approx(collapsed_loss(K, alpha, tau)).epsilon(1e-14).margin(1e-14));
}

TEST_CASE("The two-atom family mu_theta has Theorem 2's closed-form loss", "[spread_loss][closed_form]") {
  // With an even n_y split the empirical loss equals the asymptotic one exactly.
  const double theta = GENERATE(0.0, 0.1, 0.2239, 0.7, 1.5);
  const double alpha = GENERATE(0.6, 0.7, 0.8);
  const double tau = GENERATE(0.1, 0.5, 2.0);
  const int d = GENERATE(2, 3);
  const auto set = testing::mu_theta(10, d, theta);
  const SpreadLoss loss(set.labels, alpha, tau);
  CHECK(loss.evaluate(set.points) == Approx(mu_theta_loss(theta, alpha, tau)).epsilon(1e-13).margin(1e-14));
}

TEST_CASE("The gradient agrees with central finite differences", "[spread_loss][gradient]") {
  const auto [K, ny, d, alpha, tau] = GENERATE(table<int, int, int, double, double>({{2, 3, 2, 0.7, 0.5},
                                                                                    {3, 4, 3, 0.64, 0.5},
                                                                                    {4, 3, 5, 0.3, 0.2},
                                                                                    {3, 5, 4, 0.9, 0.05},
                                                                                    {2, 6, 3, 0.8, 0.05},
                                                                                    {5, 2, 3, 0.5, 1.0},
                                                                                    {2, 4, 2, 1.0, 0.1},
                                                                                    {3, 3, 3, 0.0, 0.1}}));
  const auto labels = balanced_labels(K, ny);
  const SpreadLoss loss(labels, alpha, tau);
  const auto seed = GENERATE(1u, 2u);
  Matrix U = random_uniform_sphere(d, K * ny, seed);
  SECTION("on the sphere") {}
  SECTION("off the sphere, as a constrained solver's iterates are") {
    for (Index i = 0; i < U.cols(); ++i) U.col(i) *= 0.8 + 0.4 * static_cast<double>(i) / static_cast<double>(U.cols());
  }
  SECTION("near collapse, where distances are tiny") {
    if (K <= d + 1) U = collapsed_simplex(labels, d) + 1e-3 * U;
  }
  const auto report = check_gradient(loss, U, seed);
  INFO(report.table());
  // The best central difference is accurate to ~eps^(2/3) relative times the size of
  // the third derivative, which grows like 1/tau^3: ~1e-9 at tau = 0.05.
  CHECK(report.relative_error < 1e-7);
}

TEST_CASE("Value and gradient are identical whatever the number of threads", "[spread_loss][determinism]") {
  const auto labels = balanced_labels(4, 80);  // N = 320 takes the parallel path
  const SpreadLoss loss(labels, 0.7, 0.3);
  const Matrix U = random_uniform_sphere(16, 320, 3);
  Matrix g1(16, 320), g2(16, 320);
  const double v1 = testing::with_threads(1, [&] { return loss.evaluate_with_gradient(U, g1); });
  const double v2 = testing::with_threads(2, [&] { return loss.evaluate_with_gradient(U, g2); });
  CHECK(v1 == v2);  // bitwise
  CHECK(g1 == g2);
}

TEST_CASE("Invalid loss parameters are rejected with the argument's name and range", "[spread_loss][errors]") {
  const auto labels = balanced_labels(2, 2);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto argument_of = [&](double alpha, double tau) {
    try {
      SpreadLoss(labels, alpha, tau);
    } catch (const InvalidArgument& e) {
      return e.argument() + ": " + e.requirement();
    }
    return std::string("accepted");
  };
  CHECK(argument_of(1.5, 0.5) == "alpha: must be in [0, 1], got 1.5");
  CHECK(argument_of(-0.1, 0.5) == "alpha: must be in [0, 1], got -0.1");
  CHECK(argument_of(nan, 0.5) == "alpha: must be in [0, 1], got nan");
  CHECK(argument_of(0.5, 0.0) == "tau: must be a finite number > 0, got 0");
  CHECK(argument_of(0.5, -1.0) == "tau: must be a finite number > 0, got -1");
  CHECK(argument_of(0.5, std::numeric_limits<double>::infinity()) == "tau: must be a finite number > 0, got inf");
  CHECK(argument_of(0.5, 0.5) == "accepted");
  const SpreadLoss loss(labels, 0.5, 0.5);
  CHECK_THROWS_AS(loss.evaluate(Matrix::Ones(2, 3)), InvalidArgument);
}

TEST_CASE("Proposition 2: the loss is invariant under class-fixing permutations", "[spread_loss][theory]") {
  // Any permutation that keeps every point in its class leaves L_spread unchanged; moving a
  // point to another class does not.
  const auto labels = balanced_labels(3, 6);
  const SpreadLoss loss(labels, 0.7, 0.5);
  const Matrix U = random_uniform_sphere(4, 18, 11);
  Matrix within = U;
  for (int y = 0; y < 3; ++y) {  // reverse the order inside each class
    for (int i = 0; i < 6; ++i) within.col(6 * y + i) = U.col(6 * y + 5 - i);
  }
  CHECK(loss.evaluate(within) == Approx(loss.evaluate(U)).epsilon(1e-14));
  Matrix across = U;
  across.col(0).swap(across.col(6));
  CHECK(std::abs(loss.evaluate(across) - loss.evaluate(U)) > 1e-6);
}

TEST_CASE("Proposition 1: collapse minimises the different-class term, spreading the same-class term", "[spread_loss][theory]") {
  // The different-class term (1-alpha) E log E exp(-|u-u-|^2/2tau) is smallest when classes sit
  // on the simplex vertices; the same-class term alpha E log E exp(-|u-u+|^2/2tau) is 0 at
  // collapse (its maximum) and negative for any spread.
  const auto labels = balanced_labels(3, 8);
  const SpreadLoss loss(labels, 0.5, 0.5);
  const auto collapsed = loss.components(collapsed_simplex(labels, 3));
  CHECK(collapsed.same_class == Approx(0.0).margin(1e-15));
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const auto random = loss.components(random_uniform_sphere(3, 24, seed));
    CHECK(random.different_class > collapsed.different_class);
    CHECK(random.same_class < 0.0);
  }
}

TEST_CASE("The Hessian-vector product agrees with central differences of the gradient", "[spread_loss][hessian]") {
  struct Case {
    int K, ny, d;
    double alpha, tau;
  };
  // The last case has N = 300 > kBlock, so the tiled kernels run.
  const Case c = GENERATE(Case{2, 5, 2, 0.7, 0.5}, Case{3, 8, 3, 0.64, 0.5}, Case{4, 6, 8, 0.3, 0.1},
                          Case{3, 4, 5, 0.9, 2.0}, Case{3, 100, 5, 0.7, 0.5});
  const std::uint64_t seed = GENERATE(1u, 2u);
  const SpreadLoss loss(balanced_labels(c.K, c.ny), c.alpha, c.tau);
  const int N = c.K * c.ny;
  Matrix U = random_uniform_sphere(c.d, N, seed);
  if (seed == 2) U *= 1.1;  // off the sphere: the objective is defined on all of R^{d x N}
  const Matrix V = random_uniform_sphere(c.d, N, seed + 10);
  const auto H = loss.hessian(U);
  REQUIRE(H != nullptr);
  const Matrix HV = H->apply(V);
  const double h = 1e-5;
  Matrix gp(c.d, N), gm(c.d, N);
  loss.evaluate_with_gradient(U + h * V, gp);
  loss.evaluate_with_gradient(U - h * V, gm);
  const Matrix fd = (gp - gm) / (2 * h);
  CAPTURE(c.K, c.ny, c.d, c.alpha, c.tau, seed);
  CHECK((HV - fd).norm() <= 1e-6 * fd.norm());
  // Symmetric: <W, H V> = <V, H W>.
  const Matrix W = random_uniform_sphere(c.d, N, seed + 20);
  CHECK((W.array() * HV.array()).sum() == Approx((V.array() * H->apply(W).array()).sum()).epsilon(1e-10));
  CHECK_THROWS_AS(H->apply(Matrix::Zero(c.d + 1, N)), InvalidArgument);
}

TEST_CASE("Points need not be sorted by class: value, gradient and Hessian follow a permutation", "[spread_loss]") {
  // SpreadLoss sorts the points by class internally. Unbalanced classes (sizes 90, 60, 150:
  // N = 300 > kBlock, so the tiled and parallel paths run), shuffled.
  std::vector<int> sorted_labels;
  for (const auto& [y, n] : {std::pair{0, 90}, std::pair{1, 60}, std::pair{2, 150}}) {
    sorted_labels.insert(sorted_labels.end(), static_cast<std::size_t>(n), y);
  }
  const Index N = static_cast<Index>(sorted_labels.size()), d = 6;
  std::vector<Index> perm(static_cast<std::size_t>(N));
  for (Index k = 0; k < N; ++k) perm[static_cast<std::size_t>(k)] = k;
  Rng rng(5);
  rng.shuffle(perm);
  std::vector<int> labels(static_cast<std::size_t>(N));
  const Matrix U = random_uniform_sphere(d, N, 6), V = random_uniform_sphere(d, N, 7);
  Matrix U_shuffled(d, N), V_shuffled(d, N);
  for (Index k = 0; k < N; ++k) {
    const Index from = perm[static_cast<std::size_t>(k)];
    labels[static_cast<std::size_t>(k)] = sorted_labels[static_cast<std::size_t>(from)];
    U_shuffled.col(k) = U.col(from);
    V_shuffled.col(k) = V.col(from);
  }
  const SpreadLoss sorted(sorted_labels, 0.7, 0.3), shuffled(labels, 0.7, 0.3);
  Matrix g(d, N), g_shuffled(d, N);
  const double value = sorted.evaluate_with_gradient(U, g);
  CHECK(shuffled.evaluate_with_gradient(U_shuffled, g_shuffled) == Approx(value).epsilon(1e-13));
  CHECK(value == Approx(static_cast<double>(reference_loss(U, sorted_labels, 0.7, 0.3))).epsilon(1e-13));
  const Matrix HV = sorted.hessian(U)->apply(V), HV_shuffled = shuffled.hessian(U_shuffled)->apply(V_shuffled);
  double gradient_error = 0.0, hessian_error = 0.0;  // largest relative error of a column
  for (Index k = 0; k < N; ++k) {
    const Index from = perm[static_cast<std::size_t>(k)];
    gradient_error = std::max(gradient_error, (g_shuffled.col(k) - g.col(from)).norm() / g.col(from).norm());
    hessian_error = std::max(hessian_error, (HV_shuffled.col(k) - HV.col(from)).norm() / HV.col(from).norm());
  }
  CHECK(gradient_error < 1e-12);
  CHECK(hessian_error < 1e-12);
  // And the shuffled gradient against finite differences, independently of the sorted one.
  const auto report = check_gradient(shuffled, U_shuffled, 8);
  INFO(report.table());
  CHECK(report.relative_error < 1e-7);
}

namespace {
// Labels with the given class sizes, shuffled by `seed` (0: left sorted by class).
std::vector<int> labels_of_sizes(const std::vector<int>& sizes, std::uint64_t seed) {
  std::vector<int> labels;
  for (std::size_t y = 0; y < sizes.size(); ++y) labels.insert(labels.end(), static_cast<std::size_t>(sizes[y]), static_cast<int>(y));
  if (seed != 0) {
    Rng rng(seed);
    rng.shuffle(labels);
  }
  return labels;
}
}  // namespace

TEST_CASE("The streamed evaluation equals the stored one and a literal long-double eq. (39)-(40)",
          "[spread_loss][streamed]") {
  struct Case {
    std::vector<int> sizes;
    int d;
    double alpha, tau, scale;  // scale: points at radius `scale` (off the sphere unless 1)
    std::uint64_t shuffle;
  };
  // One tile (N = 24); 2 blocks (N = 300, an even count: a round of diagonal tiles); 3 blocks
  // (N = 700: byes), unbalanced and shuffled; 200 classes of 3, whose boundaries cut tiles
  // (256 = 3 * 85 + 1); a temperature at which the shared shift is not 0 (2 / tau = 667 > 600);
  // temperatures below the shared shift's range (2 / tau > 1300 - log N: a shift per row);
  // points off the sphere; alpha at both ends.
  const Case c = GENERATE(Case{{8, 8, 8}, 3, 0.64, 0.5, 1.0, 0}, Case{{75, 75, 75, 75}, 6, 0.7, 0.3, 1.0, 0},
                          Case{{90, 60, 150, 400}, 5, 0.7, 0.3, 1.0, 3},
                          Case{std::vector<int>(200, 3), 4, 0.8, 0.2, 1.0, 4},
                          Case{{150, 150}, 3, 0.9, 0.003, 1.0, 0}, Case{{150, 150}, 3, 0.9, 0.001, 1.0, 0},
                          Case{{90, 60, 150, 400}, 4, 0.7, 0.0012, 1.0, 8},
                          Case{{100, 250}, 4, 0.6, 0.5, 1.15, 5}, Case{{120, 180}, 3, 0.0, 1.0, 1.0, 6},
                          Case{{120, 180}, 3, 1.0, 0.1, 0.9, 7});
  const auto labels = labels_of_sizes(c.sizes, c.shuffle);
  const Index N = static_cast<Index>(labels.size());
  const SpreadLoss stored(labels, c.alpha, c.tau, PairEvaluation::kStored);
  const SpreadLoss streamed(labels, c.alpha, c.tau, PairEvaluation::kStreamed);
  Matrix U = c.scale * random_uniform_sphere(c.d, N, 21);
  if (c.tau < 0.01) U = 0.05 * U + collapsed_simplex(labels, c.d);  // near collapse, as at small tau
  normalize_columns(U);
  U *= c.scale;
  CAPTURE(N, c.d, c.alpha, c.tau, c.scale);
  Matrix g_stored(c.d, N), g_streamed(c.d, N);
  const double v_stored = stored.evaluate_with_gradient(U, g_stored);
  const double v_streamed = streamed.evaluate_with_gradient(U, g_streamed);
  // The two sum the same O(N^2) terms in other orders and shifts: rounding of ~N eps / tau
  // relative to terms of size 1 / tau, so 1e-13 relative (the stored path's own bound).
  CHECK(v_streamed == Approx(v_stored).epsilon(1e-13));
  CHECK(v_streamed == Approx(static_cast<double>(reference_loss(U, labels, c.alpha, c.tau))).epsilon(1e-13));
  CHECK(streamed.evaluate(U) == v_streamed);  // the value alone is the first pass alone
  const auto parts = streamed.components(U), stored_parts = stored.components(U);
  CHECK(parts.different_class == Approx(stored_parts.different_class).epsilon(1e-13));
  CHECK(parts.same_class == Approx(stored_parts.same_class).epsilon(1e-12).margin(1e-14));
  CHECK(parts.alignment == Approx(stored_parts.alignment).epsilon(1e-13).margin(1e-15));
  // Gradients: the same sums, rounded differently; 1e-12 of the norm.
  CHECK((g_streamed - g_stored).norm() <= 1e-12 * g_stored.norm());
}

TEST_CASE("The streamed gradient agrees with central finite differences", "[spread_loss][streamed][gradient]") {
  const auto [sizes, d, alpha, tau] = GENERATE(table<std::vector<int>, int, double, double>(
      {{{90, 60, 150, 400}, 5, 0.7, 0.3}, {{150, 150}, 2, 0.8, 0.05}, {std::vector<int>(100, 3), 4, 0.5, 1.0}}));
  const auto labels = labels_of_sizes(sizes, 9);
  const SpreadLoss loss(labels, alpha, tau, PairEvaluation::kStreamed);
  const Matrix U = random_uniform_sphere(d, static_cast<Index>(labels.size()), 2);
  const auto report = check_gradient(loss, U, 3);
  INFO(report.table());
  CHECK(report.relative_error < 1e-7);  // as for the stored path: ~eps^(2/3) / tau^3
}

TEST_CASE("The streamed value and gradient are identical whatever the number of threads",
          "[spread_loss][streamed][determinism]") {
  const auto labels = labels_of_sizes({300, 200, 400, 250}, 10);  // N = 1150: 5 blocks
  const double tau = GENERATE(0.3, 0.001);  // one shared shift; a shift per row
  const SpreadLoss loss(labels, 0.7, tau, PairEvaluation::kStreamed);
  const Matrix U = random_uniform_sphere(16, 1150, 3);
  Matrix g1(16, 1150), g2(16, 1150);
  const double v1 = testing::with_threads(1, [&] { return loss.evaluate_with_gradient(U, g1); });
  const double v2 = testing::with_threads(2, [&] { return loss.evaluate_with_gradient(U, g2); });
  CHECK(v1 == v2);  // bitwise
  CHECK(g1 == g2);
}

TEST_CASE("The evaluation path: streamed from kStreamedFromPoints points on (fewer in few dimensions), with O(N d) memory",
          "[spread_loss][streamed]") {
  const Index large = SpreadLoss::kStreamedFromPoints, few = SpreadLoss::kStreamedFromPointsFewDims;
  const Index d_few = SpreadLoss::kFewDims, d_many = SpreadLoss::kFewDims + 1;
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, large - 1, d_many) == PairEvaluation::kStored);
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, large, d_many) == PairEvaluation::kStreamed);
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, few - 1, d_few) == PairEvaluation::kStored);
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, few, d_few) == PairEvaluation::kStreamed);
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, few, 2) == PairEvaluation::kStreamed);
  CHECK(SpreadLoss::path_for(PairEvaluation::kStored, large, 3) == PairEvaluation::kStored);
  CHECK(SpreadLoss::path_for(PairEvaluation::kStreamed, 10, 3) == PairEvaluation::kStreamed);
  // The stored path needs its 8 N^2 bytes; the streamed one O(N d), also at a tiny tau
  // (a shift per row: one more tile per thread).
  const double stored = SpreadLoss::evaluation_bytes(100000, 10, 0.5, PairEvaluation::kStored, 2);
  const double streamed = SpreadLoss::evaluation_bytes(100000, 10, 0.5, PairEvaluation::kStreamed, 2);
  const double per_row = SpreadLoss::evaluation_bytes(100000, 10, 0.001, PairEvaluation::kStreamed, 2);
  CHECK(stored > 8e10);
  CHECK(streamed < 5e7);
  CHECK(per_row == Approx(streamed + 2 * 8.0 * kBlock * kBlock));
}

namespace {
// Fourth-order central differences of the gradient along V: truncation O(h^4), so at
// h = 1e-3 both it and the rounding (eps |g| / h) are near 1e-13 of the product.
Matrix gradient_differences(const SpreadLoss& loss, const Matrix& U, const Matrix& V, double h) {
  Matrix g1(U.rows(), U.cols()), g2(U.rows(), U.cols()), g3(U.rows(), U.cols()), g4(U.rows(), U.cols());
  loss.evaluate_with_gradient(U + h * V, g1);
  loss.evaluate_with_gradient(U - h * V, g2);
  loss.evaluate_with_gradient(U + 2 * h * V, g3);
  loss.evaluate_with_gradient(U - 2 * h * V, g4);
  return (8.0 * (g1 - g2) - (g3 - g4)) / (12.0 * h);
}
}  // namespace

TEST_CASE("The streamed Hessian-vector product equals the stored one and differences of the gradient",
          "[spread_loss][streamed][hessian]") {
  struct Case {
    std::vector<int> sizes;
    int d;
    double alpha, tau, scale;
    std::uint64_t shuffle;
  };
  // One tile (N = 24); 3 blocks (N = 700: byes), unbalanced and shuffled; classes that cut
  // tiles; a shift per row (tau = 0.001); points off the sphere; alpha 0.5, 0.7, 0.9.
  const Case c = GENERATE(Case{{8, 8, 8}, 3, 0.5, 0.5, 1.0, 0}, Case{{8, 8, 8}, 3, 0.9, 0.5, 1.0, 0},
                          Case{{90, 60, 150, 400}, 5, 0.7, 0.5, 1.0, 3}, Case{{90, 60, 150, 400}, 5, 0.5, 0.3, 1.0, 3},
                          Case{{90, 60, 150, 400}, 4, 0.9, 0.5, 1.0, 2}, Case{std::vector<int>(200, 3), 4, 0.7, 0.5, 1.0, 4},
                          Case{{100, 250}, 4, 0.6, 0.5, 1.15, 5}, Case{{150, 150}, 3, 0.9, 0.001, 1.0, 0});
  const auto labels = labels_of_sizes(c.sizes, c.shuffle);
  const Index N = static_cast<Index>(labels.size());
  const SpreadLoss stored(labels, c.alpha, c.tau, PairEvaluation::kStored);
  const SpreadLoss streamed(labels, c.alpha, c.tau, PairEvaluation::kStreamed);
  Matrix U = random_uniform_sphere(c.d, N, 21);
  if (c.tau < 0.01) U = 0.05 * U + collapsed_simplex(labels, c.d);  // near collapse, as at small tau
  normalize_columns(U);
  U *= c.scale;
  const Matrix V = random_uniform_sphere(c.d, N, 22);
  CAPTURE(N, c.d, c.alpha, c.tau, c.scale);
  const Matrix HV = streamed.hessian(U)->apply(V), HV_stored = stored.hessian(U)->apply(V);
  // Relative errors in the Frobenius norm over all d x N entries.
  CHECK((HV - HV_stored).norm() <= 1e-10 * HV_stored.norm());
  if (c.tau >= 0.01) {  // at tau = 0.001 the gradient's fifth derivative (~ tau^-5) swamps any h
    const Matrix fd = gradient_differences(streamed, U, V, 1e-3);
    CHECK((HV - fd).norm() <= 1e-10 * fd.norm());
  }
  const Matrix W = random_uniform_sphere(c.d, N, 23);  // symmetric: <W, H V> = <V, H W>
  CHECK((W.array() * HV.array()).sum() == Approx((V.array() * streamed.hessian(U)->apply(W).array()).sum()).epsilon(1e-10));
  CHECK_THROWS_AS(streamed.hessian(U)->apply(Matrix::Zero(c.d + 1, N)), InvalidArgument);
}

TEST_CASE("The streamed Hessian-vector product is identical whatever the number of threads",
          "[spread_loss][streamed][hessian][determinism]") {
  const auto labels = labels_of_sizes({300, 200, 400, 250}, 10);  // N = 1150: 5 blocks
  const double tau = GENERATE(0.5, 0.001);  // one shared shift; a shift per row
  const double alpha = GENERATE(0.5, 0.7, 0.9);
  const SpreadLoss loss(labels, alpha, tau, PairEvaluation::kStreamed);
  const Matrix U = random_uniform_sphere(16, 1150, 3), V = random_uniform_sphere(16, 1150, 4);
  const Matrix h1 = testing::with_threads(1, [&] { return loss.hessian(U)->apply(V); });
  const Matrix h2 = testing::with_threads(2, [&] { return loss.hessian(U)->apply(V); });
  CHECK(h1 == h2);  // bitwise
}

TEST_CASE("The Hessian is stored up to kStoredHessianMaxBytes and streams beyond: O(N d) memory",
          "[spread_loss][streamed][hessian]") {
  // Stored at the large solve's N = 2000, d = 32, where the evaluation already streams.
  CHECK(SpreadLoss::path_for(PairEvaluation::kAuto, 2000, 32) == PairEvaluation::kStreamed);
  CHECK(SpreadLoss::hessian_path_for(PairEvaluation::kAuto, 2000, 32) == PairEvaluation::kStored);
  CHECK(SpreadLoss::hessian_bytes(2000, 32, PairEvaluation::kAuto, 2) == SpreadLoss::stored_hessian_bytes(2000, 32));
  // The bound: the largest N whose stored Hessian fits it, and the next.
  for (const Index d : {3, 32, 128}) {
    Index n = 2;
    while (SpreadLoss::stored_hessian_bytes(n + 1, d) <= SpreadLoss::kStoredHessianMaxBytes) ++n;
    CAPTURE(d, n);
    CHECK(n > 3100);
    CHECK(SpreadLoss::hessian_path_for(PairEvaluation::kAuto, n, d) == PairEvaluation::kStored);
    CHECK(SpreadLoss::hessian_path_for(PairEvaluation::kAuto, n + 1, d) == PairEvaluation::kStreamed);
  }
  // An explicit path is honoured both ways.
  CHECK(SpreadLoss::hessian_path_for(PairEvaluation::kStreamed, 100, 3) == PairEvaluation::kStreamed);
  CHECK(SpreadLoss::hessian_path_for(PairEvaluation::kStored, 5000, 3) == PairEvaluation::kStored);
  const Index N = 20000, d = 128;
  CHECK(SpreadLoss::hessian_bytes(N, d, PairEvaluation::kAuto, 2) < 1.6e8);
  CHECK(SpreadLoss::hessian_bytes(N, d, PairEvaluation::kStored, 2) == SpreadLoss::stored_hessian_bytes(N, d));
  CHECK(SpreadLoss::stored_hessian_bytes(N, d) > 9.6e9);
}
