// The general-K symmetric split (theory/general-k-symmetric-split.md): its closed forms
// against the objective, its theta* against a 1-D minimiser, its predictions against the
// optimizer at d = K, and what the optimizer finds for d > K.
#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/reference_losses.hpp"
#include "geomsim/theory/symmetric_split.hpp"
#include "geomsim/theory/three_class_theory.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "geomsim/theory/wiener_constant.hpp"

using namespace geomsim;

namespace {
SolveSettings ten_seeds() {
  SolveSettings settings;
  settings.seeds = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  settings.solver = "rlbfgs";
  return settings;
}
}  // namespace

TEST_CASE("The symmetric split's closed form equals eq. (39)-(40) on its points", "[theory][general-k]") {
  // With an even split the empirical loss is the asymptotic one exactly.
  const int K = GENERATE(2, 3, 4, 6);
  const auto directions = GENERATE(SplitDirections::shared, SplitDirections::orthogonal);
  const double theta = GENERATE(0.0, 0.3, 1.0, 1.5707963267948966);
  const double alpha = GENERATE(0.2, 0.7, 0.95);
  const double tau = GENERATE(0.1, 0.5, 2.0);
  const SymmetricSplit split(K, directions);
  const int d = min_dimension(K, directions) + 1;
  const SpreadLoss loss(balanced_labels(K, 4), alpha, tau);
  CAPTURE(K, to_string(directions), theta, alpha, tau);
  CHECK(loss.evaluate(split.points(4, d, theta)) == Approx(split.loss(theta, alpha, tau)).epsilon(1e-13).margin(1e-14));
}

TEST_CASE("K = 2 with a shared direction is Theorem 2's mu_theta", "[theory][general-k]") {
  const SymmetricSplit split(2);
  for (double theta : {0.0, 0.2, 0.9}) CHECK(split.loss(theta, 0.7, 0.5) == mu_theta_loss(theta, 0.7, 0.5));
  CHECK(split.threshold() == Approx(2.0 / 3.0).epsilon(1e-15));
  CHECK(split.existence_bound(0.5) == Approx((3 * std::exp(4.0) + 1) / (3 * std::exp(4.0) + 3)).epsilon(1e-15));
  // Theorem 2's c(tau, d) is the K = 2 case of the relaxed window end.
  const double log_w = log_wiener_constant(0.5, 3);
  CHECK(*relaxed_window_end(2, 0.5, 3) == Approx((2 + 2 - std::sqrt(2 * (2 - 2) - 2 * log_w)) / 3).epsilon(1e-15));
}

TEST_CASE("The split leaves collapse at alpha = K/(2K-1), for K = 3 at Appendix D.1's 3/5", "[theory][general-k]") {
  const int K = GENERATE(2, 3, 4, 5, 6, 10);
  const auto directions = GENERATE(SplitDirections::shared, SplitDirections::orthogonal);
  const double tau = GENERATE(0.1, 0.5, 2.0);
  const SymmetricSplit split(K, directions);
  CAPTURE(K, to_string(directions), tau);
  // The slope of the closed form in s = sin^2(theta) at 0, by a one-sided difference, has its
  // root at the threshold.
  const auto slope = [&](double alpha) {
    const double h = 1e-5;
    return (split.loss(std::asin(std::sqrt(h)), alpha, tau) - split.loss(0.0, alpha, tau)) / h;
  };
  boost::uintmax_t iterations = 100;
  const auto root = boost::math::tools::toms748_solve(slope, 0.3, 0.95, boost::math::tools::eps_tolerance<double>(40), iterations);
  CHECK(0.5 * (root.first + root.second) == Approx(split.threshold()).margin(1e-4));
  CHECK(split.threshold() == Approx(K / (2.0 * K - 1.0)).epsilon(1e-15));
  if (K == 3) CHECK(split.threshold() == Approx(kThreeClassThreshold).epsilon(1e-15));
  CHECK_FALSE(split.theta_star(split.threshold(), tau).has_value());
  CHECK(split.theta_star(split.threshold() + 1e-3, tau).has_value());
}

TEST_CASE("theta* is the argmin of the closed form, and min_loss its value", "[theory][general-k]") {
  const int K = GENERATE(2, 3, 5, 8);
  const auto directions = GENERATE(SplitDirections::shared, SplitDirections::orthogonal);
  const double tau = GENERATE(0.2, 0.5, 1.0);
  const SymmetricSplit split(K, directions);
  const double lo = split.threshold(), hi = split.existence_bound(tau);
  for (double fraction : {0.1, 0.5, 0.9}) {
    const double alpha = lo + fraction * (hi - lo);
    CAPTURE(K, to_string(directions), tau, alpha);
    const auto theta = split.theta_star(alpha, tau);
    REQUIRE(theta.has_value());
    boost::uintmax_t it = 200;
    const auto best = boost::math::tools::brent_find_minima(
        [&](double t) { return split.loss(t, alpha, tau); }, 0.0, 1.5707963267948966, 40, it);
    CHECK(*theta == Approx(best.first).margin(1e-6));
    CHECK(*split.min_loss(alpha, tau) == Approx(split.loss(*theta, alpha, tau)).epsilon(1e-13));
    CHECK(*split.min_loss(alpha, tau) < collapsed_loss(K, alpha, tau));
    CHECK(*split.spread(alpha, tau) == Approx(std::sin(*theta)).epsilon(1e-15));
  }
  CHECK_FALSE(split.theta_star(hi + 1e-9 * (1 - hi) + 1e-12, tau).has_value());
}

