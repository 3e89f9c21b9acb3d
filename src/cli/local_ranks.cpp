#include "local_ranks.hpp"

#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "cli_support.hpp"
#include "training_program.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"
#include "geomsim/train/distributed/local_launcher.hpp"

namespace geomsim::cli {
namespace {

std::vector<std::string>& command_line() {
  static std::vector<std::string> arguments;
  return arguments;
}

constexpr const char* kOption = "--nproc-per-node";

// argv[1..] without --nproc-per-node and its value ("--nproc-per-node N" or "--nproc-per-node=N").
std::vector<std::string> arguments_for_ranks() {
  std::vector<std::string> out;
  const auto& all = command_line();
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (all[i] == kOption) {
      ++i;  // and its value
      continue;
    }
    if (all[i].rfind(std::string(kOption) + "=", 0) == 0) continue;
    out.push_back(all[i]);
  }
  return out;
}

}  // namespace

void remember_command_line(int argc, char** argv) { command_line().assign(argv, argv + argc); }

void add_data_parallel_options(CLI::App& c, int& processes, double& timeout_seconds) {
  c.add_option(kOption, processes,
               "run as this many data-parallel ranks on this machine (Gloo over 127.0.0.1), as torchrun "
               "--nproc-per-node does, at most as many as its memory (" +
                   format_bytes(train::kRankMemoryBytes) +
                   " a rank) and ulimit -n (2 open files a rank) hold; each rank takes its share of every global "
                   "batch, and only rank 0 writes")
      ->capture_default_str()
      ->check(at_least(1))
      ->check(CLI::Validator(
          [](std::string& value) {
            // Refused here, before any other option's check names the ranks: as many as the machine holds.
            const train::RankLimit limit = train::local_ranks_limit();
            return std::stoll(value) > limit.most ? "must be " + limit.range() + ", got " + value : std::string();
          },
          ""));
  c.add_option("--distributed-timeout", timeout_seconds,
               "data-parallel runs: seconds each rank waits for the others before failing, in every wait: the "
               "rendezvous at MASTER_ADDR:MASTER_PORT (its connection and its first answer) and each collective; "
               "at most " + format_number(train::kMaxDistributedTimeoutSeconds) + " (a day)")
      ->capture_default_str();
}

std::optional<int> run_as_local_ranks(int processes, double timeout_seconds) {
  train::require_distributed_timeout(timeout_seconds);
  if (processes <= 1) return std::nullopt;
  if (train::read_launch_environment().launcher != "none") {
    throw InvalidArgument("nproc-per-node", "is for starting a job's ranks; this process already is one (RANK, or srun's SLURM_PROCID "
                                            "in a job step, is set: torchrun or srun started it), so leave --nproc-per-node out");
  }
  train::LocalLaunchOptions options;
  options.processes = processes;
  const std::string program = own_program();
  if (program.empty()) throw ComputationFailed("--nproc-per-node: cannot find this program's own file (/proc/self/exe)");
  const train::LaunchReport report = train::launch_local(program, arguments_for_ranks(), options);
  if (report.success()) return 0;
  std::cerr << "geomsim: error: the data-parallel run failed:\n" << report.summary() << "\n";
  const auto& first = report.ranks.at(static_cast<std::size_t>(std::max(report.first_failed_rank, 0)));
  // The first failure's own status (2 bad input, 3 a failed computation) when it exited, else 3.
  return first.exited && first.exit_status != 0 ? first.exit_status : 3;
}

}  // namespace geomsim::cli
