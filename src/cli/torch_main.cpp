// geomsim-torch: the training commands of geomsim (train, train-sweep, eval, lipschitz,
// measure, robustness, experiment), the only program that links libtorch. Users run them as `geomsim train ...`:
// geomsim hands the command line over (training_program.hpp); running geomsim-torch
// directly works the same way.
#include <iostream>

#include "checkpoint_commands.hpp"
#include "experiment_kinds.hpp"
#include "robustness_command.hpp"
#include "cli_support.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/training/allocator_settings.hpp"
#include "train_command.hpp"
#include "training_program.hpp"

int main(int argc, char** argv) {
  // Before any tensor: freed tensor buffers stay in the process instead of being unmapped and
  // faulted in again every step (allocator_settings.hpp). Elsewhere than glibc, nothing changes.
  geomsim::train::keep_freed_memory_for_tensors();
  CLI::App app{"geomsim's training commands (libtorch). Run them as 'geomsim COMMAND'; 'geomsim --help' lists the rest.",
               "geomsim"};
  app.set_version_flag("--version", "geomsim 0.1.0");
  const auto description = [](const std::string& name) {
    for (const auto& command : geomsim::cli::training_commands()) {
      if (name == command.name) return std::string(command.description);
    }
    throw std::logic_error("geomsim-torch: no description for " + name);
  };
  CLI::App* train = app.add_subcommand("train", description("train"));
  geomsim::cli::TrainCommandOptions train_options;
  geomsim::cli::add_train_options(*train, train_options);
  CLI::App* train_sweep = app.add_subcommand("train-sweep", description("train-sweep"));
  geomsim::cli::TrainSweepOptions train_sweep_options;
  geomsim::cli::add_train_sweep_options(*train_sweep, train_sweep_options);
  CLI::App* eval = app.add_subcommand("eval", description("eval"));
  geomsim::cli::EvalOptions eval_options;
  geomsim::cli::add_eval_options(*eval, eval_options);
  CLI::App* lipschitz = app.add_subcommand("lipschitz", description("lipschitz"));
  geomsim::cli::LipschitzOptions lipschitz_options;
  geomsim::cli::add_lipschitz_options(*lipschitz, lipschitz_options);
  CLI::App* measure = app.add_subcommand("measure", description("measure"));
  geomsim::cli::MeasureOptions measure_options;
  geomsim::cli::add_measure_options(*measure, measure_options);
  CLI::App* experiment = app.add_subcommand("experiment", description("experiment"));
  geomsim::cli::ExperimentCommandOptions experiment_options;
  geomsim::cli::add_experiment_options(*experiment, experiment_options);
  CLI::App* robustness = app.add_subcommand("robustness", description("robustness"));
  geomsim::cli::RobustnessCommandOptions robustness_options;
  geomsim::cli::add_robustness_options(*robustness, robustness_options);
  app.require_subcommand(1, 1);
  geomsim::cli::refuse_empty_values(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return geomsim::cli::report_parse_error(app, error);
  }
  try {
    if (train->parsed()) return geomsim::cli::run_train(train_options);
    if (train_sweep->parsed()) return geomsim::cli::run_train_sweep(train_sweep_options);
    if (eval->parsed()) return geomsim::cli::run_eval(eval_options);
    if (lipschitz->parsed()) return geomsim::cli::run_lipschitz(lipschitz_options);
    if (measure->parsed()) return geomsim::cli::run_measure(measure_options);
    if (experiment->parsed()) return geomsim::cli::run_experiment_command(experiment_options);
    if (robustness->parsed()) return geomsim::cli::run_robustness_command(robustness_options);
    return 2;
  } catch (const geomsim::InvalidArgument& error) {
    return geomsim::cli::report_invalid_argument(error.argument(), error.requirement());
  } catch (const geomsim::ComputationFailed& error) {
    std::cerr << "geomsim: error: " << error.what() << "\n";
    return 3;
  } catch (const std::exception& error) {
    std::cerr << "geomsim: internal error: " << error.what() << "\n";
    return 1;
  }
}
