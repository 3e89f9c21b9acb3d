#include "geomsim/train_experiments/data_parallel_job.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <iostream>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"
#include "geomsim/train/training/torch_threads.hpp"

namespace geomsim::train_experiments {

train::DistributedContext join_data_parallel_job(double timeout_seconds, const torch::Device& device) {
  train::require_distributed_timeout(timeout_seconds);
  train::DistributedOptions options;
  options.timeout_seconds = timeout_seconds;
  options.device = device;
  return train::DistributedContext(train::read_launch_environment(), options);
}

void require_job_device(const train::DistributedContext& job, const torch::Device& device) {
  if (!job.distributed() || job.device() == device) return;
  throw InvalidArgument("device", "is " + train::device_name(device) + " but the data-parallel job's collectives run on " +
                                      train::device_name(job.device()));
}

void set_rank_threads(int threads) {
  const int ranks_here = train::read_launch_environment().local_world_size;
  train::set_torch_threads(threads == 0 && ranks_here > 1 ? std::max(1, train::available_cores() / ranks_here) : threads);
}

namespace {
// Whether stderr is a terminal or a regular file (a log a user or Slurm keeps), not a pipe.
bool stderr_is_kept() {
  struct stat info {};
  return ::isatty(STDERR_FILENO) == 1 || (::fstat(STDERR_FILENO, &info) == 0 && S_ISREG(info.st_mode));
}
}  // namespace

std::function<void(const std::string&)> progress_lines(const std::string& command, bool quiet, const train::DistributedContext& job) {
  if (quiet || !job.is_main() || !stderr_is_kept()) return {};  // no call: the trainers then build no line
  return [command](const std::string& line) { std::cerr << command + ": " + line + "\n" << std::flush; };
}

void require_one_process(const std::string& what) {
  if (!train::read_launch_environment().distributed()) return;
  throw InvalidArgument("nproc-per-node", "(a data-parallel job: RANK and WORLD_SIZE, or SLURM_PROCID and SLURM_NTASKS, are set) is for "
                                          "geomsim train, robustness and experiment; " + what + " runs in one process (a grid of "
                                          "runs is a job array, one process per run)");
}

}  // namespace geomsim::train_experiments
