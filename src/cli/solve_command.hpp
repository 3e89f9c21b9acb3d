#pragma once
// `geomsim [--K K --alpha A --tau T ...]`: solve the Appendix H problem and report it.
#include <CLI/CLI.hpp>
#include <string>

#include "geomsim/experiments/spread_problem.hpp"

namespace geomsim::cli {

struct SolveOptions {
  SpreadProblem problem;
  std::string seeds = "0:4";
  std::string solver = "auto";
  double cluster_tolerance = kDefaultAtomTolerance;
  double max_seconds = 0.0;
  bool certify = false;
  int restarts = -1;  // -1: SolveSettings's default
  CLI::Option* restarts_option = nullptr;
  std::string json_path;
  std::string points_path;
  std::string cosines_path;
  bool quiet = false;
  std::string device = "cpu";  // anything else: geomsim hands the solve to geomsim-torch
};

// Registers the solve options on `app` (the top-level command).
void add_solve_options(CLI::App& app, SolveOptions& options);

// Runs the solve; returns the exit status. Throws InvalidArgument for bad input. `objective`
// (geomsim-torch's, for --device) replaces the core's objective in the solvers, and
// `adapt_solver` (geomsim-torch's, for --device) the solvers that keep their state beside it.
int run_solve(const SolveOptions& options, const ObjectiveFactory& objective = {},
              const SolverAdapter& adapt_solver = {});

}  // namespace geomsim::cli
