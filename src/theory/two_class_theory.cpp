#include "geomsim/theory/two_class_theory.hpp"

#include "geomsim/theory/symmetric_split.hpp"

// Theorem 2's mu_theta is the symmetric split of K = 2 classes along one shared direction;
// everything except the two reference measures is that family's K = 2 case.
namespace geomsim {
namespace {
const SymmetricSplit& mu_theta_family() {
  static const SymmetricSplit family(2, SplitDirections::shared);
  return family;
}
}  // namespace

double mu_theta_loss(double theta, double alpha, double tau) { return mu_theta_family().loss(theta, alpha, tau); }

double theta_star_existence_bound(double tau) { return mu_theta_family().existence_bound(tau); }

std::optional<double> theta_star(double alpha, double tau) { return mu_theta_family().theta_star(alpha, tau); }

std::optional<double> spread_star(double alpha, double tau) { return mu_theta_family().spread(alpha, tau); }

std::optional<double> c_threshold(double tau, int d) { return relaxed_window_end(2, tau, d); }

std::optional<double> exact_crossover(double tau, int d) { return mu_theta_family().exact_crossover(tau, d); }

}  // namespace geomsim
