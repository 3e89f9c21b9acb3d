#include "geomsim/solvers/trust_region_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <string>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "solvers/manifold_solver_steps.hpp"
#include "solvers/riemannian_hessian.hpp"

namespace geomsim {
namespace {

struct InnerResult {
  Matrix eta, Heta;
  bool reached_boundary = false;
  int iterations = 0;
};

// Steihaug-Toint truncated CG for min <g, eta> + 1/2 <eta, H eta> with |eta| <= radius.
// `out_of_time` ends it early (after one step, which is Cauchy's: still a descent step in the
// region), so that --max-seconds holds where one product takes seconds (N = 2e4, d = 128).
template <class OutOfTime>
InnerResult truncated_cg(const detail::RiemannianHessian& H, const Matrix& U, const Matrix& g, double radius,
                         double residual_floor, const TrustRegionSolver::Options& o, OutOfTime&& out_of_time) {
  InnerResult out;
  out.eta = Matrix::Zero(g.rows(), g.cols());
  out.Heta = out.eta;
  Matrix r = g, delta = -g;
  double r_r = r.squaredNorm();
  const double r0 = std::sqrt(r_r);
  // Manopt's target, but never below what the outer stopping test needs: residuals under
  // that floor are rounding noise, and chasing them drives CG into the symmetry modes.
  const double target = std::max(r0 * std::min(std::pow(r0, o.theta), o.kappa), residual_floor);
  double e_e = 0.0, e_d = 0.0, d_d = r_r;  // |eta|^2, <eta, delta>, |delta|^2
  for (int j = 0; j < o.max_inner_iterations; ++j) {
    const Matrix Hd = H.apply(delta);
    const double curvature = inner(delta, Hd);
    const double a = r_r / curvature;
    const double e_e_next = e_e + 2.0 * a * e_d + a * a * d_d;
    if (!(curvature > 0.0) || e_e_next >= radius * radius) {
      // Negative curvature or leaving the region: go to the boundary along delta.
      const double step = (-e_d + std::sqrt(e_d * e_d + d_d * (radius * radius - e_e))) / d_d;
      out.eta += step * delta;
      out.Heta += step * Hd;
      out.reached_boundary = true;
      out.iterations = j + 1;
      return out;
    }
    out.eta += a * delta;
    out.Heta += a * Hd;
    e_e = e_e_next;
    r += a * Hd;
    r = project_to_tangent(U, r);  // keep rounding from leaving the tangent space
    const double r_r_next = r.squaredNorm();
    out.iterations = j + 1;
    if (std::sqrt(r_r_next) <= target || out_of_time()) break;
    const double beta = r_r_next / r_r;
    r_r = r_r_next;
    delta = beta * delta - r;
    e_d = beta * (e_d + a * d_d);
    d_d = r_r + beta * beta * d_d;
  }
  return out;
}

}  // namespace

std::vector<std::pair<std::string, double>> TrustRegionSolver::settings() const {
  return {{"gradient_tolerance", options_.gradient_tolerance},
          {"ftol", options_.ftol},
          {"ftol_window", options_.ftol_window},
          {"max_iterations", options_.max_iterations},
          {"max_inner_iterations", options_.max_inner_iterations},
          {"max_seconds", options_.max_seconds},
          {"kappa", options_.kappa},
          {"theta", options_.theta},
          {"rho_prime", options_.rho_prime},
          {"radius_per_sqrt_point", options_.radius_per_sqrt_point},
          {"stationarity_tolerance", options_.stationarity_tolerance}};
}

double TrustRegionSolver::state_bytes(Index num_points, Index dim) const {
  return 8.0 * 14.0 * static_cast<double>(num_points) * static_cast<double>(dim);
}

SolveSummary TrustRegionSolver::minimize(const Objective& objective, Matrix& U) const {
  const auto start = std::chrono::steady_clock::now();
  require_positive("radius_per_sqrt_point", options_.radius_per_sqrt_point);
  auto [f, G, g] = detail::start_on_sphere(objective, U);
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  SolveSummary summary;
  summary.evaluations = 1;
  const double max_radius = options_.radius_per_sqrt_point * std::sqrt(static_cast<double>(U.cols()));
  double radius = max_radius / 8.0;
  summary.status = SolveStatus::kMaxEvaluationsReached;
  summary.message = "iteration budget (max_iterations) used up";
  detail::LossChangeTest loss_change(options_.ftol, options_.ftol_window);

  for (int iteration = 0; iteration < options_.max_iterations; ++iteration) {
    if (detail::should_stop(f, g, G, options_.gradient_tolerance, options_.max_seconds, elapsed(), summary)) break;
    const detail::RiemannianHessian H(objective, U, G, g, summary.evaluations);
    // Propose steps, shrinking the region, until one is accepted (the Hessian stays valid
    // while U does not move).
    bool accepted = false;
    const double f_before = f;
    while (!accepted) {
      const InnerResult step = truncated_cg(H, U, g, radius, 0.1 * options_.gradient_tolerance * G.norm(), options_,
                                            [&] { return options_.max_seconds > 0.0 && elapsed() >= options_.max_seconds; });
      const double model_decrease = -(inner(g, step.eta) + 0.5 * inner(step.eta, step.Heta));
      Matrix U_next = retract(U, step.eta), G_next(U.rows(), U.cols());
      const double f_next = objective.evaluate_with_gradient(U_next, G_next);
      ++summary.evaluations;
      // Manopt's regularisation: near convergence both decreases are at rounding level.
      const double slack = std::max(1.0, std::abs(f)) * 1e3 * std::numeric_limits<double>::epsilon();
      const double rho = (f - f_next + slack) / (model_decrease + slack);
      if (rho < 0.25 || !std::isfinite(f_next)) {
        radius /= 4.0;
      } else if (rho > 0.75 && step.reached_boundary) {
        radius = std::min(2.0 * radius, max_radius);
      }
      if (rho > options_.rho_prime && model_decrease > 0.0 && std::isfinite(f_next)) {
        U.swap(U_next);
        G.swap(G_next);
        f = f_next;
        g = project_to_tangent(U, G);
        accepted = true;
      } else if (radius < 1e-14 * max_radius) {
        break;
      }
    }
    if (!accepted) {
      summary.status = SolveStatus::kRoundoffLimited;
      summary.message = "the trust region shrank to rounding level without an accepted step";
      break;
    }
    ++summary.iterations;
    if (loss_change.record(f_before, f, summary)) break;
  }

  detail::finish(f, U, g, G, options_.stationarity_tolerance, summary);
  summary.seconds = elapsed();
  return summary;
}

}  // namespace geomsim
