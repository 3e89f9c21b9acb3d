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

// geomsim-torch's hidden command for `geomsim --device cuda ...`: the main solve with the
// objective on a GPU (device_solve.hpp). geomsim passes its whole command line after it.
inline constexpr const char* kDeviceSolveCommand = "solve-on-device";

// Registers each training command on `app` as a subcommand that takes its arguments
// unparsed (geomsim-torch parses them, and prints their help).
std::vector<CLI::App*> add_training_commands(CLI::App& app);

// The kinds of sims/ definitions that train (run by `geomsim-torch experiment`), with one line
// each; `geomsim report` hands definitions of these kinds to geomsim-torch and runs the other
// kinds (the simulations) itself. geomsim-torch's registry (experiment_kinds.hpp) has a runner
// for each, and a test checks that the two lists agree.
struct TrainingExperimentKind {
  const char* name;
  const char* description;
};
const std::vector<TrainingExperimentKind>& training_experiment_kinds();
bool is_training_experiment_kind(const std::string& kind);

// This executable's own file, from /proc/self/exe (not argv[0], which a caller may set to
// anything); empty when it cannot be read.
std::string own_program();

// Whether this build has geomsim-torch beside geomsim (and its path).
bool has_training_program();
std::string training_program_path();

// Runs geomsim-torch with `arguments` (no shell: posix_spawn with an argument vector) and waits
// for it. Returns its exit status, or 1 (with a message naming `what`) when it could not be
// started or was killed by a signal.
int run_training_program_and_wait(const std::vector<std::string>& arguments, const std::string& what);

// Replaces this process by geomsim-torch with `command` and `arguments`. Returns only on
// failure, with the exit status: 2 when this build has no training module (the message
// says how to get one), 1 when the program exists but cannot be started.
int run_training_program(const std::string& command, const std::vector<std::string>& arguments);

}  // namespace geomsim::cli
