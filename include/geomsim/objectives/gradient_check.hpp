#pragma once
// A one-call finite-difference check of any Objective's gradient, in the spirit of
// Manopt's checkgradient. Along a seeded random direction V (unit Frobenius norm) it
// compares the analytic directional derivative <grad f(U), V> with central
// differences (f(U + hV) - f(U - hV)) / 2h over a range of step sizes h. The
// truncation error falls as h^2 and the rounding error grows as eps/h, so the best
// step lies in between; the report keeps every step for plotting the error slope.
#include <cstdint>
#include <string>
#include <vector>

#include "geomsim/objectives/objective.hpp"

namespace geomsim {

struct GradientCheckStep {
  double step = 0.0;
  double finite_difference = 0.0;
  double absolute_error = 0.0;
};

struct GradientCheckReport {
  double directional_derivative = 0.0;  // <grad f(U), V>
  double best_absolute_error = 0.0;     // min over steps
  double best_step = 0.0;
  // best_absolute_error / max(|directional_derivative|, gradient Frobenius norm)
  double relative_error = 0.0;
  std::vector<GradientCheckStep> steps;
  std::string table() const;  // human-readable, one line per step
};

// Steps h = 10^-1, 10^-1.5, ..., 10^-8.
GradientCheckReport check_gradient(const Objective& objective, const Matrix& U, std::uint64_t seed = 0);

}  // namespace geomsim
