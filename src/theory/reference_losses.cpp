#include "geomsim/theory/reference_losses.hpp"

#include "geomsim/support/errors.hpp"
#include "geomsim/theory/wiener_constant.hpp"

namespace geomsim {

double collapsed_loss(int K, double alpha, double tau) {
  require_at_least("K", K, 2);
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  return -(1.0 - alpha) * K / ((K - 1.0) * tau);
}

double uniform_loss(double alpha, double tau, int d) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  return log_wiener_constant(tau, d) + (1.0 - alpha) / tau;
}

}  // namespace geomsim
