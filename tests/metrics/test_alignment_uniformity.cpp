// Wang & Isola's alignment and uniformity, on configurations with known values.
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/wiener_constant.hpp"
#include "helpers.hpp"

using namespace geomsim;

namespace {

// N equally spaced points on the unit circle.
Matrix circle(Index n) {
  Matrix points(2, n);
  for (Index i = 0; i < n; ++i) {
    const double angle = 2.0 * M_PI * static_cast<double>(i) / static_cast<double>(n);
    points.col(i) << std::cos(angle), std::sin(angle);
  }
  return points;
}

// log of the mean of exp(-t |x_i - x_j|^2) over i < j, by a plain pair loop in long double
// (whose exponent range holds exp(-10^4)), with the differences formed directly.
double uniformity_pair_loop(const Matrix& points, double t) {
  long double sum = 0.0L;
  for (Index i = 0; i < points.cols(); ++i) {
    for (Index j = i + 1; j < points.cols(); ++j) {
      long double d2 = 0.0L;
      for (Index r = 0; r < points.rows(); ++r) {
        const long double diff = static_cast<long double>(points(r, i)) - points(r, j);
        d2 += diff * diff;
      }
      sum += std::exp(-static_cast<long double>(t) * d2);
    }
  }
  const long double n = static_cast<long double>(points.cols());
  return static_cast<double>(std::log(sum / (n * (n - 1) / 2)));
}

}  // namespace

TEST_CASE("Alignment is the mean squared distance of the positive pairs", "[alignment_uniformity]") {
  // Pair m is a unit vector and its rotation by angle theta_m: |u - v|^2 = 2 - 2 cos(theta_m).
  const double thetas[] = {0.1, 0.7, 2.0};
  Matrix anchors(2, 3), positives(2, 3);
  double expected = 0.0;
  for (Index m = 0; m < 3; ++m) {
    const double a = 0.3 * static_cast<double>(m);
    anchors.col(m) << std::cos(a), std::sin(a);
    positives.col(m) << std::cos(a + thetas[m]), std::sin(a + thetas[m]);
    expected += (2.0 - 2.0 * std::cos(thetas[m])) / 3.0;
  }
  CHECK(alignment(anchors, positives) == Approx(expected).epsilon(1e-15));
  Matrix both(2, 6);
  both << anchors, positives;
  CHECK(pair_alignment(both, {{0, 3}, {1, 4}, {2, 5}}) == Approx(expected).epsilon(1e-15));
  CHECK(alignment(anchors, anchors) == 0.0);

  SECTION("bad pairs are refused") {
    CHECK_THROWS_AS(alignment(anchors, Matrix(2, 2)), InvalidArgument);
    CHECK_THROWS_AS(alignment(Matrix(2, 0), Matrix(2, 0)), InvalidArgument);
    CHECK_THROWS_AS(pair_alignment(both, {}), InvalidArgument);
    CHECK_THROWS_AS(pair_alignment(both, {{0, 6}}), InvalidArgument);
    CHECK_THROWS_AS(pair_alignment(both, {{-1, 0}}), InvalidArgument);
    Matrix bad = anchors;
    bad(0, 1) = std::nan("");
    CHECK_THROWS_AS(alignment(bad, positives), InvalidArgument);
  }
}

TEST_CASE("Same-class alignment equals the mean over every ordered same-class pair", "[alignment_uniformity]") {
  const Matrix points = 2.0 * random_uniform_sphere(5, 23, 3);
  const std::vector<int> labels = {0, 1, 2, 0, 0, 1, 2, 2, 1, 0, 3, 0, 1, 1, 2, 0, 0, 1, 2, 2, 0, 1, 0};  // class 3 alone
  long double sum = 0.0L;
  long double count = 0.0L;
  for (Index i = 0; i < points.cols(); ++i) {
    for (Index j = 0; j < points.cols(); ++j) {
      if (i == j || labels[static_cast<std::size_t>(i)] != labels[static_cast<std::size_t>(j)]) continue;
      sum += (points.col(i) - points.col(j)).squaredNorm();
      count += 1.0L;
    }
  }
  // Both sides sum ~200 terms of size ~4; 1e-14 relative allows their rounding.
  CHECK(same_class_alignment(points, labels) == Approx(static_cast<double>(sum / count)).epsilon(1e-14));
  CHECK_THROWS_AS(same_class_alignment(Matrix::Ones(2, 3), {0, 1, 2}), InvalidArgument);  // no pair
  CHECK_THROWS_AS(same_class_alignment(Matrix::Ones(2, 3), {0, 0}), InvalidArgument);
}