TEST_CASE("Mutually orthogonal split directions beat a shared one", "[theory][general-k]") {
  // The shared direction costs (1-alpha) E log cosh(s/tau) >= 0 in the different-class term.
  const int K = GENERATE(2, 3, 6);
  const double alpha = 0.75, tau = 0.5;
  const SymmetricSplit shared(K, SplitDirections::shared), orthogonal(K, SplitDirections::orthogonal);
  for (double theta : {0.1, 0.5, 1.2}) CHECK(orthogonal.loss(theta, alpha, tau) < shared.loss(theta, alpha, tau));
  CHECK(*orthogonal.min_loss(alpha, tau) < *shared.min_loss(alpha, tau));
}

TEST_CASE("The window against uniform: exact crossover and the relaxed end c_K", "[theory][general-k]") {
  const int K = GENERATE(2, 3, 4, 6);
  const double tau = GENERATE(0.1, 0.5, 1.0);
  const int d = GENERATE(0, 1, 30);  // offsets from the family's smallest dimension
  const SymmetricSplit split(K);
  const int dim = K + d;
  CAPTURE(K, tau, dim);
  const auto exact = split.exact_crossover(tau, dim);
  const auto relaxed = relaxed_window_end(K, tau, dim);
  REQUIRE(exact.has_value());
  REQUIRE(relaxed.has_value());
  const double gap = *split.min_loss(*exact, tau) - uniform_loss(*exact, tau, dim);
  CHECK(std::abs(gap) < 1e-12);
  // c_K is the root of the relaxed inequality, lies inside the window, and below the exact end.
  const double p = *relaxed - (1 - *relaxed) / (2.0 * (K - 1));
  CHECK(2 * (p - 0.5) * (p - 0.5) + (1 - *relaxed) * (2.0 * K - 1) / ((K - 1) * tau) + log_wiener_constant(tau, dim) ==
        Approx(0.0).margin(1e-12));
  CHECK(*relaxed > split.threshold());
  CHECK(*relaxed <= *exact + 1e-12);
  CHECK_THROWS_AS(split.exact_crossover(tau, K - 1), InvalidArgument);
}

TEST_CASE("At d = K the optimizer finds the shared symmetric split, K = 2..6", "[theory][general-k][optimizer]") {
  const int K = GENERATE(2, 3, 4, 5, 6);
  const double tau = 0.5;
  const SymmetricSplit split(K);
  // Halfway between the threshold and the exact end of the window.
  const double alpha = 0.5 * (split.threshold() + *split.exact_crossover(tau, K));
  SpreadProblem problem;
  problem.K = K;
  problem.ny = 8;
  problem.d = K;
  problem.alpha = alpha;
  problem.tau = tau;
  const SpreadSolution s = solve_spread_problem(problem, ten_seeds());
  CAPTURE(K, alpha, s.geometry.describe());
  CHECK(s.loss == Approx(*split.min_loss(alpha, tau)).epsilon(1e-9));
  CHECK(s.spread.mean == Approx(*split.spread(alpha, tau)).epsilon(1e-6));
  CHECK(s.geometry.kind == GeometryKind::kAtoms);
  for (const auto& c : s.geometry.classes) CHECK(c.atom_sizes == std::vector<Index>{4, 4});
}

TEST_CASE("For d > K the classes spread further, and the threshold K/(2K-1) still holds", "[theory][general-k][optimizer]") {
  const double tau = 0.5;
  SECTION("above the threshold the optimum undercuts both closed forms") {
    const int K = GENERATE(2, 3);
    const int d = 2 * K - 1 + 1;  // room for orthogonal directions and more
    const SymmetricSplit shared(K), orthogonal(K, SplitDirections::orthogonal);
    const double alpha = 0.7;
    SpreadProblem problem{K, 8, d, alpha, tau};
    const SpreadSolution s = solve_spread_problem(problem, ten_seeds());
    CAPTURE(K, d, s.geometry.describe(), s.loss);
    CHECK(s.loss < *orthogonal.min_loss(alpha, tau) - 1e-4);
    CHECK(*orthogonal.min_loss(alpha, tau) < *shared.min_loss(alpha, tau));
    CHECK(s.spread.mean > *orthogonal.spread(alpha, tau));
  }
  SECTION("collapse just below the threshold, spread just above it") {
    const int K = GENERATE(2, 3, 4);
    const int d = K + 2;
    const double threshold = SymmetricSplit(K).threshold();
    CAPTURE(K, d);
    SpreadProblem below{K, 8, d, threshold - 0.01, tau};
    const SpreadSolution collapsed = solve_spread_problem(below, ten_seeds());
    CHECK(collapsed.geometry.kind == GeometryKind::kCollapsed);
    CHECK(collapsed.loss == Approx(collapsed_loss(K, below.alpha, tau)).epsilon(1e-10));
    SpreadProblem above{K, 8, d, threshold + 0.01, tau};
    const SpreadSolution spread = solve_spread_problem(above, ten_seeds());
    CHECK(spread.geometry.kind != GeometryKind::kCollapsed);
    CHECK(spread.loss < collapsed_loss(K, above.alpha, tau) - 1e-6);
  }
}

TEST_CASE("The symmetric split rejects bad input by name", "[theory][general-k]") {
  CHECK_THROWS_AS(SymmetricSplit(1), InvalidArgument);
  const SymmetricSplit split(3, SplitDirections::orthogonal);
  CHECK_THROWS_AS(split.points(4, 4, 0.1), InvalidArgument);  // needs d >= 5
  CHECK_THROWS_AS(split.points(3, 5, 0.1), InvalidArgument);  // odd n_y
  CHECK_THROWS_AS(split.loss(0.1, 1.5, 0.5), InvalidArgument);
  CHECK_THROWS_AS(split.loss(0.1, 0.5, 0.0), InvalidArgument);
  CHECK_THROWS_AS(split.loss(std::nan(""), 0.5, 0.5), InvalidArgument);
}
