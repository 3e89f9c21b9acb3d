#include "geomsim/solvers/rlbfgs_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <string>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "solvers/manifold_solver_steps.hpp"

namespace geomsim {
namespace {

struct Pair {
  Matrix s, y;
  double rho;  // 1 / <s, y>
};

// The two-loop recursion: returns -H g for the L-BFGS inverse-Hessian approximation H.
Matrix lbfgs_direction(const Matrix& g, const std::deque<Pair>& pairs) {
  Matrix q = g;
  std::vector<double> a(pairs.size());
  for (std::size_t k = pairs.size(); k-- > 0;) {
    a[k] = pairs[k].rho * inner(pairs[k].s, q);
    q -= a[k] * pairs[k].y;
  }
  if (!pairs.empty()) {  // initial Hessian gamma I with gamma = <s,y> / <y,y> of the newest pair
    const Pair& last = pairs.back();
    q *= 1.0 / (last.rho * last.y.squaredNorm());
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double b = pairs[k].rho * inner(pairs[k].y, q);
    q += (a[k] - b) * pairs[k].s;
  }
  return -q;
}

}  // namespace

std::vector<std::pair<std::string, double>> RlbfgsSolver::settings() const {
  return {{"memory", options_.memory},
          {"gradient_tolerance", options_.gradient_tolerance},
          {"ftol", options_.ftol},
          {"ftol_window", options_.ftol_window},
          {"max_iterations", options_.max_iterations},
          {"max_seconds", options_.max_seconds},
          {"stationarity_tolerance", options_.stationarity_tolerance}};
}

double RlbfgsSolver::state_bytes(Index num_points, Index dim) const {
  return 8.0 * static_cast<double>(num_points) * static_cast<double>(dim) * (2.0 * std::max(options_.memory, 1) + 12.0);
}

SolveSummary RlbfgsSolver::minimize(const Objective& objective, Matrix& U) const {
  const auto start = std::chrono::steady_clock::now();
  require_at_least("memory", options_.memory, 1);
  auto [f, G, g] = detail::start_on_sphere(objective, U);
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  SolveSummary summary;
  summary.evaluations = 1;
  std::deque<Pair> pairs;
  detail::LossChangeTest loss_change(options_.ftol, options_.ftol_window);
  summary.status = SolveStatus::kMaxEvaluationsReached;
  summary.message = "iteration budget (max_iterations) used up";

  for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
    if (detail::should_stop(f, g, G, options_.gradient_tolerance, options_.max_seconds, elapsed(), summary)) break;
    Matrix p = lbfgs_direction(g, pairs);
    double slope = inner(g, p);
    if (!(slope < 0.0)) {  // not a descent direction: forget the curvature pairs
      pairs.clear();
      p = -g;
      slope = -g.squaredNorm();
    }
    // Without curvature information, start with a step that moves no point by more
    // than 0.1 (radians, to first order).
    double t = pairs.empty() ? std::min(1.0, 0.1 / p.colwise().norm().maxCoeff()) : 1.0;
    Matrix U_next, G_next(U.rows(), U.cols());
    double f_next = 0.0;
    bool accepted = false;
    for (int backtrack = 0; backtrack < 60; ++backtrack) {
      U_next = retract(U, t * p);
      f_next = objective.evaluate_with_gradient(U_next, G_next);
      ++summary.evaluations;
      if (f_next <= f + 1e-4 * t * slope) {  // Armijo sufficient decrease
        accepted = true;
        break;
      }
      t *= 0.5;
    }
    if (!accepted) {
      if (!pairs.empty()) {  // the quasi-Newton model misled: retry along -g
        pairs.clear();
        continue;
      }
      summary.status = SolveStatus::kRoundoffLimited;
      summary.message = "no decrease along the negative gradient (roundoff limited)";
      break;
    }
    ++summary.iterations;
    Matrix g_next = project_to_tangent(U_next, G_next);
    Matrix s = project_to_tangent(U_next, t * p);
    Matrix y = g_next - project_to_tangent(U_next, g);
    for (auto& pair : pairs) {  // move the stored pairs to the new tangent space
      project_onto_tangent(U_next, pair.s);
      project_onto_tangent(U_next, pair.y);
    }
    const double sy = inner(s, y);
    if (sy > 1e-10 * s.norm() * y.norm()) {  // cautious update: keep only positive curvature
      pairs.push_back({std::move(s), std::move(y), 1.0 / sy});
      if (static_cast<int>(pairs.size()) > options_.memory) pairs.pop_front();
    }
    const double f_before = f;
    U.swap(U_next);
    G.swap(G_next);
    g.swap(g_next);
    f = f_next;
    if (loss_change.record(f_before, f, summary)) break;
  }

  detail::finish(f, U, g, G, options_.stationarity_tolerance, summary);
  summary.seconds = elapsed();
  return summary;
}

}  // namespace geomsim
