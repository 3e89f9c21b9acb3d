#pragma once
// Where this process sits in a data-parallel job, read from the variables its launcher set.
// No libtorch here: reading the environment costs nothing, and a one-process run forms no
// process group at all.
//
// The launchers and their variables, in this order of precedence:
//   torchrun (and launch_local, local_launcher.hpp)
//       RANK, WORLD_SIZE            required together (RANK alone, or WORLD_SIZE > 1 alone, is an error)
//       LOCAL_RANK                  optional; absent: RANK (a one-node job)
//       MASTER_ADDR, MASTER_PORT    required when WORLD_SIZE > 1
//   srun (Slurm), when RANK is not set and SLURM_STEP_ID is (a task of a job step)
//       SLURM_PROCID, SLURM_NTASKS  rank and world size
//       SLURM_LOCALID               local rank; absent: SLURM_PROCID (a one-node job)
//       MASTER_ADDR                 optional on one node (SLURM_NNODES or SLURM_JOB_NUM_NODES = 1,
//                                   or neither set): 127.0.0.1; required on several nodes
//                                   (e.g. the first of `scontrol show hostnames $SLURM_JOB_NODELIST`)
//       MASTER_PORT                 required when SLURM_NTASKS > 1
//   neither: world size 1 (launcher "none"), whatever MASTER_ADDR and MASTER_PORT say.
//   A Slurm batch script itself (a job array's task, say) runs with SLURM_PROCID = 0, and with
//   SLURM_NTASKS = n when the job asked for n tasks, but in no job step: it is one process. To
//   train as the job's n ranks, start the program through srun (examples/slurm/).
// Every error is an InvalidEnvironment (errors.hpp) naming the variable ("the environment variable
// RANK must be an integer in [0, 2) (WORLD_SIZE = 2), got \"one\""). WORLD_SIZE and SLURM_NTASKS
// are bounded by world_size_limit() below, so that a world no rank could join is refused at once
// rather than after minutes of opening sockets.
#include <functional>
#include <string>

namespace geomsim::train {

struct LaunchEnvironment {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  // The job's ranks on this machine (they share its cores): LOCAL_WORLD_SIZE under torchrun
  // (absent: WORLD_SIZE, a one-node job); under Slurm SLURM_NTASKS on one node, else the tasks
  // shared out among SLURM_NNODES nodes, rounded up.
  int local_world_size = 1;
  std::string master_addr;  // empty when world_size == 1
  int master_port = 0;      // in [1, 65535]; 0 when world_size == 1
  std::string launcher = "none";  // "torchrun", "slurm" or "none"
  bool distributed() const { return world_size > 1; }
};

// Looks a variable up: its value, or nullptr when it is not set. std::getenv by default; tests
// pass a map.
using EnvironmentLookup = std::function<const char*(const char*)>;

LaunchEnvironment read_launch_environment();
LaunchEnvironment read_launch_environment(const EnvironmentLookup& lookup);

// The most ranks this machine can hold, and why, for the messages that refuse more.
struct RankLimit {
  int most = 1;     // >= 1: one rank (this process) is always possible
  std::string why;  // e.g. "each rank keeps about 2 open files per rank of its job ..."
  // "in [1, <most>] (<why>)", to complete "must be an integer ..." or "must be ...".
  std::string range() const;
};

// The largest job (world size) a process here can join. Each rank keeps a socket to every other
// rank (Gloo's full mesh; NCCL's bootstrap likewise), and rank 0 also one per rank for the
// rendezvous store it serves (c10d's TCPStore): about 2 file descriptors per rank of the job.
// They must fit within this process's RLIMIT_NOFILE soft limit (`ulimit -n`; inherited by the
// ranks a launcher starts) less kReservedFiles for everything else a rank opens (its data,
// checkpoints, libraries, the backends' event loops): most = (limit - 64) / 2, and at most 2^24.
// Without this bound a WORLD_SIZE of 2^24 failed only after minutes, with "Too many open files".
RankLimit world_size_limit();

// The most ranks one machine can run at once (--nproc-per-node, launch_local): those of
// world_size_limit(), and no more than the memory available (available_memory_bytes(),
// memory_budget.hpp) holds at kRankMemoryBytes each: the memory of its own that a rank of
// geomsim-torch train holds while it waits at the rendezvous, before any data, model or step
// (measured with libtorch 1.13: 159 MB resident, of which 98 MB are libtorch's file pages, which
// the ranks share, and 59 MB anonymous). A floor, so that only what cannot fit is refused.
RankLimit local_ranks_limit();

inline constexpr int kReservedFiles = 64;
inline constexpr double kRankMemoryBytes = 60e6;

// The longest a rank waits for the others (--distributed-timeout, DistributedOptions): a day. No
// rendezvous or collective of a real run waits that long (a step takes seconds; torch.distributed's
// default is 30 minutes), and c10d turns the timeout into milliseconds and adds it to clock
// readings in nanoseconds: 1e10 s made every rank fail its rendezvous at once ("The client socket
// has timed out after 10000000000s"), 1e16 s with "Numerical argument out of domain", 1e300 s
// after a negative timeout (a double cast to an integer it does not fit).
inline constexpr double kMaxDistributedTimeoutSeconds = 86400.0;

// The one check of that timeout, wherever it is given: InvalidArgument(argument) unless it is a
// number of seconds in (0, kMaxDistributedTimeoutSeconds].
void require_distributed_timeout(double seconds, const char* argument = "distributed-timeout");

}  // namespace geomsim::train
