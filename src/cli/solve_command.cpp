#include "solve_command.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "geomsim/experiments/solve_memory.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/cpu_level.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::cli {
namespace {

using nlohmann::json;

void add_problem_options(CLI::App& app, SpreadProblem& p) {
  app.add_option("--K", p.K, "number of classes K >= 2")->capture_default_str();
  app.add_option("--ny", p.ny, "points per class n_y >= 1 (N = K n_y)")->capture_default_str();
  app.add_option("--d", p.d, "ambient dimension d >= 2; the sphere is S^{d-1} (default: max(K, 2))")->check(at_least(2));
  app.add_option("--alpha", p.alpha, "weight of cNCE in L_spread, in [0, 1] (seed 004's convention)")
      ->capture_default_str();
  app.add_option("--tau", p.tau, "temperature tau in [" + format_number(kMinTemperature) + ", " + format_number(kMaxTemperature) +
                                     "] (where the solvers find the optimum)")
      ->capture_default_str();
}

json summary_json(const SolveSummary& s) {
  return {{"loss", s.loss},
          {"iterations", s.iterations},
          {"evaluations", s.evaluations},
          {"constraint_violation", s.constraint_violation},
          {"stationarity", s.stationarity},
          {"restarts", s.restarts},
          {"status", to_string(s.status)},
          {"converged", s.converged()},
          {"message", s.message}};
}

json solution_json(const SolveOptions& o, const SpreadSolution& s) {
  json runs = json::array();
  for (const auto& r : s.runs) {
    json j = summary_json(r.summary);
    j["seed"] = r.seed;
    j["restart"] = r.restart >= 0 ? json(r.restart) : json(nullptr);
    j["polish"] = r.polish;
    runs.push_back(j);
  }
  json classes = json::array();
  for (const auto& c : s.geometry.classes) classes.push_back({{"class", c.label}, {"atom_sizes", c.atom_sizes}});
  json out;
  out["command"] = "solve";
  out["objective"] = "spread_loss (seed 004, eq. 39-40)";
  out["parameters"] = {{"K", s.problem.K},
                       {"ny", s.problem.ny},
                       {"d", s.problem.d},
                       {"N", s.points.size()},
                       {"alpha", s.problem.alpha},
                       {"tau", s.problem.tau},
                       {"seeds", s.settings.seeds},
                       {"restarts", count_starts(s.runs) - s.seed_runs},
                       {"solver", o.solver},
                       {"device", s.settings.device},
                       {"cluster_tol", s.settings.cluster_tolerance}};
  out["solver"] = {{"name", s.solver},
                   {"restart_solver", s.restart_solver.empty() ? json(nullptr) : json(s.restart_solver)},
                   {"restart_gradient_tolerance",
                    s.restart_gradient_tolerance > 0.0 ? json(s.restart_gradient_tolerance) : json(nullptr)}};
  for (const auto& [key, value] : s.solver_settings) out["solver"][key] = value;
  out["result"] = {
      {"solver_device", s.solver_device},  // where the solver's state (iterate, gradients, pairs) lived
      {"loss", s.loss},
      {"components",
       {{"different_class", s.components.different_class},
        {"same_class", s.components.same_class},
        {"alignment", s.components.alignment}}},
      {"spread", {{"mean", s.spread.mean}, {"per_class", s.spread.per_class}}},
      {"geometry",
       {{"kind", to_string(s.geometry.kind)}, {"description", s.geometry.describe()}, {"classes", classes}}},
      {"collapsed_simplex_loss", s.collapsed_simplex_loss ? json(*s.collapsed_simplex_loss) : json(nullptr)},
      {"certificate", s.certificate ? json{{"kind", to_string(s.certificate->kind)},
                                           {"smallest_eigenvalue", s.certificate->smallest_eigenvalue},
                                           {"largest_eigenvalue", s.certificate->largest_eigenvalue},
                                           {"tolerance", s.certificate->tolerance},
                                           {"residual", s.certificate->residual},
                                           {"lanczos_steps", s.certificate->steps},
                                           {"converged", s.certificate->converged},
                                           {"smallest_is_bound", s.certificate->smallest_is_bound},
                                           {"rotation_modes", s.certificate->rotation_modes},
                                           {"dimension", s.certificate->dimension}}
                                      : json(nullptr)},
      {"constant_loss", s.problem.constant_loss()},
      {"best_seed", s.runs[s.best_run].seed},
      {"best_restart", s.runs[s.best_run].restart >= 0 ? json(s.runs[s.best_run].restart) : json(nullptr)},
      {"starts", count_starts(s.runs)},
      {"improvements", s.improvements},
      {"runs", runs}};
  // The CPU level the dispatched kernels ran at (support/cpu_level.hpp): the same settings at
  // another level may give results that differ in their last bits.
  out["cpu_level"] = cpu_level_name(cpu_level());
  // Everything that may differ between identical runs lives here and only here.
  out["timing"] = {{"seconds", s.seconds}, {"threads", s.threads}};
  return out;
}

std::string points_csv(const PointSet& set) {
  std::ostringstream csv;
  csv << std::setprecision(std::numeric_limits<double>::max_digits10);
  for (Index r = 0; r < set.dim(); ++r) csv << "x" << r + 1 << ",";
  csv << "class\n";
  for (Index i = 0; i < set.size(); ++i) {
    for (Index r = 0; r < set.dim(); ++r) csv << set.points(r, i) << ",";
    csv << set.labels[static_cast<std::size_t>(i)] << "\n";
  }
  return csv.str();
}

std::string cosines_csv(const PointSet& set) {
  const auto cos = cosine_similarity_by_class(set);
  std::ostringstream csv;
  csv << std::setprecision(std::numeric_limits<double>::max_digits10);
  csv << "index,class";
  for (Index b = 0; b < cos.matrix.cols(); ++b) csv << ",p" << cos.order[static_cast<std::size_t>(b)];
  csv << "\n";
  for (Index a = 0; a < cos.matrix.rows(); ++a) {
    const Index i = cos.order[static_cast<std::size_t>(a)];
    csv << i << "," << set.labels[static_cast<std::size_t>(i)];
    for (Index b = 0; b < cos.matrix.cols(); ++b) csv << "," << cos.matrix(a, b);
    csv << "\n";
  }
  return csv.str();
}

void print_report(std::ostream& out, const SpreadSolution& s) {
  const auto& p = s.problem;
  const auto line = [&](const std::string& label, const std::string& value) {
    out << "  " << std::left << std::setw(26) << label << value << "\n";
  };
  out << "geomsim: optimal geometry of L_spread (seed 004, eq. 39-40)\n";
  line("parameters", "K = " + std::to_string(p.K) + ", n_y = " + std::to_string(p.ny) + ", d = " +
                         std::to_string(p.d) + " (N = " + std::to_string(s.points.size()) + " points on S^" +
                         std::to_string(p.d - 1) + "), alpha = " + fixed(p.alpha, 6) + ", tau = " + fixed(p.tau, 6));
  const auto& best = s.runs[s.best_run];
  const std::size_t restarts = count_starts(s.runs) - s.seed_runs;
  line("solver", s.solver + ", best of seeds " + format_seed_list(s.settings.seeds) +
                     (restarts > 0 ? " and " + std::to_string(restarts) + " restarts (" + s.restart_solver + ")"
                                   : std::string()) +
                     (s.settings.device != "cpu" ? " on " + s.settings.device : std::string()) + ": " +
                     std::to_string(count_starts(s.runs)) + " starts (seed " + std::to_string(best.seed) +
                     (best.restart >= 0 ? ", restart " + std::to_string(best.restart) : std::string()) +
                     (best.polish ? " polished by " + s.solver : std::string()) + " wins)");
  out << "\n";
  line("loss", fixed(s.loss, 12));
  line("  different-class term", fixed(s.components.different_class, 12));
  line("  same-class term", fixed(s.components.same_class, 12));
  line("  alignment term", fixed(s.components.alignment, 12));
  if (p.constant_loss()) {
    line("collapsed simplex loss", fixed(s.collapsed_simplex_loss.value_or(0.0), 12) +
                                       "  (the loss is constant: at alpha = 1 only the same-class term counts, and with "
                                       "n_y = 1 it is 0 for every configuration, so every one is optimal)");
  } else if (s.collapsed_simplex_loss) {
    // The collapsed simplex is one configuration the solver could have found: a best run above it
    // is a solve that did not reach the optimum, never "the optimum is the collapsed simplex".
    const double collapsed = *s.collapsed_simplex_loss, gap = collapsed - s.loss;
    const double rounding = 1e-9 * std::max(1.0, std::abs(collapsed));
    const std::string verdict = gap > rounding    ? "optimum is lower by " + fixed(gap, 4)
                                : gap >= -rounding ? std::string("optimum is the collapsed simplex")
                                                   : "the best run is above it by " + fixed(-gap, 4) +
                                                         ": the solver did not reach the optimum";
    line("collapsed simplex loss", fixed(collapsed, 12) + "  (" + verdict + ")");
  } else {
    line("collapsed simplex loss", "n/a (K > d + 1: no regular simplex)");
  }
  std::string per_class;
  for (double v : s.spread.per_class) per_class += (per_class.empty() ? "" : ", ") + fixed(v, 6);
  line("spread s(y)", fixed(s.spread.mean, 8) + "  (per class: " + per_class + ")");
  line("geometry", s.geometry.describe() + " at tolerance " + fixed(s.geometry.tolerance, 3));
  if (s.certificate) line("second order", s.certificate->describe());
  out << "\n  runs:  seed  loss                 iterations  evaluations  stationarity  stop\n";
  for (std::size_t k = 0; k < s.seed_runs; ++k) {
    const auto& r = s.runs[k];
    out << "      " << (k == s.best_run ? "* " : "  ") << std::left << std::setw(6) << r.seed << std::setw(21)
        << fixed(r.summary.loss, 14) << std::setw(12) << r.summary.iterations << std::setw(13)
        << r.summary.evaluations << std::setw(14) << fixed(r.summary.stationarity, 2)
        << to_string(r.summary.status) << "\n";
  }
  if (restarts > 0) {
    std::size_t converged = 0;
    for (std::size_t k = s.seed_runs; k < s.runs.size(); ++k) {
      converged += !s.runs[k].polish && s.runs[k].summary.converged() ? 1 : 0;
    }
    std::string best_line = "none beat the best seed";
    if (best.restart >= 0) {
      best_line = "restart " + std::to_string(best.restart) + (best.polish ? " polished by " + s.solver : std::string()) +
                  " (*) is best, loss " + fixed(best.summary.loss, 14) + ", stationarity " +
                  fixed(best.summary.stationarity, 2) + ", " + to_string(best.summary.status);
    }
    const bool screen = s.restart_gradient_tolerance > 0.0;
    out << "      + " << restarts << " restarts by " << s.restart_solver
        << (screen ? " to stationarity " + fixed(s.restart_gradient_tolerance, 1) : std::string())
        << " (fresh starts and perturbations of the best run): " << converged << " converged, " << s.improvements
        << " lowered the loss" << (screen && s.improvements > 0 ? " (each then finished by " + s.solver + ")" : std::string())
        << "; " << best_line << "\n";
  }
  out << "\n";
  line("time", fixed(s.seconds, 3) + " s (" + std::to_string(s.threads) + (s.threads == 1 ? " thread)" : " threads)"));
}

}  // namespace

