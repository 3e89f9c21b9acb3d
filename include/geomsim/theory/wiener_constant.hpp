#pragma once
// The Wiener constant of the Gaussian 1/(2 tau)-energy on S^{d-1} (seed 004, eq. 21):
//
//   W = 2^{d-2} G(d/2) / (sqrt(pi) G((d-1)/2)) * int_0^1 exp(-2u/tau) (u(1-u))^{(d-3)/2} du
//     = exp(-1/tau) G(d/2) (2 tau)^{d/2-1} I_{d/2-1}(1/tau)          (closed form)
//
// where I is the modified Bessel function of the first kind. For d = 3 this is
// (tau/2)(1 - exp(-2/tau)). W is E[exp(-|u-u'|^2 / 2tau)] for independent uniform u, u'.
//
// Both forms are evaluated in log space. W itself is modest (log W = -98.8 at d = 4096,
// tau = 0.01), but its factors are not: G(2048) and I_2047(100) overflow or underflow a
// double, and so does exp(1/tau) for tau < 1/709.
namespace geomsim {

// log I_nu(x) for nu >= 0 and x > 0, by the power series
//   I_nu(x) = (x/2)^nu / G(nu+1) * sum_k (x^2/4)^k / (k! (nu+1)_k),
// summed with positive terms only (relative error ~ (number of terms) * eps; about
// x + 30 terms), so it neither overflows nor underflows. Throws InvalidArgument outside
// nu >= 0, 0 < x <= 700.
double log_bessel_i(double nu, double x);

// The smallest temperature of the closed form: its Bessel series is summed for x = 1/tau <= 700.
inline constexpr double kMinWienerTemperature = 1.0 / 700.0;

// log W by the closed form, as -1/tau + log 0F1(; d/2; 1/(4 tau^2)). Throws
// InvalidArgument unless d >= 2 and kMinWienerTemperature <= tau < inf.
double log_wiener_constant(double tau, int d);

// log W by tanh-sinh quadrature of eq. (21) (Boost.Math), the independent check.
// Reliable while the integrand is resolved: the peak of exp(-2u/tau) (4u(1-u))^m sits
// at u ~ m tau / 2 for small tau, so tiny tau with large d needs many levels.
double log_wiener_constant_quadrature(double tau, int d);

}  // namespace geomsim
