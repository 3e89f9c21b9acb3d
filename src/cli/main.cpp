// geomsim: the command-line front end. Layering: this file only parses arguments and
// dispatches; every computation lives in the core library.
#include <iostream>

#include "cli_support.hpp"
#include "geomsim/support/errors.hpp"
#include "report_command.hpp"
#include "solve_command.hpp"
#include "sweep_command.hpp"
#include "theory_command.hpp"
#ifdef GEOMSIM_HAVE_TORCH
#include "checkpoint_commands.hpp"
#include "train_command.hpp"
#endif

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
  CLI::App* report = app.add_subcommand(
      "report", "run the experiment definitions in sims/ and regenerate notebooks-export/ (figures, CSVs, markdown)");
  geomsim::cli::ReportOptions report_options;
  geomsim::cli::add_report_options(*report, report_options);
#ifdef GEOMSIM_HAVE_TORCH
  CLI::App* train = app.add_subcommand(
      "train", "train an encoder on Fashion-MNIST coarse labels with SupCon, L_spread, THANOS, SimCLR, CCL-K or CE, then evaluate "
               "coarse accuracy, coarse-to-fine transfer and the embedding geometry (libtorch)");
  geomsim::cli::TrainCommandOptions train_options;
  geomsim::cli::add_train_options(*train, train_options);
  CLI::App* train_sweep = app.add_subcommand(
      "train-sweep", "train with L_spread at several alpha and set the trained spread beside the simulated optimum (CSV, PNG)");
  geomsim::cli::TrainSweepOptions train_sweep_options;
  geomsim::cli::add_train_sweep_options(*train_sweep, train_sweep_options);
  CLI::App* eval = app.add_subcommand(
      "eval", "evaluate a checkpoint of geomsim train or a TorchScript model: coarse accuracy, coarse-to-fine transfer, "
              "geometry, subgroups (libtorch)");
  geomsim::cli::EvalOptions eval_options;
  geomsim::cli::add_eval_options(*eval, eval_options);
  CLI::App* lipschitz = app.add_subcommand(
      "lipschitz", "Lipschitz constants of a checkpoint or TorchScript model on pairs of real images: K_L, K_g, K_aug "
                   "(Table 1, Figure 3), a Jacobian lower bound and a layer-product upper bound (libtorch)");
  geomsim::cli::LipschitzOptions lipschitz_options;
  geomsim::cli::add_lipschitz_options(*lipschitz, lipschitz_options);
  CLI::App* measure = app.add_subcommand(
      "measure", "the Section 4 geometry of a checkpoint or TorchScript model on a dataset: s_f(y), sigma_f(z), their "
                 "ratio, Theorem 3's bound (libtorch)");
  geomsim::cli::MeasureOptions measure_options;
  geomsim::cli::add_measure_options(*measure, measure_options);
#endif
  app.require_subcommand(0, 1);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return geomsim::cli::report_parse_error(app, error);
  }
  try {
    if (theory->parsed()) return geomsim::cli::run_theory(theory_options);
    if (sweep->parsed()) return geomsim::cli::run_sweep_command(sweep_options);
    if (merge->parsed()) return geomsim::cli::run_merge_command(merge_options);
    if (report->parsed()) return geomsim::cli::run_report(report_options);
#ifdef GEOMSIM_HAVE_TORCH
    if (train->parsed()) return geomsim::cli::run_train(train_options);
    if (train_sweep->parsed()) return geomsim::cli::run_train_sweep(train_sweep_options);
    if (eval->parsed()) return geomsim::cli::run_eval(eval_options);
    if (lipschitz->parsed()) return geomsim::cli::run_lipschitz(lipschitz_options);
    if (measure->parsed()) return geomsim::cli::run_measure(measure_options);
#endif
    return geomsim::cli::run_solve(solve);
  } catch (const geomsim::InvalidArgument& error) {
    return geomsim::cli::report_invalid_argument(error.argument(), error.requirement());
  } catch (const std::exception& error) {
    std::cerr << "geomsim: internal error: " << error.what() << "\n";
    return 1;
  }
}
