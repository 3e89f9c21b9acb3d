#pragma once
// Starting N ranks of a program on this machine, as `torchrun --nproc-per-node N` does: the
// program runs N times (fork + execve, never a shell), rank r with RANK = r, WORLD_SIZE = N,
// LOCAL_RANK = r, LOCAL_WORLD_SIZE = N, MASTER_ADDR = 127.0.0.1 and MASTER_PORT = a free port,
// on top of this process's environment. The launcher waits for all of them. When one exits
// with a non-zero status or is killed by a signal, the others are given `failure_wait_seconds`
// to end on their own (they normally fail at once with their own message, since the dead
// rank's connections close), then SIGTERM, then SIGKILL after `grace_seconds`. The report says
// which rank failed first and how. No libtorch here.
//
// The children die with the launcher (PR_SET_PDEATHSIG), so a killed launcher leaves no ranks
// behind.
#include <string>
#include <sys/types.h>
#include <utility>
#include <vector>

#include "geomsim/train/distributed/distributed_failure.hpp"

namespace geomsim::train {

struct LocalLaunchOptions {
  int processes = 1;                      // N, >= 1
  std::string master_addr = "127.0.0.1";  // what MASTER_ADDR says (rank 0 serves there)
  int master_port = 0;                    // 0: a free port (free_local_port)
  double failure_wait_seconds = 5.0;      // after a rank fails, before SIGTERM to the others
  double grace_seconds = 5.0;             // after SIGTERM, before SIGKILL
  double timeout_seconds = 0.0;           // > 0: end every rank after this long (reported as a timeout)
  // Empty: the ranks write to this process's stdout and stderr. Otherwise rank r's stdout and
  // stderr go to <log_directory>/rank_<r>.log (created or truncated), the directory existing.
  std::string log_directory;
  // Extra variables for every rank (they override this process's), e.g. {"OMP_NUM_THREADS", "1"}.
  std::vector<std::pair<std::string, std::string>> environment;
};

struct RankOutcome {
  int rank = 0;
  pid_t pid = -1;
  bool exited = false;      // ended by exit(): exit_status holds the status
  int exit_status = 0;
  int signal = 0;           // killed by this signal (exited == false)
  double seconds = 0.0;     // when it ended, counted from the launch
  bool terminated = false;  // the launcher sent it SIGTERM or SIGKILL
  bool failed() const { return !exited || exit_status != 0; }
  // "rank 1 (pid 4242) was killed by signal 9 (Killed) after 1.52 s", "... exited with status 3 ...".
  std::string describe() const;
};

struct LaunchReport {
  std::vector<RankOutcome> ranks;  // by rank
  int master_port = 0;
  int first_failed_rank = -1;  // the first rank seen to fail; -1 when none did
  bool timed_out = false;
  double seconds = 0.0;        // the whole launch
  bool success() const { return first_failed_rank < 0 && !timed_out; }
  // One line per rank, the first failure first.
  std::string summary() const;
};

// Runs `program` (a path; not searched in PATH) with `arguments` (argv[1..]) as
// options.processes ranks. Throws InvalidArgument for bad options and DistributedFailure when
// a rank cannot be started at all (no such program, not executable): the ranks started before
// it are ended first.
LaunchReport launch_local(const std::string& program, const std::vector<std::string>& arguments,
                          const LocalLaunchOptions& options);

// A TCP port that was free a moment ago on every local address (bound with port 0, then
// closed), as torchrun finds one. Another process may take it before rank 0 does; a clash shows
// up as rank 0's DistributedFailure "could not serve the rendezvous on MASTER_PORT".
int free_local_port();

}  // namespace geomsim::train
