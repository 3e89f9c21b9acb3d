#include "geomsim/experiments/best_known.hpp"

#include <chrono>
#include <map>
#include <sstream>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/symmetric_split.hpp"

namespace geomsim {

std::optional<SpreadSolution> predicted_start_solution(const SpreadProblem& problem, double cluster_tolerance) {
  const SweepPoint point{problem.K, problem.ny, problem.d, problem.alpha, problem.tau};
  const SweepPrediction prediction = predict(point);
  if (prediction.regime != "split" || point.ny % 2 != 0) return std::nullopt;
  const SymmetricSplit split(point.K);
  const auto theta = split.theta_star(point.alpha, point.tau);
  if (!theta) return std::nullopt;
  const auto start = std::chrono::steady_clock::now();
  const std::vector<int> labels = balanced_labels(point.K, point.ny);
  const SpreadLoss loss(labels, point.alpha, point.tau);
  SpreadSolution s;
  s.problem = problem;
  s.settings.seeds.clear();
  s.settings.cluster_tolerance = cluster_tolerance;
  s.settings.restarts = 0;
  const auto solver = make_solver("rlbfgs");
  s.solver = solver->name();
  s.solver_settings = solver->settings();
  Matrix U = split.points(point.ny, point.d, *theta);
  MultiStartRun run;
  run.summary = solver->minimize(loss, U);
  s.runs.push_back(run);
  describe_points(s, loss, std::move(U), labels, cluster_tolerance);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return s;
}

std::optional<SweepRow> predicted_start_row(const SweepPoint& point, double cluster_tolerance) {
  const auto s = predicted_start_solution({point.K, point.ny, point.d, point.alpha, point.tau}, cluster_tolerance);
  if (!s) return std::nullopt;
  return sweep_row_of(point, *s, "predicted");
}

BestKnownSolution best_known_solution(const SpreadProblem& problem, const SolveSettings& paper_method) {
  BestKnownSolution out;
  out.paper_method = solve_spread_problem(problem, paper_method);
  out.best = out.paper_method;
  out.source = "paper_method";
  const auto consider = [&](const SpreadSolution& candidate, const char* source) {
    if (candidate.loss < out.best.loss - kBestKnownTie) out.best = candidate, out.source = source;
  };
  SolveSettings defaults;  // the default solve: seeds 0-4, auto (RLBFGS), its restarts
  defaults.cluster_tolerance = paper_method.cluster_tolerance;
  const SpreadSolution default_solve = solve_spread_problem(problem, defaults);
  out.default_solve_loss = default_solve.loss;
  consider(default_solve, "default_solve");
  if (const auto predicted = predicted_start_solution(problem, paper_method.cluster_tolerance)) {
    out.predicted_start_loss = predicted->loss;
    consider(*predicted, "predicted_start");
  }
  return out;
}

std::vector<BestKnownRow> best_known_rows(const std::vector<SweepRow>& paper_method, const std::vector<SweepRow>& default_solve,
                                          bool from_prediction) {
  std::map<std::string, const SweepRow*> defaults;
  for (const auto& row : default_solve) defaults.emplace(row.point.key(), &row);
  std::vector<BestKnownRow> out;
  out.reserve(paper_method.size());
  for (const auto& paper : paper_method) {
    BestKnownRow r;
    r.paper_method = paper;
    r.best = paper;
    r.source = "paper_method";
    const auto consider = [&](const SweepRow& candidate, const char* source) {
      if (candidate.loss < r.best.loss - kBestKnownTie) r.best = candidate, r.source = source;
    };
    if (const auto it = defaults.find(paper.point.key()); it != defaults.end()) {
      r.default_solve_loss = it->second->loss;
      consider(*it->second, "default_solve");
    }
    if (from_prediction) {
      if (const auto predicted = predicted_start_row(paper.point, paper.cluster_tolerance)) {
        r.predicted_start_loss = predicted->loss;
        consider(*predicted, "predicted_start");
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

std::vector<SweepRow> best_rows(const std::vector<BestKnownRow>& rows) {
  std::vector<SweepRow> out;
  out.reserve(rows.size());
  for (const auto& r : rows) out.push_back(r.best);
  return out;
}

std::string best_known_csv(const std::vector<BestKnownRow>& rows) {
  const std::string base = sweep_csv(best_rows(rows));
  std::istringstream in(base);
  std::ostringstream out;
  std::string line;
  std::getline(in, line);
  out << line
      << ",best_of,default_solve_loss,predicted_start_loss,paper_method_loss,paper_method_spread,paper_method_geometry,"
         "paper_method_atoms,paper_method_max_atoms\n";
  const auto number = [](const std::optional<double>& v) { return v ? format_number(*v) : std::string(); };
  for (const auto& r : rows) {
    std::getline(in, line);
    const SweepRow& p = r.paper_method;
    out << line << ',' << r.source << ',' << number(r.default_solve_loss) << ',' << number(r.predicted_start_loss) << ','
        << format_number(p.loss) << ',' << format_number(p.spread) << ',' << p.geometry << ',' << p.atoms << ',' << p.max_atoms
        << "\n";
  }
  return out.str();
}

}  // namespace geomsim
