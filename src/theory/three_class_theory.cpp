#include "geomsim/theory/three_class_theory.hpp"

#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim {

double three_class_rotation_loss(double theta, double alpha, double tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  require_finite("theta", theta);
  const double t = 1.0 - std::cos(theta);
  const double s = 0.5 / tau;  // exp(-D / 2 tau) = exp(-s D)
  const auto e = [&](double D) { return std::exp(-s * D); };
  // Class 0 sees the other classes at 3 (same-side atoms) and 3 - t (across sides);
  // classes 1 and 2 see class 0 at 3 and 3 - t, and each other at 3 and 3 + t/2.
  const double different = (1.0 / 3.0) * std::log(0.5 * e(3.0) + 0.5 * e(3.0 - t)) +
                           (2.0 / 3.0) * std::log(0.5 * e(3.0) + 0.25 * e(3.0 - t) + 0.25 * e(3.0 + 0.5 * t));
  const double same = (1.0 / 3.0) * std::log(0.5 + 0.5 * e(2.0 * t)) + (2.0 / 3.0) * std::log(0.5 + 0.5 * e(0.5 * t));
  const double alignment = s * ((1.0 / 3.0) * 0.5 * (2.0 * t) + (2.0 / 3.0) * 0.5 * (0.5 * t));
  return (1.0 - alpha) * different + alpha * same + (1.0 - alpha) * alignment;
}

double three_class_rotation_slope(double alpha, double tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  return (0.375 * (1.0 - alpha) - 0.25 * alpha) / tau;
}

}  // namespace geomsim
