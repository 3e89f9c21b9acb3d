#include "geomsim/theory/symmetric_split.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/theory/reference_losses.hpp"
#include "geomsim/theory/wiener_constant.hpp"

namespace geomsim {
namespace {

void validate(double alpha, double tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
}

// log(1 + e^x) without overflow.
double softplus(double x) { return x > 0 ? x + std::log1p(std::exp(-x)) : std::log1p(std::exp(x)); }

// log 2 - H(p) = KL(p || 1/2) in nats, for p in (0, 1).
double kl_from_half(double p) { return std::log(2.0) + p * std::log(p) + (1.0 - p) * std::log1p(-p); }

}  // namespace

const char* to_string(SplitDirections directions) {
  return directions == SplitDirections::shared ? "shared" : "orthogonal";
}

int min_dimension(int K, SplitDirections directions) {
  return directions == SplitDirections::shared ? K : 2 * K - 1;
}

SymmetricSplit::SymmetricSplit(int K, SplitDirections directions) : K_(K), directions_(directions) {
  require_at_least("K", K, 2);
}

double SymmetricSplit::loss(double theta, double alpha, double tau) const {
  validate(alpha, tau);
  require_finite("theta", theta);
  const double s2 = std::sin(theta) * std::sin(theta);
  const double x = 2.0 * s2 / tau;
  const double km1 = K_ - 1.0;
  const double collapsed = collapsed_loss(K_, alpha, tau);
  if (directions_ == SplitDirections::shared) {
    return -std::log(2.0) + collapsed + (1.0 - alpha) * x / (2.0 * km1) + (1.0 - alpha) * softplus(x) +
           alpha * softplus(-x);
  }
  return -alpha * std::log(2.0) + collapsed + (1.0 - alpha) * K_ * x / (2.0 * km1) + alpha * softplus(-x);
}

double SymmetricSplit::threshold() const { return K_ / (2.0 * K_ - 1.0); }

double SymmetricSplit::existence_bound(double tau) const {
  require_positive("tau", tau);
  // sin^2 theta* = 1 where logit(p*) = 2/tau; E = e^{2/tau} may overflow to inf, giving 1.
  const double E1 = std::exp(2.0 / tau) + 1.0;
  const double km1 = K_ - 1.0;
  if (directions_ == SplitDirections::shared) return 1.0 - 2.0 * km1 / ((2.0 * K_ - 1.0) * E1);
  return 1.0 - 2.0 * km1 / (K_ * E1 + 2.0 * km1);
}

double SymmetricSplit::p_star(double alpha) const {
  const double km1 = K_ - 1.0;
  if (directions_ == SplitDirections::shared) return alpha - (1.0 - alpha) / (2.0 * km1);
  return 1.0 - (1.0 - alpha) * K_ / (2.0 * alpha * km1);
}

double SymmetricSplit::sin2_theta_star_clamped(double alpha, double tau) const {
  if (alpha <= threshold()) return 0.0;
  if (alpha >= 1.0) return 1.0;
  const double p = p_star(alpha);
  return std::clamp(0.5 * tau * std::log(p / (1.0 - p)), 0.0, 1.0);
}

std::optional<double> SymmetricSplit::theta_star(double alpha, double tau) const {
  validate(alpha, tau);
  if (!(alpha > threshold()) || !(alpha < existence_bound(tau))) return std::nullopt;
  return std::asin(std::sqrt(sin2_theta_star_clamped(alpha, tau)));
}

std::optional<double> SymmetricSplit::spread(double alpha, double tau) const {
  const auto theta = theta_star(alpha, tau);
  if (!theta) return std::nullopt;
  return std::sin(*theta);
}

std::optional<double> SymmetricSplit::min_loss(double alpha, double tau) const {
  if (!theta_star(alpha, tau)) return std::nullopt;
  const double gain = kl_from_half(p_star(alpha));
  return collapsed_loss(K_, alpha, tau) - (directions_ == SplitDirections::shared ? gain : alpha * gain);
}

void SymmetricSplit::require_dimension(int d) const {
  const int needed = min_dimension(K_, directions_);
  if (d < needed) {
    throw InvalidArgument("d", "must be >= " + std::to_string(needed) + " for the " + to_string(directions_) +
                                   " split of K = " + std::to_string(K_) + " classes, got " + std::to_string(d));
  }
}

std::optional<double> SymmetricSplit::exact_crossover(double tau, int d) const {
  require_dimension(d);
  // f(alpha) = L(split at theta*(alpha)) - L(sigma), continuous on [threshold, bound] since
  // theta* runs from 0 to pi/2 there.
  const auto f = [&](double alpha) {
    const double theta = std::asin(std::sqrt(sin2_theta_star_clamped(alpha, tau)));
    return loss(theta, alpha, tau) - uniform_loss(alpha, tau, d);
  };
  const double lo = threshold(), hi = existence_bound(tau);
  const double f_lo = f(lo), f_hi = f(hi);
  // f(threshold) = -1/tau - log W < 0 (Jensen: W > e^{-1/tau}); no sign change, no crossover.
  if (!(f_lo < 0.0) || !(f_hi > 0.0)) return std::nullopt;
  boost::uintmax_t iterations = 200;
  const auto bracket = boost::math::tools::toms748_solve(
      f, lo, hi, f_lo, f_hi, boost::math::tools::eps_tolerance<double>(52), iterations);
  return 0.5 * (bracket.first + bracket.second);
}

Matrix SymmetricSplit::points(int ny, int d, double theta) const {
  require_dimension(d);
  require_at_least("ny", ny, 2);
  if (ny % 2 != 0) throw InvalidArgument("ny", "must be even (half of each class on each atom), got " + std::to_string(ny));
  require_finite("theta", theta);
  // regular_simplex spans coordinates 0..K-2; the split directions are the next ones.
  const Matrix vertices = regular_simplex(K_, d);
  Matrix result(d, static_cast<Index>(K_) * ny);
  for (int y = 0; y < K_; ++y) {
    const Index w = directions_ == SplitDirections::shared ? K_ - 1 : K_ - 1 + y;
    for (int i = 0; i < ny; ++i) {
      auto column = result.col(static_cast<Index>(y) * ny + i);
      column = std::cos(theta) * vertices.col(y);
      column(w) += (i < ny / 2 ? 1.0 : -1.0) * std::sin(theta);
    }
  }
  return result;
}

std::optional<double> relaxed_window_end(int K, double tau, int d) {
  require_at_least("K", K, 2);
  require_positive("tau", tau);
  const double log_w = log_wiener_constant(tau, d);
  const double inv = 1.0 / tau;
  const double radicand = inv * (inv - 2.0) - 2.0 * log_w;
  if (radicand < 0.0) return std::nullopt;
  const double km1 = K - 1.0;
  return (K + km1 * inv - km1 * std::sqrt(radicand)) / (2.0 * K - 1.0);
}

}  // namespace geomsim
