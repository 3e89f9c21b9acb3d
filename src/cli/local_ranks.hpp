#pragma once
// --nproc-per-node N: a training command run as N data-parallel ranks on this machine, as
// `torchrun --no-python --nproc-per-node N build/geomsim-torch COMMAND ...` would run it. The
// process that sees the option starts N copies of this program (train::launch_local: no shell)
// with the same command line less that option, each with torchrun's variables (RANK,
// WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR 127.0.0.1, a free MASTER_PORT), waits
// for them, and exits as the first rank that failed (or 0). Built only with libtorch.
#include <CLI/CLI.hpp>
#include <optional>

namespace geomsim::cli {

// Keeps argv, from which the ranks' command line is made. Call once at the start of main().
void remember_command_line(int argc, char** argv);

// --nproc-per-node (>= 1; 1: this process runs the command itself) and --distributed-timeout
// (seconds the ranks wait for each other), on every command that trains as a job's ranks.
void add_data_parallel_options(CLI::App& command, int& processes, double& timeout_seconds);

// When processes > 1: starts the ranks and returns the exit status to end with. nullopt when
// this process runs the command itself (processes 1). The ranks' timeout_seconds is checked
// first, once (InvalidArgument("distributed-timeout") unless in (0, a day]: require_distributed_timeout). Throws InvalidArgument("nproc-per-node")
// when this process is already a rank of a job (RANK or SLURM_PROCID set): a job's ranks do not
// start ranks of their own.
std::optional<int> run_as_local_ranks(int processes, double timeout_seconds);

}  // namespace geomsim::cli
