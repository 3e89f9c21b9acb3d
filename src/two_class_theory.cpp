#include "geomsim/two_class_theory.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/errors.hpp"
#include "geomsim/wiener_constant.hpp"

namespace geomsim {
namespace {

void validate(double alpha, double tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
}

// sin^2 theta*(alpha, tau) = tau/2 log((3 alpha - 1)/(3 - 3 alpha)) (from
// d/d(sin^2) L = 0: sigmoid(x) = (3 alpha - 1)/2), continued by 0 at or below 2/3
// (collapse) and by 1 at or beyond the existence bound (theta = pi/2).
double sin2_theta_star_clamped(double alpha, double tau) {
  if (alpha <= 2.0 / 3.0) return 0.0;
  if (alpha >= 1.0) return 1.0;
  return std::clamp(0.5 * tau * std::log((3.0 * alpha - 1.0) / (3.0 - 3.0 * alpha)), 0.0, 1.0);
}

// log(1 + e^x) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

}  // namespace

double collapsed_loss(int K, double alpha, double tau) {
  require_at_least("K", K, 2);
  validate(alpha, tau);
  return -(1.0 - alpha) * K / ((K - 1.0) * tau);
}

double mu_theta_loss(double theta, double alpha, double tau) {
  validate(alpha, tau);
  require_finite("theta", theta);
  const double s2 = std::sin(theta) * std::sin(theta);
  const double x = 2.0 * s2 / tau;
  return -std::log(2.0) - 2.0 * (1.0 - alpha) / tau + (1.0 - alpha) * softplus(x) + alpha * softplus(-x) +
         (1.0 - alpha) * s2 / tau;
}

double uniform_loss(double alpha, double tau, int d) {
  validate(alpha, tau);
  return log_wiener_constant(tau, d) + (1.0 - alpha) / tau;
}

double theta_star_existence_bound(double tau) {
  require_positive("tau", tau);
  // (3E + 1)/(3E + 3) = 1 - 2/(3E + 3) with E = e^{2/tau}; exp overflows to inf -> 1.
  return 1.0 - 2.0 / (3.0 * std::exp(2.0 / tau) + 3.0);
}

std::optional<double> theta_star(double alpha, double tau) {
  validate(alpha, tau);
  if (!(alpha > 2.0 / 3.0) || !(alpha < theta_star_existence_bound(tau))) return std::nullopt;
  return std::asin(std::sqrt(sin2_theta_star_clamped(alpha, tau)));
}

std::optional<double> spread_star(double alpha, double tau) {
  const auto theta = theta_star(alpha, tau);
  if (!theta) return std::nullopt;
  return std::sin(*theta);
}

std::optional<double> c_threshold(double tau, int d) {
  const double log_w = log_wiener_constant(tau, d);
  const double inv = 1.0 / tau;
  const double radicand = inv * (inv - 2.0) - 2.0 * log_w;
  if (radicand < 0.0) return std::nullopt;
  return (2.0 + inv - std::sqrt(radicand)) / 3.0;
}

std::optional<double> exact_crossover(double tau, int d) {
  const double bound = theta_star_existence_bound(tau);
  const double log_w = log_wiener_constant(tau, d);
  // f(alpha) = L(mu_theta*(alpha), alpha) - L(sigma, alpha), continuous on [2/3, bound]
  // with theta*(2/3) = 0 and theta*(bound) = pi/2.
  const auto f = [&](double alpha) {
    const double theta = std::asin(std::sqrt(sin2_theta_star_clamped(alpha, tau)));
    return mu_theta_loss(theta, alpha, tau) - (log_w + (1.0 - alpha) / tau);
  };
  const double lo = 2.0 / 3.0, hi = bound;
  const double f_lo = f(lo), f_hi = f(hi);
  // f(2/3) = -1/tau - log W <= 0 always (W >= e^{-1/tau}); no sign change: no crossover.
  if (!(f_lo < 0.0) || !(f_hi > 0.0)) return std::nullopt;
  boost::uintmax_t iterations = 200;
  const auto bracket = boost::math::tools::toms748_solve(
      f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(52), iterations);
  return 0.5 * (bracket.first + bracket.second);
}

}  // namespace geomsim
