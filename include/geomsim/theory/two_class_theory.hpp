#pragma once
// Closed forms of seed 004 for K = 2 classes (Theorem 2, Corollary 1), with the window of
// alpha in which the two-atom family mu_theta beats both collapse and uniformity.
//
//   L(delta_v)         = -2(1-alpha)/tau                           (collapsed; any K: -(1-alpha)K/((K-1)tau))
//   L(mu_theta, alpha) = -log 2 - 2(1-alpha)/tau + (1-alpha) log(1+e^x) + alpha log(1+e^-x)
//                        + (1-alpha) sin^2(theta)/tau,   x = 2 sin^2(theta)/tau
//   L(sigma)           = log W + (1-alpha)/tau                     (uniform on S^{d-1})
//   theta*             = arcsin sqrt(tau/2 log((3 alpha - 1)/(3 - 3 alpha)))   for alpha in (2/3, bound(tau))
//   c(tau, d)          = (2 + 1/tau - sqrt((1/tau)(1/tau - 2) - 2 log W)) / 3
//
// The theorem states the window (2/3, c(tau, d)). Two facts it leaves out, both computed
// here: theta* exists only for alpha < bound(tau) = (3 e^{2/tau} + 1)/(3 e^{2/tau} + 3)
// (where sin^2 theta* reaches 1), and c comes from a quadratic relaxation: the exact
// end of the window is the alpha where L(mu_theta*) = L(sigma), found by root finding.
// These are the K = 2 case of the symmetric split (symmetric_split.hpp).
#include <optional>

#include "geomsim/theory/reference_losses.hpp"

namespace geomsim {

// L(mu_theta, alpha) for K = 2, any theta (radians).
double mu_theta_loss(double theta, double alpha, double tau);

// (3 e^{2/tau} + 1)/(3 e^{2/tau} + 3), computed without overflow.
double theta_star_existence_bound(double tau);

// theta*(alpha, tau), the minimiser of L(mu_theta, alpha) over theta, when
// 2/3 < alpha < theta_star_existence_bound(tau); nullopt otherwise (at or below 2/3 the
// minimiser is theta = 0, collapse).
std::optional<double> theta_star(double alpha, double tau);

// Corollary 1's spread s = sin theta*.
std::optional<double> spread_star(double alpha, double tau);

// c(tau, d) as Theorem 2 states it; nullopt where the square root's argument is
// negative (the formula is then undefined).
std::optional<double> c_threshold(double tau, int d);

// The exact alpha in (2/3, bound(tau)) at which L(mu_theta*(alpha), alpha) = L(sigma),
// by TOMS748 to full double precision; nullopt when mu_theta* still beats sigma at
// the existence bound (no crossover inside the window).
std::optional<double> exact_crossover(double tau, int d);

}  // namespace geomsim
