#include "geomsim/train/distributed/launch_environment.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim::train {
namespace {

// The variable's value when it is set and not empty (an empty variable counts as unset, as an
// `export RANK=` in a script means to clear it).
std::optional<std::string> value_of(const EnvironmentLookup& lookup, const char* name) {
  const char* value = lookup(name);
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

// A whole-string decimal integer in [lo, hi]; `range` words the range for the message.
int parse_integer(const char* name, const std::string& text, long lo, long hi, const std::string& range) {
  long value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (error != std::errc() || ptr != end || value < lo || value > hi) {
    throw InvalidEnvironment(name, "must be an integer " + range + ", got \"" + text + "\"");
  }
  return static_cast<int>(value);
}

constexpr long kMaxWorld = 1 << 24;

int parse_port(const EnvironmentLookup& lookup, int world_size, const char* world_variable) {
  const auto port = value_of(lookup, "MASTER_PORT");
  if (!port) {
    throw InvalidEnvironment("MASTER_PORT", std::string("must be set (the rendezvous port of rank 0) when ") +
                                                world_variable + " = " + std::to_string(world_size) + " > 1");
  }
  return parse_integer("MASTER_PORT", *port, 1, 65535, "in [1, 65535]");
}

LaunchEnvironment from_torchrun(const EnvironmentLookup& lookup) {
  LaunchEnvironment env;
  env.launcher = "torchrun";
  const auto rank = value_of(lookup, "RANK");
  const auto world = value_of(lookup, "WORLD_SIZE");
  if (!world) throw InvalidEnvironment("WORLD_SIZE", "must be set when RANK is (both come from the launcher)");
  const RankLimit limit = world_size_limit();
  env.world_size = parse_integer("WORLD_SIZE", *world, 1, limit.most, limit.range());
  if (!rank) {
    throw InvalidEnvironment("RANK", "must be set when WORLD_SIZE = " + *world + " > 1 (both come from the launcher)");
  }
  const std::string range = "in [0, " + std::to_string(env.world_size) + ") (WORLD_SIZE = " + *world + ")";
  env.rank = parse_integer("RANK", *rank, 0, env.world_size - 1, range);
  const auto local = value_of(lookup, "LOCAL_RANK");
  env.local_rank = local ? parse_integer("LOCAL_RANK", *local, 0, env.world_size - 1, range) : env.rank;
  const auto local_world = value_of(lookup, "LOCAL_WORLD_SIZE");
  env.local_world_size = local_world ? parse_integer("LOCAL_WORLD_SIZE", *local_world, env.local_rank + 1, env.world_size,
                                                     "in [LOCAL_RANK + 1, WORLD_SIZE] = [" + std::to_string(env.local_rank + 1) +
                                                         ", " + std::to_string(env.world_size) + "]")
                                     : env.world_size;
  if (env.world_size == 1) return env;
  const auto addr = value_of(lookup, "MASTER_ADDR");
  if (!addr) {
    throw InvalidEnvironment("MASTER_ADDR", "must be set (the host of rank 0) when WORLD_SIZE = " + *world + " > 1");
  }
  env.master_addr = *addr;
  env.master_port = parse_port(lookup, env.world_size, "WORLD_SIZE");
  return env;
}

LaunchEnvironment from_slurm(const EnvironmentLookup& lookup) {
  LaunchEnvironment env;
  env.launcher = "slurm";
  const auto tasks = value_of(lookup, "SLURM_NTASKS");
  if (!tasks) throw InvalidEnvironment("SLURM_NTASKS", "must be set when SLURM_PROCID is (run the program through srun)");
  const RankLimit limit = world_size_limit();
  env.world_size = parse_integer("SLURM_NTASKS", *tasks, 1, limit.most, limit.range());
  const std::string range = "in [0, " + std::to_string(env.world_size) + ") (SLURM_NTASKS = " + *tasks + ")";
  env.rank = parse_integer("SLURM_PROCID", *value_of(lookup, "SLURM_PROCID"), 0, env.world_size - 1, range);
  const auto local = value_of(lookup, "SLURM_LOCALID");
  env.local_rank = local ? parse_integer("SLURM_LOCALID", *local, 0, env.world_size - 1, range) : env.rank;
  env.local_world_size = env.world_size;  // one node, unless SLURM_NNODES says more (below)
  if (env.world_size == 1) return env;
  const char* nodes_variable = value_of(lookup, "SLURM_NNODES") ? "SLURM_NNODES" : "SLURM_JOB_NUM_NODES";
  const auto nodes = value_of(lookup, nodes_variable);
  const int node_count = nodes ? parse_integer(nodes_variable, *nodes, 1, kMaxWorld, ">= 1") : 1;
  env.local_world_size = (env.world_size + node_count - 1) / node_count;
  if (const auto addr = value_of(lookup, "MASTER_ADDR")) {
    env.master_addr = *addr;
  } else if (node_count == 1) {
    env.master_addr = "127.0.0.1";  // one node: rank 0 is on this machine
  } else {
    throw InvalidEnvironment("MASTER_ADDR", "must be set (the host of rank 0, e.g. the first of `scontrol show hostnames "
                                            "$SLURM_JOB_NODELIST`) for a job on " + std::to_string(node_count) + " nodes");
  }
  env.master_port = parse_port(lookup, env.world_size, "SLURM_NTASKS");
  return env;
}

}  // namespace

std::string RankLimit::range() const { return "in [1, " + std::to_string(most) + "] (" + why + ")"; }

RankLimit world_size_limit() {
  rlimit files{};
  const bool known = ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY;
  RankLimit limit;
  if (!known || files.rlim_cur >= static_cast<rlim_t>(2 * kMaxWorld + kReservedFiles)) {
    limit.most = static_cast<int>(kMaxWorld);
    limit.why = "the largest job geomsim joins";
    return limit;
  }
  const long open_files = static_cast<long>(files.rlim_cur);
  limit.most = static_cast<int>(std::max(1L, (open_files - kReservedFiles) / 2));
  limit.why = "a rank keeps about 2 open files per rank of its job: a socket to each other rank and, on rank 0, one "
              "per rank for the rendezvous; ulimit -n lets a process here open " + std::to_string(open_files) +
              " files, " + std::to_string(kReservedFiles) + " of them kept for its own";
  return limit;
}

RankLimit local_ranks_limit() {
  RankLimit limit = world_size_limit();
  const double memory = static_cast<double>(available_memory_bytes());
  const double fit = std::max(1.0, std::floor(memory / kRankMemoryBytes));
  if (fit < static_cast<double>(limit.most)) {
    limit.most = static_cast<int>(fit);
    limit.why = "each rank is a process of at least " + format_bytes(kRankMemoryBytes) +
                " of its own (libtorch, before any data), and this machine has " + format_bytes(memory) + " available";
  }
  return limit;
}

void require_distributed_timeout(double seconds, const char* argument) {
  if (!(seconds > 0.0 && seconds <= kMaxDistributedTimeoutSeconds)) {
    throw InvalidArgument(argument, "must be in (0, " + format_number(kMaxDistributedTimeoutSeconds) +
                                        "] seconds (a day at most: no real run waits that long for its ranks), got " +
                                        format_number(seconds));
  }
}

LaunchEnvironment read_launch_environment() {
  return read_launch_environment([](const char* name) { return static_cast<const char*>(std::getenv(name)); });
}

LaunchEnvironment read_launch_environment(const EnvironmentLookup& lookup) {
  if (value_of(lookup, "RANK") || value_of(lookup, "WORLD_SIZE")) {
    const auto world = value_of(lookup, "WORLD_SIZE");
    if (!value_of(lookup, "RANK") && world && *world == "1") return {};  // WORLD_SIZE=1 alone: one process
    return from_torchrun(lookup);
  }
  // srun's tasks, not the batch script (SLURM_PROCID 0 and SLURM_NTASKS n, but no step): that is
  // one process, e.g. a job array's task, whatever the allocation's tasks.
  if (value_of(lookup, "SLURM_PROCID") && value_of(lookup, "SLURM_STEP_ID")) return from_slurm(lookup);
  return {};
}

}  // namespace geomsim::train
