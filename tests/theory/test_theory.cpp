// The Wiener constant and Theorem 2's closed forms (seed 004), against independent
// computations: quadrature, Boost's Bessel function, Monte Carlo, a 1-D minimiser.
#include <boost/math/special_functions/bessel.hpp>
#include <boost/math/tools/minima.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "geomsim/theory/wiener_constant.hpp"

using namespace geomsim;

TEST_CASE("The Bessel and quadrature forms of W agree to 1e-12 over d in [2, 4096], tau in [0.01, 100]",
          "[theory][wiener]") {
  // Measured worst case over this grid: 7.6e-14 (d = 4096). The quadrature is the
  // independent check; 1e-12 leaves room for its tolerance of 1e-14 per level.
  const int d = GENERATE(2, 3, 4, 5, 8, 16, 32, 128, 1024, 4096);
  const double tau = GENERATE(0.01, 0.05, 0.1, 0.5, 1.0, 10.0, 100.0);
  const double a = log_wiener_constant(tau, d);
  const double b = log_wiener_constant_quadrature(tau, d);
  REQUIRE(std::isfinite(a));
  CHECK(std::abs(std::expm1(b - a)) < 1e-12);
}

TEST_CASE("W for d = 3 is (tau/2)(1 - exp(-2/tau))", "[theory][wiener]") {
  const double tau = GENERATE(0.01, 0.3, 0.5, 2.0, 100.0);
  // log W = -1/tau + log 0F1(...) cancels two numbers of size ~1/tau: the absolute error
  // of log W, hence the relative error of W, is a few eps * (1 + 1/tau).
  CHECK(std::exp(log_wiener_constant(tau, 3)) ==
        Approx(0.5 * tau * -std::expm1(-2.0 / tau)).epsilon(1e-15 * (2.0 + 1.0 / tau)));
}

TEST_CASE("W is the mean of exp(-|u - u'|^2 / 2 tau) over uniform pairs (Monte Carlo)", "[theory][wiener]") {
  const int d = GENERATE(2, 5);
  const double tau = 0.5;
  const int pairs = 200000;
  const Matrix a = random_uniform_sphere(d, pairs, 1), b = random_uniform_sphere(d, pairs, 2);
  const Eigen::ArrayXd e = (-(a - b).colwise().squaredNorm().array() / (2 * tau)).exp();
  const double mean = e.mean();
  const double se = std::sqrt((e - mean).square().mean() / pairs);
  CHECK(std::abs(mean - std::exp(log_wiener_constant(tau, d))) < 5 * se);
}

TEST_CASE("log I_nu(x) matches Boost's cyl_bessel_i wherever that is representable", "[theory][wiener]") {
  const double nu = GENERATE(0.0, 0.5, 1.5, 10.0, 63.0);
  const double x = GENERATE(0.01, 1.0, 10.0, 100.0);
  const double boost_value = boost::math::cyl_bessel_i(nu, x);
  if (!(boost_value > 1e-300 && boost_value < 1e300)) return;
  CHECK(log_bessel_i(nu, x) == Approx(std::log(boost_value)).epsilon(1e-14).margin(1e-14));
}

TEST_CASE("log W stays finite across the whole range, where its factors overflow", "[theory][wiener]") {
  for (int d : {2, 7, 100, 1000, 4096}) {
    for (double tau : {0.01, 0.02, 0.1, 1.0, 100.0}) {
      const double v = log_wiener_constant(tau, d);
      CHECK(std::isfinite(v));
      CHECK(v <= 0.0);              // W <= 1 (a mean of values <= 1)
      CHECK(v >= -1.0 / tau - 1e-12);  // W >= e^{-1/tau}: 0F1 >= 1
    }
  }
  CHECK_THROWS_AS(log_wiener_constant(0.0, 3), InvalidArgument);
  CHECK_THROWS_AS(log_wiener_constant(0.5, 1), InvalidArgument);
}

