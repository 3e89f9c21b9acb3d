#pragma once
// The training commands (train, train-sweep, eval, lipschitz, measure) live in a second
// program, geomsim-torch, installed beside geomsim: only it links libtorch, so that the
// commands that need no torch (the solve, theory, sweep, merge, report) start in
// milliseconds instead of paying libtorch's loading and static initialisers (~0.5 s).
// The user still types `geomsim train ...`: geomsim registers each training command by
// name for its help, and hands the whole command line over to geomsim-torch with execv
// (no shell, so no argument is ever interpreted).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace geomsim::cli {

struct TrainingCommand {
  const char* name;
  const char* description;
};
// Every command of geomsim-torch, in the order `geomsim --help` lists them.
const std::vector<TrainingCommand>& training_commands();

// Registers each training command on `app` as a subcommand that takes its arguments
// unparsed (geomsim-torch parses them, and prints their help).
std::vector<CLI::App*> add_training_commands(CLI::App& app);

// Replaces this process by geomsim-torch with `command` and `arguments`. Returns only on
// failure, with the exit status: 2 when this build has no training module (the message
// says how to get one), 1 when the program exists but cannot be started.
int run_training_program(const std::string& command, const std::vector<std::string>& arguments);

}  // namespace geomsim::cli
