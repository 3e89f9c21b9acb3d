#include "geomsim/theory/wiener_constant.hpp"

#include <boost/math/quadrature/tanh_sinh.hpp>
#include <boost/math/special_functions/gamma.hpp>
#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

void validate(double tau, int d) {
  require_positive("tau", tau);
  require_at_least("d", d, 2);
}

// log 0F1(; nu+1; x^2/4) = log sum_k (x^2/4)^k / (k! (nu+1)_k), all terms positive.
double log_bessel_series(double nu, double x) {
  const double q = 0.25 * x * x;
  double term = 1.0, sum = 1.0;
  for (int k = 1; k < 100000; ++k) {
    term *= q / (k * (nu + k));
    sum += term;
    if (term < sum * 1e-17 && k > q / (nu + 1.0)) break;  // past the peak and negligible
  }
  return std::log(sum);
}

}  // namespace

double log_bessel_i(double nu, double x) {
  require_finite("nu", nu);
  if (nu < 0.0) throw InvalidArgument("nu", "must be >= 0, got " + format_number(nu));
  if (!(x > 0.0 && x <= 700.0)) throw InvalidArgument("x", "must be in (0, 700], got " + format_number(x));
  return nu * std::log(0.5 * x) - std::lgamma(nu + 1.0) + log_bessel_series(nu, x);
}

double log_wiener_constant(double tau, int d) {
  validate(tau, d);
  if (tau < kMinWienerTemperature) throw InvalidArgument("tau", "must be >= 1/700 for the Bessel series, got " + format_number(tau));
  // With nu = d/2 - 1 and x = 1/tau, G(d/2) (2 tau)^nu cancels exactly against the
  // series' (x/2)^nu / G(nu+1): W = exp(-1/tau) 0F1(; d/2; 1/(4 tau^2)). No gamma
  // function is evaluated, so log W keeps ~1e-15 relative accuracy even at d = 4096,
  // where lgamma(d/2) ~ 1.4e4 would cost 1e-12.
  return -1.0 / tau + log_bessel_series(0.5 * d - 1.0, 1.0 / tau);
}

double log_wiener_constant_quadrature(double tau, int d) {
  validate(tau, d);
  // int_0^1 exp(-2u/tau) (u(1-u))^m du with m = (d-3)/2, written as
  // 4^{-m} int exp(-2u/tau) (4u(1-u))^m du so that the integrand stays <= 1.
  const double m = 0.5 * (d - 3);
  const auto integrand = [&](double u, double uc) {
    // uc is the signed distance to the nearer endpoint: 1 - u is computed exactly near 1.
    const double one_minus_u = u > 0.5 ? uc : 1.0 - u;
    const double p = 4.0 * u * one_minus_u;
    return p > 0.0 ? std::exp(-2.0 * u / tau + m * std::log(p)) : 0.0;
  };
  boost::math::quadrature::tanh_sinh<double> integrator(15);
  const double integral = integrator.integrate(integrand, 0.0, 1.0, 1e-14);
  // The prefactor 2^{d-2} G(d/2) / (sqrt(pi) G((d-1)/2)) times 4^{-m} is
  // 2 G(d/2) / (sqrt(pi) G((d-1)/2)): the powers of 2 cancel exactly (at d = 4096 their
  // difference in floating point would cost 3e-13), and the gamma ratio comes from
  // Boost's tgamma_delta_ratio rather than a difference of two large lgamma values.
  const double log_prefactor =
      std::log(2.0) - 0.5 * std::log(M_PI) - std::log(boost::math::tgamma_delta_ratio(0.5 * (d - 1), 0.5));
  return log_prefactor + std::log(integral);
}

}  // namespace geomsim
