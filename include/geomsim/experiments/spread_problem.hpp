#pragma once
// The paper's synthetic experiment as one call: K balanced classes of n_y points on
// S^{d-1}, minimise L_spread(alpha, tau) (seed 004, eq. 39-40) from one random start
// per seed, keep the best run, and measure its geometry.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/metrics/atom_clustering.hpp"
#include "geomsim/metrics/class_spread.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/solvers/multi_start.hpp"
#include "geomsim/solvers/second_order_certificate.hpp"

namespace geomsim {

struct SpreadProblem {
  int K = 3;            // number of classes, >= 2
  int ny = 8;           // points per class, >= 1
  int d = 0;            // ambient dimension, >= 2; 0 means the default max(K, 2)
  double alpha = 0.64;  // weight of cNCE, in [0, 1] (seed 004's convention)
  double tau = 0.5;     // temperature, > 0

  int dim() const;  // d, or its default
  // Throws InvalidArgument naming the first bad field.
  void validate() const;
};

struct SolveSettings {
  std::vector<std::uint64_t> seeds{0, 1, 2, 3, 4};  // the paper's seeds 0-4
  std::string solver = "auto";
  double cluster_tolerance = kDefaultAtomTolerance;
  double max_seconds = 0.0;  // wall-time cap per seed (0: none), see make_solver
  bool certify = false;      // certify the best run to second order (solvers/second_order_certificate.hpp)
};

struct SpreadSolution {
  SpreadProblem problem;
  SolveSettings settings;
  std::string solver;                    // the solver actually used
  std::vector<std::pair<std::string, double>> solver_settings;
  PointSet points;                       // the best run
  double loss = 0.0;
  SpreadLossComponents components;
  ClassSpread spread;
  GeometrySummary geometry;
  // L(delta_v): the loss of the collapsed regular simplex, when K <= d + 1.
  std::optional<double> collapsed_simplex_loss;
  std::optional<SecondOrderCertificate> certificate;  // when settings.certify
  std::vector<MultiStartRun> runs;
  std::size_t best_run = 0;
  double seconds = 0.0;
};

SpreadSolution solve_spread_problem(const SpreadProblem& problem, const SolveSettings& settings = {});

}  // namespace geomsim
