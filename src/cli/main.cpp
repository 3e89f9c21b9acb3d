// geomsim: the command-line front end. Layering: this file only parses arguments and
// dispatches; every computation lives in the core library. It links no libtorch: the
// training commands are run by geomsim-torch (training_program.hpp); in a build without it,
// geomsim runs `measure --embeddings` on .npy and CSV files itself (measure_embeddings.hpp).
#include <iostream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "plot_command.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/cpu_level.hpp"
#include "geomsim/support/interrupt_cleanup.hpp"
#include "measure_embeddings.hpp"
#include "report_command.hpp"
#include "solve_command.hpp"
#include "sweep_command.hpp"
#include "theory_command.hpp"
#include "training_program.hpp"

int main(int argc, char** argv) {
  // SIGINT, SIGTERM and SIGHUP remove the temporaries staged so far, then end the process as
  // the signal would have (interrupt_cleanup.hpp).
  geomsim::install_interrupt_cleanup();
  CLI::App app{
      "geomsim: the optimal geometry of labelled points on the hypersphere under supervised contrastive losses.\n"
      "Without a subcommand, minimises the asymptotic L_spread of seed 004 (Appendix H, eq. 39-40) for K\n"
      "classes of n_y points on S^{d-1} (by default with Riemannian L-BFGS, best of several random starts\n"
      "and, for small problems, restarts; --solver slsqp --restarts 0 is SLSQP best of the seeds, as the\n"
      "paper names it, with NLopt's SLSQP and tolerances of our choosing), and reports the loss,\n"
      "its components, the spread and the geometry.",
      "geomsim"};
  app.set_version_flag("--version", geomsim::cli::version_text());
  geomsim::cli::SolveOptions solve;
  geomsim::cli::add_solve_options(app, solve);
  CLI::App* theory = app.add_subcommand(
      "theory", "Theorem 2's constants for each (tau, d): W, log W, c(tau,d), the exact crossover, theta*; --K for the general-K symmetric split");
  geomsim::cli::TheoryOptions theory_options;
  geomsim::cli::add_theory_options(*theory, theory_options);
  CLI::App* sweep = app.add_subcommand(
      "sweep", "the Appendix H experiment over a grid of K, n_y, d, tau and alpha: one CSV row per point, in parallel, "
               "resumable (--out is reread) and shardable (--shard i/n)");
  geomsim::cli::SweepOptions sweep_options;
  geomsim::cli::add_sweep_options(*sweep, sweep_options);
  CLI::App* merge = app.add_subcommand("merge", "join sweep shards into one CSV in grid order");
  geomsim::cli::MergeOptions merge_options;
  geomsim::cli::add_merge_options(*merge, merge_options);
  CLI::App* plot = app.add_subcommand(
      "plot", "a figure from a sweep CSV (or any CSV of named columns): any column on x and y, curves by a third, "
              "panels by a fourth; PNG, SVG and PDF for one and two columns");
  geomsim::cli::PlotOptions plot_options;
  geomsim::cli::add_plot_options(*plot, plot_options);
  CLI::App* report = app.add_subcommand(
      "report", "run the experiment definitions in sims/ and regenerate notebooks-export/ (figures, CSVs, markdown)");
  geomsim::cli::ReportOptions report_options;
  geomsim::cli::add_report_options(*report, report_options);
  const std::vector<CLI::App*> training = geomsim::cli::add_training_commands(app);
  app.require_subcommand(0, 1);
  geomsim::cli::refuse_empty_values(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return geomsim::cli::report_parse_error(app, error);
  }
  try {
    geomsim::cpu_level();  // GEOMSIM_CPU, refused by name before any work
    if (theory->parsed()) return geomsim::cli::run_theory(theory_options);
    if (sweep->parsed()) return geomsim::cli::run_sweep_command(sweep_options);
    if (merge->parsed()) return geomsim::cli::run_merge_command(merge_options);
    if (plot->parsed()) return geomsim::cli::run_plot_command(plot_options);
    if (report->parsed()) return geomsim::cli::run_report(report_options);
    for (CLI::App* command : training) {
      if (!command->parsed()) continue;
      // Without geomsim-torch, geomsim measures saved embeddings (.npy, CSV) itself.
      if (command->get_name() == "measure" && !geomsim::cli::has_training_program()) {
        return geomsim::cli::run_measure_without_torch(command->get_description(), command->remaining());
      }
      return geomsim::cli::run_training_program(command->get_name(), command->remaining());
    }
    // On a GPU the solve runs in geomsim-torch, whose objective is libtorch's (device_solve.hpp).
    if (solve.device != "cpu") {
      if (!geomsim::cli::has_training_program()) {
        throw geomsim::InvalidArgument("device", "is " + solve.device + ", but this build of geomsim has no training "
                                                 "module (geomsim-torch, built when CMake finds libtorch): only cpu");
      }
      return geomsim::cli::run_training_program(geomsim::cli::kDeviceSolveCommand,
                                                std::vector<std::string>(argv + 1, argv + argc));
    }
    return geomsim::cli::run_solve(solve);
  } catch (const geomsim::InvalidArgument& error) {
    return geomsim::cli::report_refusal(error, geomsim::cli::help_command(app));
  } catch (const geomsim::ComputationFailed& error) {
    return geomsim::cli::report_computation_failed(error.what());
  } catch (const std::exception& error) {
    return geomsim::cli::report_internal_error(error.what());
  }
}
