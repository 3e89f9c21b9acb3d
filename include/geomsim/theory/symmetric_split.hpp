#pragma once
// The symmetric split for K classes: the general-K family that seed 004 leaves open
// (derivation: theory/general-k-symmetric-split.md).
//
// Class y is (delta_{u+} + delta_{u-})/2 with u± = cos(theta) v_y ± sin(theta) w_y, where
// v_1..v_K is the regular simplex (v_y . v_y' = -1/(K-1)) and the unit vectors w_y are
// orthogonal to the simplex span. Two choices of the w_y are closed-form:
//   shared      w_y = e for every class: needs d >= K. For K = 2 this is Theorem 2's mu_theta.
//   orthogonal  the w_y mutually orthogonal: needs d >= 2K - 1.
// With s = sin^2(theta) and x = 2s/tau (sigmoid p = 1/(1 + e^-x)), the asymptotic L_spread is
//   shared:     -log 2 - (1-alpha)K/((K-1)tau) + (1-alpha)x/(2(K-1)) + (1-alpha) log(1+e^x) + alpha log(1+e^-x)
//   orthogonal: -alpha log 2 - (1-alpha)K/((K-1)tau) + (1-alpha)K x/(2(K-1)) + alpha log(1+e^-x)
// Both are convex in x, and both leave collapse at the same alpha, K/(2K-1) (2/3, 3/5, 4/7, ...):
// to first order in s every centred spread orthogonal to the simplex has
// dL/ds = ((1-alpha)K/(K-1) - alpha)/tau.
// Their minimisers and minima (H is the binary entropy, in nats):
//   shared:     p* = alpha - (1-alpha)/(2(K-1)),    L* = L(delta) - (log 2 - H(p*))
//   orthogonal: p* = 1 - (1-alpha)K/(2 alpha(K-1)), L* = L(delta) - alpha (log 2 - H(p*))
// and sin^2 theta* = tau/2 logit(p*), which needs sin^2 theta* <= 1 (the existence bound).
//
// What the optimizer finds (tests/theory/test_symmetric_split.cpp): at d = K the shared split is the
// optimum for K = 2..6. For d > K it is not: the classes spread into caps of the orthogonal
// complement, with a loss below both closed forms; the threshold K/(2K-1) still holds.
#include <optional>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

enum class SplitDirections { shared, orthogonal };

// "shared" or "orthogonal".
const char* to_string(SplitDirections directions);

// The smallest ambient dimension in which the family exists: K (shared), 2K - 1 (orthogonal).
int min_dimension(int K, SplitDirections directions);

class SymmetricSplit {
 public:
  // K >= 2 classes.
  explicit SymmetricSplit(int K, SplitDirections directions = SplitDirections::shared);

  int num_classes() const { return K_; }
  SplitDirections directions() const { return directions_; }

  // The asymptotic L_spread of the family at angle theta (radians).
  double loss(double theta, double alpha, double tau) const;

  // K/(2K-1): above it the split beats collapse, at or below it theta* = 0.
  double threshold() const;

  // The alpha at which sin^2 theta* reaches 1; theta* exists only below it. For K = 2,
  // shared: (3e^{2/tau}+1)/(3e^{2/tau}+3). Computed without overflow (1 for tiny tau).
  double existence_bound(double tau) const;

  // The minimiser of loss() over theta for threshold() < alpha < existence_bound(tau);
  // nullopt otherwise.
  std::optional<double> theta_star(double alpha, double tau) const;

  // The spread s(y) = sin theta* (the distance of each atom to its class mean).
  std::optional<double> spread(double alpha, double tau) const;

  // loss(theta*, alpha, tau) from the entropy form above.
  std::optional<double> min_loss(double alpha, double tau) const;

  // The exact end of the window in which the split beats the uniform measure on S^{d-1}:
  // the alpha in (threshold, existence_bound) where min_loss = L(sigma) = log W + (1-alpha)/tau,
  // by TOMS748 to full precision. nullopt when there is no sign change. Requires
  // d >= min_dimension(K, directions).
  std::optional<double> exact_crossover(double tau, int d) const;

  // The points of the family: n_y (even) per class on S^{d-1}, class y in columns
  // [y n_y, (y+1) n_y), half at u+ and half at u-. Requires d >= min_dimension.
  Matrix points(int ny, int d, double theta) const;

 private:
  // The sigmoid p* of 2 sin^2(theta*)/tau at the minimum (above the threshold, in (1/2, 1)).
  double p_star(double alpha) const;
  // sin^2 theta* = tau/2 logit(p*), continued by 0 at or below the threshold and by 1 beyond the bound.
  double sin2_theta_star_clamped(double alpha, double tau) const;
  void require_dimension(int d) const;

  int K_;
  SplitDirections directions_;
};

// The paper's relaxation of the window's end, generalised to K classes (shared split):
//   c_K(tau, d) = (K + (K-1)/tau - (K-1) sqrt(1/tau^2 - 2/tau - 2 log W)) / (2K - 1),
// which is Theorem 2's c(tau, d) at K = 2. It is the root of
//   2(p* - 1/2)^2 + (1-alpha)(2K-1)/((K-1)tau) + log W = 0
// that follows from H(p) <= log 2 - 2(p - 1/2)^2. nullopt where the radicand is negative.
std::optional<double> relaxed_window_end(int K, double tau, int d);

}  // namespace geomsim
