#pragma once
// The data-parallel job a training command runs in: `geomsim train`, `geomsim robustness` and
// `geomsim experiment` each join it once, from the launch environment (torchrun, srun, or the
// CLI's --nproc-per-node, which starts the ranks; launch_environment.hpp), and hand it to every
// run they train. One process (no RANK or SLURM_PROCID): world size 1, no process group, and
// every collective is free. Only rank 0 writes results, checkpoints, caches and pages, and
// prints progress. Built only with libtorch.
#include <functional>
#include <string>

#include <torch/torch.h>

#include "geomsim/train/distributed/distributed_context.hpp"

namespace geomsim::train_experiments {

// Forms the job's process group on `device` (Gloo on the CPU, NCCL on CUDA) with a rendezvous
// and collectives bounded by timeout_seconds (InvalidArgument("distributed-timeout") unless in
// (0, a day]: require_distributed_timeout). Throws DistributedFailure when the rendezvous fails.
train::DistributedContext join_data_parallel_job(double timeout_seconds, const torch::Device& device);

// Refuses (InvalidArgument("device")) a run on another device than its job's collectives.
void require_job_device(const train::DistributedContext& job, const torch::Device& device);

// libtorch's threads for this process: `threads` (InvalidArgument("threads") beyond the cores),
// where 0 means all cores, or, for each of a job's ranks on this machine, the cores shared out
// among them (all cores for each would oversubscribe the machine).
void set_rank_threads(int threads);

// The progress of a training command (`command`: "geomsim train"): a call that writes each line
// it is given as "COMMAND: LINE" on stderr, on rank 0 unless `quiet` (elsewhere none: an empty
// std::function), when stderr is a terminal or a regular file, and none into a pipe (CI's logs stay
// quiet, as DESIGN.md asks of progress). Each line is written whole as it comes (stderr is
// unbuffered), so a redirected log (Slurm's output file) holds every epoch finished before a
// failure: a rank that dies makes rank 0 end with exit 3, and nothing it had to say is left in a buffer.
std::function<void(const std::string&)> progress_lines(const std::string& command, bool quiet, const train::DistributedContext& job);

// Refuses (InvalidArgument("nproc-per-node")) to run `what` as a rank of a data-parallel job.
// geomsim train-sweep runs in one process (a grid of runs is a job array: one process per run).
void require_one_process(const std::string& what);

}  // namespace geomsim::train_experiments
