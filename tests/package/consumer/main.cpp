// Uses the installed library as a user would: the theory, a solve, and a measure, each checked
// against a value known in closed form, and a figure drawn through geomsim::figures into the
// stem given as the argument. Exit 0 when all hold.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/theory/wiener_constant.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: consumer FIGURE_STEM\n");
    return 2;
  }
  using namespace geomsim;
  int failures = 0;
  const auto check = [&](const char* what, double value, double expected, double tolerance) {
    const bool ok = std::abs(value - expected) <= tolerance;
    std::printf("%s %s: %.17g (expected %.17g)\n", ok ? "ok  " : "FAIL", what, value, expected);
    failures += !ok;
  };
  // W at d = 3 is (tau/2)(1 - exp(-2/tau)).
  check("log W(0.5, 3)", log_wiener_constant(0.5, 3), std::log(0.25 * (1.0 - std::exp(-4.0))), 1e-14);
  // The regular simplex of K = 4 points: every squared distance is 8/3, so L_unif = -2 * 8/3.
  check("uniformity of the simplex", uniformity(regular_simplex(4, 4)), -16.0 / 3.0, 1e-14);
  // The paper's K = 2 problem collapses at alpha = 0.6 (below 2/3): L(delta_v) = -2(1-alpha)/tau.
  SpreadProblem problem;
  problem.K = 2;
  problem.ny = 4;
  problem.d = 2;
  problem.alpha = 0.6;
  problem.tau = 0.5;
  SolveSettings settings;
  settings.seeds = {0, 1};
  const SpreadSolution solution = solve_spread_problem(problem, settings);
  check("collapsed K = 2 loss", solution.loss, -2.0 * 0.4 / 0.5, 1e-9);
  GnuplotFigure figure(320, 240);
  figure.datablock("uniformity", {{2, uniformity(regular_simplex(2, 2))}, {4, uniformity(regular_simplex(4, 4))}});
  figure.line("plot $uniformity with linespoints");
  figure.render(argv[1]);
  const bool drawn = std::filesystem::file_size(std::string(argv[1]) + ".png") > 0;
  std::printf("%s figure %s.png\n", drawn ? "ok  " : "FAIL", argv[1]);
  failures += !drawn;
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
