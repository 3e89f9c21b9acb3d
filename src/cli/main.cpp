// geomsim: the command-line front end. Layering: this file only parses arguments and
// dispatches; every computation lives in the core library.
#include <iostream>

#include "cli_support.hpp"
#include "geomsim/errors.hpp"
#include "solve_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "geomsim: the optimal geometry of labelled points on the hypersphere under supervised contrastive losses.\n"
      "Without a subcommand, minimises the asymptotic L_spread of seed 004 (Appendix H, eq. 39-40) for K\n"
      "classes of n_y points on S^{d-1} with SLSQP, best of several random starts, and reports the loss,\n"
      "its components, the spread and the geometry.",
      "geomsim"};
  app.set_version_flag("--version", "geomsim 0.1.0");
  geomsim::cli::SolveOptions solve;
  geomsim::cli::add_solve_options(app, solve);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return geomsim::cli::report_parse_error(app, error);
  }
  try {
    return geomsim::cli::run_solve(solve);
  } catch (const geomsim::InvalidArgument& error) {
    return geomsim::cli::report_invalid_argument(error.argument(), error.requirement());
  } catch (const std::exception& error) {
    std::cerr << "geomsim: internal error: " << error.what() << "\n";
    return 1;
  }
}