TEST_CASE("Uniformity of the regular simplex is -t 2K/(K-1)", "[alignment_uniformity]") {
  const int K = GENERATE(2, 3, 5, 10);
  const double t = GENERATE(0.5, 2.0);
  // Every pair of vertices is at squared distance 2 - 2(-1/(K-1)) = 2K/(K-1).
  CHECK(uniformity(regular_simplex(K, K + 1), t) == Approx(-t * 2.0 * K / (K - 1)).epsilon(1e-14));
}

TEST_CASE("Uniformity of equally spaced points on the circle is log((N W - 1)/(N - 1))", "[alignment_uniformity]") {
  // The mean of exp(-t |u_0 - u_j|^2) over all N points j (j = 0 included) is the N-point
  // trapezoidal rule for the periodic integrand e^{-2t} e^{2t cos phi}; its error is
  // ~2 I_N(2t)/I_0(2t) < 1e-40 for N >= 64, so that mean is W(tau = 1/(2t), d = 2) to rounding.
  // Removing the N pairs of a point with itself: L_unif = log((N W - 1)/(N - 1)).
  // N = 600 and 1000 span 3 and 4 tiles of 256 (diagonal and off-diagonal tiles, a short last block).
  const Index n = GENERATE(64, 257, 600, 1000);
  const double t = GENERATE(0.5, 2.0);
  const double W = std::exp(log_wiener_constant(1.0 / (2.0 * t), 2));
  const double nd = static_cast<double>(n);
  CHECK(uniformity(circle(n), t) == Approx(std::log((nd * W - 1.0) / (nd - 1.0))).epsilon(1e-13));
}

TEST_CASE("Uniformity of uniform random points on the sphere is log W(1/4, d) within Monte-Carlo error",
          "[alignment_uniformity]") {
  // L_unif estimates log E exp(-2|u - v|^2) = log W(tau = 1/4, d) by a U-statistic of degree 2
  // whose first-order term vanishes (E_v exp(-2|u - v|^2) = W for every u, by symmetry), so its
  // variance is exactly 2 Var(h) / (N (N-1)), Var(h) = E exp(-4|u - v|^2) - W^2 = W(1/8) - W(1/4)^2.
  // The delta method gives the log's standard error as that sd / W; we allow 5 of them.
  const int d = GENERATE(3, 10, 128);
  const std::uint64_t seed = GENERATE(1u, 2u);
  const Index n = 1500;
  const double W = std::exp(log_wiener_constant(0.25, d));
  const double variance = std::exp(log_wiener_constant(0.125, d)) - W * W;
  const double nd = static_cast<double>(n);
  const double standard_error = std::sqrt(2.0 * variance / (nd * (nd - 1.0))) / W;
  const double value = uniformity(random_uniform_sphere(d, n, seed));
  INFO("d = " << d << ", L_unif = " << value << ", log W = " << std::log(W) << ", se = " << standard_error);
  CHECK(std::abs(value - std::log(W)) < 5.0 * standard_error);
}

TEST_CASE("Uniformity agrees with a long-double pair loop, far apart points included", "[alignment_uniformity]") {
  const double scale = GENERATE(0.3, 1.0, 40.0);  // at 40, exp(-2 |x - y|^2) underflows a double
  const Matrix points = scale * random_uniform_sphere(7, 530, 5) + Matrix::Constant(7, 530, 0.25);
  const double expected = uniformity_pair_loop(points, 2.0);
  INFO("scale " << scale << ": " << expected);
  CHECK(std::isfinite(expected));
  // 140,000 terms summed in two orders, and the Gram identity's rounding in the exponent
  // (~1e-16 |x|^2 t): 1e-12 relative.
  CHECK(uniformity(points) == Approx(expected).epsilon(1e-12));
}

TEST_CASE("Uniformity is bitwise the same on 1 and 2 threads", "[alignment_uniformity][determinism]") {
  const Matrix points = random_uniform_sphere(16, 1100, 7);
  const double one = testing::with_threads(1, [&] { return uniformity(points); });
  const double two = testing::with_threads(2, [&] { return uniformity(points); });
  CHECK(one == two);
}

TEST_CASE("Uniformity refuses what it cannot measure", "[alignment_uniformity][errors]") {
  CHECK_THROWS_AS(uniformity(Matrix::Ones(3, 1)), InvalidArgument);
  CHECK_THROWS_AS(uniformity(Matrix::Ones(3, 4), 0.0), InvalidArgument);
  CHECK_THROWS_AS(uniformity(Matrix::Ones(3, 4), std::nan("")), InvalidArgument);
  Matrix bad = Matrix::Ones(3, 4);
  bad(1, 2) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(uniformity(bad), InvalidArgument);
  // Two equal points are a pair at distance 0: mean exp(0) = 1.
  CHECK(uniformity(Matrix::Ones(3, 4)) == 0.0);
}
