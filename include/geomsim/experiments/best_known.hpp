#pragma once
// The best known optimum of a grid point: the lowest loss among the solves a page ran (the
// paper's method, SLSQP best of seeds 0-4; the default solve, RLBFGS with its restarts) and,
// where the theory predicts the symmetric split and n_y is even, a solve started from the
// predicted configuration itself (SymmetricSplit::points at theta*). No solver run from random
// starts is sure to reach the lowest basin (at K = 2, n_y = 8, d = 2, tau = 0.25, alpha = 0.85
// the paper's method ends at -0.9738 while the split has -1.3600), so a page that describes "the
// optimum" reports the best of all three, and keeps the paper's method beside it.
#include <optional>
#include <string>
#include <vector>

#include "geomsim/experiments/sweep.hpp"

namespace geomsim {

// A candidate replaces the incumbent only when it is lower by more than this: a tie keeps the
// earlier candidate (the paper's method, then the default solve, then the predicted start).
inline constexpr double kBestKnownTie = 1e-9;

// A solve of `problem` started from the predicted split configuration (RLBFGS, run to its
// tolerance from there), or nullopt where the theory predicts no split (predict) or n_y is odd
// (the split puts half of a class on each atom).
std::optional<SpreadSolution> predicted_start_solution(const SpreadProblem& problem, double cluster_tolerance);

// predicted_start_solution as a sweep row; its seeds column reads "predicted".
std::optional<SweepRow> predicted_start_row(const SweepPoint& point, double cluster_tolerance);

// The best known optimum of one problem, with its points, for the pages that draw them (point
// sets, heatmaps): the paper's method (`paper_method`, the definition's settings), the default
// solve (seeds 0-4, RLBFGS with its restarts, at the same cluster tolerance) and, where the split
// is predicted, the solve from it; the lowest by kBestKnownTie, in that order.
struct BestKnownSolution {
  SpreadSolution best;
  std::string source;  // "paper_method", "default_solve" or "predicted_start"
  SpreadSolution paper_method;
  std::optional<double> default_solve_loss, predicted_start_loss;
};
BestKnownSolution best_known_solution(const SpreadProblem& problem, const SolveSettings& paper_method);

struct BestKnownRow {
  SweepRow best;            // loss, spread, geometry, ... of the lowest candidate
  std::string source;       // "paper_method", "default_solve" or "predicted_start"
  SweepRow paper_method;    // the paper's method's own row
  std::optional<double> default_solve_loss, predicted_start_loss;
};

// Joins the paper's method's rows with the default solve's (by key; a point missing from
// default_solve has only the paper's method) and, when `from_prediction`, a solve from the
// predicted configuration (predicted_start_row), keeping the lowest by kBestKnownTie. In the
// order of paper_method.
std::vector<BestKnownRow> best_known_rows(const std::vector<SweepRow>& paper_method, const std::vector<SweepRow>& default_solve,
                                          bool from_prediction);

// The best rows alone (the page's loss, spread and geometry).
std::vector<SweepRow> best_rows(const std::vector<BestKnownRow>& rows);

// sweep_csv's columns for the best known optimum, then best_of (its source), default_solve_loss,
// predicted_start_loss (empty where not run) and the paper's method's own paper_method_loss,
// paper_method_spread, paper_method_geometry, paper_method_atoms and paper_method_max_atoms.
std::string best_known_csv(const std::vector<BestKnownRow>& rows);

}  // namespace geomsim
