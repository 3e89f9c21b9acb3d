#include "geomsim/solvers/rlbfgs_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "solvers/manifold_solver_steps.hpp"

namespace geomsim {
namespace {

// The curvature pairs (s_k, y_k), oldest first, in a ring of `capacity` preallocated slots:
// after the first `capacity` iterations an iteration allocates nothing for them.
class PairMemory {
 public:
  explicit PairMemory(int capacity) : s_(static_cast<std::size_t>(capacity)), y_(s_.size()), rho_(s_.size()) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() { size_ = 0; }
  const Matrix& s(std::size_t k) const { return s_[slot(k)]; }
  const Matrix& y(std::size_t k) const { return y_[slot(k)]; }
  double rho(std::size_t k) const { return rho_[slot(k)]; }

  // Appends (s, y) with rho = 1 / <s, y>, dropping the oldest pair when full. s and y are
  // swapped into the ring; they come back holding the dropped slot's storage.
  void push(Matrix& s, Matrix& y, double rho) {
    if (size_ == s_.size()) {
      first_ = (first_ + 1) % s_.size();
      --size_;
    }
    const std::size_t k = slot(size_++);
    s_[k].swap(s);
    y_[k].swap(y);
    rho_[k] = rho;
  }

  // Vector transport of every stored vector to the tangent space at U.
  void transport(const Matrix& U) {
    for (std::size_t k = 0; k < size_; ++k) {
      project_onto_tangent(U, s_[slot(k)]);
      project_onto_tangent(U, y_[slot(k)]);
    }
  }

 private:
  std::size_t slot(std::size_t k) const { return (first_ + k) % s_.size(); }
  std::vector<Matrix> s_, y_;
  std::vector<double> rho_;
  std::size_t first_ = 0, size_ = 0;
};

// The two-loop recursion: q = -H g for the L-BFGS inverse-Hessian approximation H. `a` is
// scratch space of the memory's capacity.
void lbfgs_direction(const Matrix& g, const PairMemory& pairs, std::vector<double>& a, Matrix& q) {
  q = g;
  for (std::size_t k = pairs.size(); k-- > 0;) {
    a[k] = pairs.rho(k) * inner(pairs.s(k), q);
    q -= a[k] * pairs.y(k);
  }
  if (!pairs.empty()) {  // initial Hessian gamma I with gamma = <s,y> / <y,y> of the newest pair
    const std::size_t last = pairs.size() - 1;
    q *= 1.0 / (pairs.rho(last) * pairs.y(last).squaredNorm());
  }
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const double b = pairs.rho(k) * inner(pairs.y(k), q);
    q += (a[k] - b) * pairs.s(k);
  }
  q = -q;
}

// Armijo's test, f(t) <= f(0) + c t f'(0) with c = 1e-4, on the values while they can tell,
// and on the slopes where they cannot. Near a minimum the first-order decrease t |f'(0)| falls
// below the loss's rounding (relative 1e-12 here: a sum of N log-sum-exps), and the values'
// test then passes or fails by the last bits' luck: a portable (SSE2) build ended the N = 2000,
// d = 32, alpha = 0.5 solve by ftol at stationarity 1.3e-8 after 370 evaluations, where a
// native one reached gtol in 48. There the test is the one Armijo's is for a quadratic along
// the line, written in slopes: f'(t) <= (2c - 1) f'(0), with f(t) within the rounding of
// f(0) (the decrease half of the approximate Wolfe conditions of Hager & Zhang, "A new
// conjugate gradient method with guaranteed descent and an efficient line search", SIAM J.
// Optim. 16(1):170-192).
// `slope_at_t` computes f'(t) from the trial's gradient, only when it is needed.
template <class SlopeAtT>
bool sufficient_decrease(double f, double f_next, double t, double slope, SlopeAtT slope_at_t) {
  constexpr double c = 1e-4;
  if (f_next <= f + c * t * slope) return true;
  const double rounding = 1e-12 * std::max(1.0, std::abs(f));
  if (!(f_next <= f + rounding) || -t * slope > rounding) return false;
  return slope_at_t() <= (2.0 * c - 1.0) * slope;
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
  PairMemory pairs(options_.memory);
  std::vector<double> scratch(static_cast<std::size_t>(options_.memory));
  detail::LossChangeTest loss_change(options_.ftol, options_.ftol_window);
  summary.status = SolveStatus::kMaxEvaluationsReached;
  summary.message = "iteration budget (max_iterations) used up";

  // Every d x N work matrix is allocated once, here, and reused by swaps.
  Matrix p, U_next, G_next(U.rows(), U.cols()), g_next(U.rows(), U.cols()), s(U.rows(), U.cols()),
      y(U.rows(), U.cols());
  for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
    if (detail::should_stop(f, g, G, options_.gradient_tolerance, options_.max_seconds, elapsed(), summary)) break;
    lbfgs_direction(g, pairs, scratch, p);
    double slope = inner(g, p);
    if (!(slope < 0.0)) {  // not a descent direction: forget the curvature pairs
      pairs.clear();
      p = -g;
      slope = -g.squaredNorm();
    }
    // Without curvature information, start with a step that moves no point by more
    // than 0.1 (radians, to first order).
    double t = pairs.empty() ? std::min(1.0, 0.1 / p.colwise().norm().maxCoeff()) : 1.0;
    double f_next = 0.0;
    bool accepted = false;
    for (int backtrack = 0; backtrack < 60; ++backtrack) {
      retract_step(U, t, p, U_next);
      f_next = objective.evaluate_with_gradient(U_next, G_next);
      ++summary.evaluations;
      if (sufficient_decrease(f, f_next, t, slope, [&] { return retraction_slope(U, t, p, G_next); })) {
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
    g_next = G_next;
    project_onto_tangent(U_next, g_next);
    s = t * p;
    project_onto_tangent(U_next, s);
    y = g;
    project_onto_tangent(U_next, y);
    y = g_next - y;
    pairs.transport(U_next);
    const double sy = inner(s, y);
    if (sy > 1e-10 * s.norm() * y.norm()) {  // cautious update: keep only positive curvature
      pairs.push(s, y, 1.0 / sy);
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