void add_solve_options(CLI::App& app, SolveOptions& o) {
  add_problem_options(app, o.problem);
  app.add_option("--seeds", o.seeds, "random starts, e.g. 0:4, 0:19:2 or 1,5,7; the best run is kept")
      ->capture_default_str();
  app.add_option("--solver", o.solver, "auto (the default: rlbfgs), rlbfgs (Riemannian L-BFGS: the same optima as SLSQP, in milliseconds), slsqp (SLSQP, the method the paper names: NLopt's, its tolerances ours), or rtr (Riemannian trust regions with the exact Hessian: tighter stationarity)")
      ->capture_default_str();
  app.add_option("--max-seconds", o.max_seconds,
                 "wall-time cap per seed in seconds, 0 for none; a capped run reports 'max_time' and its stationarity")
      ->capture_default_str();
  app.add_option("--cluster-tol", o.cluster_tolerance,
                 "points of a class closer than this are one atom in the geometry summary")
      ->capture_default_str();
  o.restarts_option = app.add_option("--restarts", o.restarts, restarts_help());
  app.add_flag("--certify", o.certify,
               "certify the best run to second order: the smallest eigenvalue of the exact Riemannian Hessian beyond the "
               "rotation modes (Lanczos), and whether that makes it a local minimum, a saddle or flat (at a saddle, "
               "Lanczos stops once a Rayleigh quotient proves it and reports that upper bound)");
  app.add_option("--json", o.json_path, "write one JSON object with every parameter and result to FILE");
  app.add_option("--points", o.points_path, "write the optimal points as CSV (x1..xd, class) to FILE");
  app.add_option("--cosines", o.cosines_path, "write the cosine-similarity matrix, sorted by class, as CSV to FILE");
  app.add_flag("--quiet,-q", o.quiet, "print nothing on stdout (use with --json)");
  app.add_option("--device", o.device,
                 "where the solvers evaluate the objective: cpu (the default: the core, Eigen and OpenMP), or cuda, "
                 "cuda:N, auto (libtorch's tensors on that GPU, streamed in tiles; needs geomsim-torch built against "
                 "a CUDA libtorch). The reported loss is always recomputed by the core on the CPU")
      ->capture_default_str();
}