TEST_CASE("Theorem 2's theta* is the argmin of L(mu_theta, alpha) over theta", "[theory][theorem2]") {
  const double tau = GENERATE(0.1, 0.5, 1.0);
  const double alpha = GENERATE(0.68, 0.7, 0.75, 0.8);
  const auto theta = theta_star(alpha, tau);
  if (!theta) return;  // beyond the existence bound (not for these values)
  boost::uintmax_t iterations = 200;
  const auto argmin = boost::math::tools::brent_find_minima(
      [&](double t) { return mu_theta_loss(t, alpha, tau); }, 0.0, M_PI / 2, 52, iterations);
  // A 1-D minimum is located to ~sqrt(eps) ~ 1e-8 in theta.
  CHECK(argmin.first == Approx(*theta).margin(1e-7));
  CHECK(mu_theta_loss(*theta, alpha, tau) <= argmin.second + 1e-15);
}

TEST_CASE("theta* exists only in (2/3, (3e^{2/tau}+1)/(3e^{2/tau}+3))", "[theory][theorem2]") {
  CHECK_FALSE(theta_star(0.6, 0.5));
  CHECK_FALSE(theta_star(2.0 / 3.0, 0.5));
  const double bound = theta_star_existence_bound(2.0);
  CHECK(bound == Approx((3 * std::exp(1.0) + 1) / (3 * std::exp(1.0) + 3)).epsilon(1e-15));
  CHECK(theta_star(bound - 1e-9, 2.0));
  CHECK(*theta_star(bound - 1e-9, 2.0) == Approx(M_PI / 2).margin(1e-3));
  CHECK_FALSE(theta_star(bound + 1e-9, 2.0));
  CHECK(theta_star_existence_bound(0.001) == 1.0);  // e^{2000} overflows; the bound does not
  CHECK(*spread_star(0.7, 0.5) == Approx(0.223981).margin(5e-7));  // Corollary 1, Figure 4
}

TEST_CASE("c(tau, d) > 2/3 on Figure 5's grid and tends to 2/3 as d grows", "[theory][theorem2]") {
  for (double tau : {0.1, 0.25, 0.5, 1.0, 2.0}) {
    double previous = 1.0;
    for (int d = 2; d <= 128; ++d) {
      const auto c = c_threshold(tau, d);
      REQUIRE(c);
      CHECK(*c > 2.0 / 3.0);
      CHECK(*c < previous);  // decreasing in d
      previous = *c;
    }
    CHECK(*c_threshold(tau, 4096) - 2.0 / 3.0 < 1e-3);
  }
}

TEST_CASE("c(tau, d) lies below theta*'s existence bound for tau in [0.01, 1000], d up to 4096", "[theory][theorem2]") {
  // So the window (2/3, min(c, bound)) is always (2/3, c): Appendix C.1's bound never binds.
  int checked = 0;
  for (int k = 0; k <= 100; ++k) {
    const double tau = std::pow(10.0, -2.0 + 5.0 * k / 100.0);
    const double bound = theta_star_existence_bound(tau);
    for (int d : {2, 3, 4, 5, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096}) {
      const auto c = c_threshold(tau, d);
      if (!c) continue;  // the square root's argument is negative: c undefined there
      CAPTURE(tau, d, *c, bound);
      CHECK(*c < bound);
      ++checked;
    }
  }
  CHECK(checked > 900);  // of 1414 (tau, d); c is undefined where the root's argument is negative
}

TEST_CASE("The exact crossover solves L(mu_theta*) = L(sigma) and lies above c(tau, d)", "[theory][theorem2]") {
  const double tau = GENERATE(0.1, 0.25, 0.5, 1.0, 2.0);
  const int d = GENERATE(2, 3, 10, 128);
  const auto alpha = exact_crossover(tau, d);
  REQUIRE(alpha);
  const double gap = mu_theta_loss(*theta_star(*alpha, tau), *alpha, tau) - uniform_loss(*alpha, tau, d);
  CHECK(std::abs(gap) < 1e-12);
  CHECK(*alpha >= *c_threshold(tau, d) - 1e-12);
  CHECK(*alpha < theta_star_existence_bound(tau));
}

TEST_CASE("The closed forms meet where they should", "[theory][theorem2]") {
  // theta = 0 is collapse; K = 2 collapse is -2(1-alpha)/tau.
  CHECK(mu_theta_loss(0.0, 0.7, 0.5) == Approx(collapsed_loss(2, 0.7, 0.5)).epsilon(1e-15));
  CHECK(collapsed_loss(3, 0.6, 0.5) == Approx(-1.2).epsilon(1e-15));
  // Large theta with tiny tau: no overflow in log(1 + e^x).
  CHECK(std::isfinite(mu_theta_loss(1.5, 0.7, 0.001)));
}
