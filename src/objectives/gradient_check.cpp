#include "geomsim/objectives/gradient_check.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "geomsim/support/random.hpp"

namespace geomsim {

GradientCheckReport check_gradient(const Objective& objective, const Matrix& U, std::uint64_t seed) {
  Rng rng(seed);
  Matrix V(U.rows(), U.cols());
  for (Index k = 0; k < V.size(); ++k) V.data()[k] = rng.normal();
  V /= V.norm();

  Matrix gradient(U.rows(), U.cols());
  objective.evaluate_with_gradient(U, gradient);
  GradientCheckReport report;
  report.directional_derivative = (gradient.array() * V.array()).sum();
  report.best_absolute_error = std::numeric_limits<double>::infinity();
  for (int k = 2; k <= 16; ++k) {
    const double h = std::pow(10.0, -0.5 * k);
    const double fd = (objective.evaluate(U + h * V) - objective.evaluate(U - h * V)) / (2.0 * h);
    const double err = std::abs(fd - report.directional_derivative);
    report.steps.push_back({h, fd, err});
    if (err < report.best_absolute_error) {
      report.best_absolute_error = err;
      report.best_step = h;
    }
  }
  const double scale = std::max(std::abs(report.directional_derivative), gradient.norm());
  report.relative_error = scale > 0.0 ? report.best_absolute_error / scale : report.best_absolute_error;
  return report;
}

std::string GradientCheckReport::table() const {
  std::string out = "directional derivative " + std::to_string(directional_derivative) + "\n";
  char line[128];
  for (const auto& s : steps) {
    std::snprintf(line, sizeof line, "  h = %.1e  fd = % .15e  |error| = %.3e\n", s.step, s.finite_difference,
                  s.absolute_error);
    out += line;
  }
  return out;
}

}  // namespace geomsim
