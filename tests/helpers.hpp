#pragma once
// Point sets with known geometry, shared by the tests.
#include <cmath>

#include "geomsim/sphere.hpp"

namespace geomsim::testing {

// seed 004's mu_theta for K = 2 (Theorem 2): class y sits at +-v rotated by +-theta
// towards w, a direction orthogonal to the simplex span; half of each class at each
// atom. Here v = e_1, w = e_2 (d >= 2), so class 0 = (cos t, +-sin t), class 1 =
// (-cos t, +-sin t). Each class's spread is exactly sin(theta).
inline PointSet mu_theta(int ny, int d, double theta) {
  PointSet set;
  set.labels = balanced_labels(2, ny);
  set.points = Matrix::Zero(d, 2 * ny);
  for (int i = 0; i < 2 * ny; ++i) {
    const double sign_v = set.labels[static_cast<std::size_t>(i)] == 0 ? 1.0 : -1.0;
    const double sign_w = (i % ny) < ny / 2 ? 1.0 : -1.0;
    set.points(0, i) = sign_v * std::cos(theta);
    set.points(1, i) = sign_w * std::sin(theta);
  }
  return set;
}

// Theorem 2 of seed 004: L(mu_theta, alpha) = -log 2 - 2(1-alpha)/tau
//   + (1-alpha) log(1+e^x) + alpha log(1+e^-x) + (1-alpha) sin^2(theta)/tau, x = 2 sin^2(theta)/tau.
inline double mu_theta_loss(double theta, double alpha, double tau) {
  const double s2 = std::sin(theta) * std::sin(theta), x = 2 * s2 / tau;
  return -std::log(2.0) - 2 * (1 - alpha) / tau + (1 - alpha) * std::log1p(std::exp(x)) +
         alpha * std::log1p(std::exp(-x)) + (1 - alpha) * s2 / tau;
}

}  // namespace geomsim::testing