int run_solve(const SolveOptions& o, const ObjectiveFactory& objective, const SolverAdapter& adapt_solver) {
  o.problem.validate();
  SolveSettings settings;
  settings.objective = objective;
  settings.adapt_solver = adapt_solver;
  settings.device = o.device;
  settings.seeds = parse_seed_list(o.seeds, "seeds");
  settings.solver = o.solver;
  settings.cluster_tolerance = o.cluster_tolerance;
  settings.max_seconds = o.max_seconds;
  settings.certify = o.certify;
  if (o.restarts_option != nullptr && o.restarts_option->count() > 0) {
    require_at_least("restarts", o.restarts, 0);
    settings.restarts = o.restarts;
  }
  require_positive("cluster-tol", settings.cluster_tolerance);
  make_solver(settings.solver, settings.max_seconds);  // reject an unknown name or a negative cap before solving
  require_distinct_files({{"json", o.json_path}, {"points", o.points_path}, {"cosines", o.cosines_path}});
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  if (!o.points_path.empty()) require_writable_path(o.points_path, "points");
  if (!o.cosines_path.empty()) require_writable_path(o.cosines_path, "cosines");

  // Everything the solve and its outputs will hold, checked before anything is allocated.
  SolveMemory memory = estimate_solve_memory(o.problem, settings);
  const double N = memory.num_points, d = memory.dim;
  constexpr double kCsvNumber = 25.0;  // bytes of one number in the CSVs (17 digits, sign, exponent, comma)
  if (!o.points_path.empty()) memory.outputs += kCsvNumber * N * (d + 1.0);
  if (!o.cosines_path.empty()) memory.outputs += (8.0 + kCsvNumber) * N * N + 8.0 * N * d;  // matrix and text
  memory.require();

  const SpreadSolution solution = solve_spread_problem(o.problem, settings);

  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, solution_json(o, solution).dump(2) + "\n", "json");
  if (!o.points_path.empty()) outputs.stage(o.points_path, points_csv(solution.points), "points");
  if (!o.cosines_path.empty()) outputs.stage(o.cosines_path, cosines_csv(solution.points), "cosines");
  std::ostringstream report;
  if (!o.quiet) print_report(report, solution);  // formats (and checks) every number before any file lands
  outputs.commit();
  std::cout << report.str() << std::flush;
  return 0;
}

}  // namespace geomsim::cli
