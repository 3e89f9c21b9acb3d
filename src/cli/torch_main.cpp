// geomsim-torch: the training commands of geomsim (train, train-sweep, eval, lipschitz,
// measure, robustness, experiment), the only program that links libtorch. Users run them as `geomsim train ...`:
// geomsim hands the command line over (training_program.hpp); running geomsim-torch
// directly works the same way.
#include <functional>
#include <iostream>
#include <memory>
#include <utility>
#include <vector>

#include "checkpoint_commands.hpp"
#include "cli_support.hpp"
#include "device_solve.hpp"
#include "experiment_command.hpp"
#include "local_ranks.hpp"
#include "robustness_command.hpp"
#include "geomsim/support/cpu_level.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/interrupt_cleanup.hpp"
#include "geomsim/train/training/allocator_settings.hpp"
#include "train_command.hpp"
#include "training_program.hpp"

namespace {

// Registers the options of the training command `name` on `command` (their values live as long
// as the returned call) and returns the call that runs it.
template <class Options>
std::function<int()> bind(CLI::App& command, void (*add)(CLI::App&, Options&), int (*run)(const Options&)) {
  auto options = std::make_shared<Options>();
  add(command, *options);
  return [options, run] { return run(*options); };
}

std::function<int()> add_training_command(const std::string& name, CLI::App& command) {
  using namespace geomsim::cli;
  if (name == "train") return bind(command, add_train_options, run_train);
  if (name == "train-sweep") return bind(command, add_train_sweep_options, run_train_sweep);
  if (name == "eval") return bind(command, add_eval_options, run_eval);
  if (name == "lipschitz") return bind(command, add_lipschitz_options, run_lipschitz);
  if (name == "measure") return bind(command, add_measure_options, run_measure);
  if (name == "experiment") return bind(command, add_experiment_options, run_experiment_command);
  if (name == "robustness") return bind(command, add_robustness_options, run_robustness_command);
  throw std::logic_error("geomsim-torch: the command table lists " + name + ", which this program does not run");
}

}  // namespace

int main(int argc, char** argv) {
  // Before libtorch or OpenMP start a thread: SIGINT, SIGTERM and SIGHUP remove the temporaries
  // staged so far (a checkpoint being written), then end the process as the signal would have
  // (interrupt_cleanup.hpp). geomsim's own handler does not survive its execv into this program.
  geomsim::install_interrupt_cleanup();
  // Before any tensor: freed tensor buffers stay in the process instead of being unmapped and
  // faulted in again every step (allocator_settings.hpp). Elsewhere than glibc, nothing changes.
  geomsim::train::keep_freed_memory_for_tensors();
  geomsim::cli::remember_command_line(argc, argv);  // --nproc-per-node starts ranks with it
  CLI::App app{"geomsim's training commands (libtorch). Run them as 'geomsim COMMAND'; 'geomsim --help' lists the rest.",
               "geomsim"};
  app.set_version_flag("--version", geomsim::cli::version_text());
  // One subcommand per entry of the command table geomsim shares (training_commands(): names and
  // descriptions), each with its options and the call that runs it.
  std::vector<std::pair<CLI::App*, std::function<int()>>> commands;
  for (const auto& command : geomsim::cli::training_commands()) {
    CLI::App* sub = app.add_subcommand(command.name, command.description);
    commands.emplace_back(sub, add_training_command(command.name, *sub));
  }
  // Hidden (no group): geomsim runs it for `geomsim --device cuda ...`, with geomsim's options.
  CLI::App* device_solve = app.add_subcommand(geomsim::cli::kDeviceSolveCommand,
                                              "the main solve with the objective on a device (geomsim --device)");
  device_solve->group("");
  commands.emplace_back(device_solve, bind(*device_solve, geomsim::cli::add_solve_options, geomsim::cli::run_device_solve));
  app.require_subcommand(1, 1);
  geomsim::cli::refuse_empty_values(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return geomsim::cli::report_parse_error(app, error);
  } catch (const geomsim::InvalidArgument& error) {  // a command's check once its options are parsed
    return geomsim::cli::report_refusal(error, geomsim::cli::help_command(app));
  }
  try {
    geomsim::cpu_level();  // GEOMSIM_CPU, refused by name before any work
    for (const auto& [command, run] : commands) {
      if (command->parsed()) return run();
    }
    return 2;
  } catch (const geomsim::InvalidArgument& error) {
    return geomsim::cli::report_refusal(error, geomsim::cli::help_command(app));
  } catch (const geomsim::ComputationFailed& error) {
    return geomsim::cli::report_computation_failed(error.what());
  } catch (const std::exception& error) {
    return geomsim::cli::report_internal_error(error.what());
  }
}
