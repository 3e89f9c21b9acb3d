#include "geomsim/experiments/spread_problem.hpp"

#include <chrono>

#include "geomsim/experiments/solve_memory.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

int SolveSettings::restarts_for(Index num_points, Index dim) const {
  if (restarts >= 0) return restarts;
  return num_points * dim <= kSmallProblemVariables ? kSmallProblemRestarts : 0;
}

int SpreadProblem::dim() const { return d == 0 ? std::max(K, 2) : d; }

void SpreadProblem::validate() const {
  require_at_least("K", K, 2);
  require_at_least("ny", ny, 1);
  if (d != 0) require_at_least("d", d, 2);
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_in_closed_range("tau", tau, kMinTemperature, kMaxTemperature);
}

void describe_points(SpreadSolution& out, const SpreadLoss& loss, Matrix points, const std::vector<int>& labels,
                     double cluster_tolerance) {
  const auto dim = static_cast<int>(points.rows());
  out.points.points = std::move(points);
  out.points.labels = labels;
  out.components = loss.components(out.points.points);
  out.loss = out.components.total();
  out.spread = class_spread(out.points.points, labels);
  out.geometry = summarize_geometry(out.points.points, labels, cluster_tolerance);
  if (loss.num_classes() <= dim + 1) out.collapsed_simplex_loss = loss.evaluate(collapsed_simplex(labels, dim));
}

SpreadSolution solve_spread_problem(const SpreadProblem& problem, const SolveSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  problem.validate();
  require_positive("cluster-tol", settings.cluster_tolerance);
  estimate_solve_memory(problem, settings).require();  // before anything of size N is allocated
  const int dim = problem.dim();
  const std::vector<int> labels = balanced_labels(problem.K, problem.ny);
  const SpreadLoss loss(labels, problem.alpha, problem.tau);
  auto solver = make_solver(settings.solver, settings.max_seconds);
  auto restart_solver = make_restart_solver(settings.solver, settings.max_seconds);
  std::string solver_device = "cpu";
  if (settings.adapt_solver) {
    if (auto adapted = settings.adapt_solver(*solver)) {
      solver = std::move(adapted);
      solver_device = settings.device;
    }
    if (restart_solver) {
      if (auto adapted = settings.adapt_solver(*restart_solver)) restart_solver = std::move(adapted);
    }
  }
  MultiStartOptions options;
  options.restarts = settings.restarts_for(loss.num_points(), dim);
  options.restart_solver = restart_solver.get();
  const std::unique_ptr<Objective> given =
      settings.objective ? settings.objective(labels, problem.alpha, problem.tau) : nullptr;
  MultiStartResult best = multi_start(*solver, given ? *given : static_cast<const Objective&>(loss), dim,
                                      settings.seeds, options);

  SpreadSolution out;
  out.problem = problem;
  out.problem.d = dim;
  out.settings = settings;
  out.solver = solver->name();
  out.solver_device = solver_device;
  out.solver_settings = solver->settings();
  describe_points(out, loss, std::move(best.points), labels, settings.cluster_tolerance);
  if (settings.certify) out.certificate = certify_second_order(loss, out.points.points);
  if (options.restarts > 0) {
    out.restart_solver = restart_solver ? restart_solver->name() : solver->name();
    if (restart_solver) out.restart_gradient_tolerance = kRestartScreenTolerance;
  }
  out.seed_runs = best.seed_runs;
  out.improvements = best.improvements;
  out.runs = std::move(best.runs);
  out.best_run = best.best_run;
  out.threads = best.threads;
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace geomsim
