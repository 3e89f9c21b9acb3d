// Seed 004, Appendix D.1: the K = 3 one-sided rotation and its threshold alpha = 3/5.
#include <boost/math/tools/minima.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/theory/three_class_theory.hpp"
#include "geomsim/theory/two_class_theory.hpp"

using namespace geomsim;

namespace {
// The construction as points: 2 of the 4 points of class y at v_y, 2 at R_theta v_y.
Matrix rotation_construction(double theta) {
  const double r3 = std::sqrt(3.0) / 2.0;
  Matrix v(3, 3);
  v << 1, -0.5, -0.5, 0, 0, 0, 0, r3, -r3;
  Matrix R = Matrix::Identity(3, 3);
  R(0, 0) = std::cos(theta);
  R(0, 1) = -std::sin(theta);
  R(1, 0) = std::sin(theta);
  R(1, 1) = std::cos(theta);
  Matrix points(3, 12);
  for (int y = 0; y < 3; ++y) {
    points.col(4 * y) = points.col(4 * y + 1) = v.col(y);
    points.col(4 * y + 2) = points.col(4 * y + 3) = R * v.col(y);
  }
  return points;
}
}  // namespace

TEST_CASE("Appendix D.1's K = 3 loss equals eq. (39)-(40) on the construction", "[theory][k3]") {
  // With an even split the empirical loss is the asymptotic one exactly, so this checks
  // the appendix's distances and its three terms.
  const double theta = GENERATE(0.0, 0.2, 0.7, 1.5, 3.0);
  const double alpha = GENERATE(0.3, 0.6, 0.9);
  const double tau = GENERATE(0.1, 0.5, 2.0);
  const SpreadLoss loss(balanced_labels(3, 4), alpha, tau);
  CHECK(loss.evaluate(rotation_construction(theta)) ==
        Approx(three_class_rotation_loss(theta, alpha, tau)).epsilon(1e-13).margin(1e-14));
  if (theta == 0.0) CHECK(three_class_rotation_loss(0.0, alpha, tau) == Approx(collapsed_loss(3, alpha, tau)).epsilon(1e-14));
}

TEST_CASE("The K = 3 rotation beats collapse exactly above alpha = 3/5", "[theory][k3]") {
  const double tau = GENERATE(0.1, 0.5, 2.0);
  // The slope in t = 1 - cos(theta) at 0, by a central difference of the closed form in
  // theta^2 (t ~ theta^2 / 2), has its root at 3/5.
  const auto slope = [&](double alpha) {
    const double h = 1e-4;
    return (three_class_rotation_loss(h, alpha, tau) - three_class_rotation_loss(0.0, alpha, tau)) / (1.0 - std::cos(h));
  };
  boost::uintmax_t iterations = 100;
  const auto root = boost::math::tools::toms748_solve(slope, 0.3, 0.9, boost::math::tools::eps_tolerance<double>(40), iterations);
  CHECK(0.5 * (root.first + root.second) == Approx(kThreeClassThreshold).margin(1e-6));
  CHECK(slope(0.62) == Approx(three_class_rotation_slope(0.62, tau)).epsilon(1e-3));
  // The minimising theta is 0 below the threshold and positive above it.
  for (double alpha : {0.58, 0.62, 0.7}) {
    boost::uintmax_t it = 200;
    const auto best = boost::math::tools::brent_find_minima(
        [&](double th) { return three_class_rotation_loss(th, alpha, tau); }, 0.0, M_PI, 40, it);
    if (alpha < kThreeClassThreshold) {
      CHECK(best.first < 1e-3);
    } else {
      CHECK(best.first > 1e-2);
      CHECK(best.second < collapsed_loss(3, alpha, tau));
    }
  }
}
