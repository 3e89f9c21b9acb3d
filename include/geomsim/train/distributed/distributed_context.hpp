#pragma once
// One process's place in a data-parallel job and its process group: PyTorch's own c10d, never
// an engine of ours. Gloo on the CPU; NCCL on CUDA where this libtorch has it (compiled with
// USE_C10D_NCCL). Rank 0 serves the rendezvous (a c10d TCPStore at MASTER_ADDR:MASTER_PORT);
// every rank connects to it, then Gloo connects every pair of ranks.
//
// With world size 1 there is no store and no group: every collective returns at once and the
// tensors are left as they are (no copy), so a one-process run pays nothing.
//
// The timeout bounds every wait on another process. The rendezvous: every rank must have
// connected within it, and the store at MASTER_ADDR:MASTER_PORT must have answered (a program
// there that accepts connections and never answers is given up on after the timeout and
// kStoreGraceSeconds = 2 s, with a DistributedFailure naming the address, the port and the
// timeout; c10d alone would wait for ever, see distributed_context.cpp). And every
// collective: a rank that exits or is killed makes the others fail at once (its connections
// close), one that stops answering makes them fail after the timeout. Either way they throw
// DistributedFailure, whose message says which collective, which rank (with two ranks) and
// what c10d reported, e.g.
//   "rank 0 of 2: the all-gather of embeddings failed: rank 1 closed its connection (it exited
//    or was killed; see its own output). Gloo said: ... Connection closed by peer ..."
// After a DistributedFailure the group is unusable: end the process (the CLI exits 3).
//
// Usage: see data_parallel.hpp for what an epoch loop calls. Every rank must call the
// collectives in the same order with tensors of the same shapes and dtypes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/distributed/distributed_failure.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"

namespace geomsim::train {

struct DistributedOptions {
  // Seconds the rendezvous and each collective may take before the ranks give up: in (0, a day]
  // (kMaxDistributedTimeoutSeconds, launch_environment.hpp).
  // torch.distributed's default is 30 minutes; ours is shorter, since a training step on this
  // tool's models takes seconds and a hung rank should not hold a Slurm allocation for long.
  double timeout_seconds = 300.0;
  // The device of the tensors the collectives see: CPU (Gloo), or CUDA (NCCL, device index
  // LOCAL_RANK when the index is not given).
  torch::Device device = torch::kCPU;
};

enum class ReduceOperation { sum, max, min };

// Seconds spent waiting in one kind of collective since the context was made (or reset),
// on this rank: transfer plus waiting for slower ranks.
struct CollectiveTime {
  std::string what;  // the label passed to the collective, e.g. "all-gather of embeddings"
  int64_t calls = 0;
  double seconds = 0.0;
  double bytes = 0.0;  // this rank's input bytes
};

// The c10d backends this build can use for several ranks: "gloo" (CPU tensors), and "nccl"
// (CUDA tensors) where libtorch has NCCL.
std::vector<std::string> available_distributed_backends();

class DistributedContext {
 public:
  // One process: world size 1, no process group.
  DistributedContext();
  // Forms the process group for `environment` (nothing when its world size is 1). Throws
  // InvalidArgument for bad options (timeout_seconds outside (0, a day], a CUDA device without NCCL in this
  // libtorch when world size > 1), InvalidEnvironment for a world size beyond
  // world_size_limit() (launch_environment.hpp), and DistributedFailure when the rendezvous fails
  // (rank 0 unreachable or not answering, MASTER_PORT in use, a rank missing after the timeout).
  explicit DistributedContext(const LaunchEnvironment& environment, const DistributedOptions& options = {});
  // read_launch_environment(), then the above.
  static DistributedContext from_environment(const DistributedOptions& options = {});

  int rank() const;
  int world_size() const;
  int local_rank() const;
  bool distributed() const { return world_size() > 1; }
  // Rank 0, the one that writes checkpoints, results and progress.
  bool is_main() const { return rank() == 0; }
  torch::Device device() const;
  double timeout_seconds() const;
  // "none" (world size 1), "gloo" or "nccl".
  std::string backend() const;

  // The collectives, blocking until done on this rank. `what` names the collective in
  // messages and in communication_times(). With world size 1 they return at once.
  // In place; `tensor` must be contiguous.
  void all_reduce_(torch::Tensor& tensor, ReduceOperation operation, const std::string& what) const;
  // Several tensors, all started before the first is waited for (one Gloo call each).
  void all_reduce_(std::vector<torch::Tensor>& tensors, ReduceOperation operation, const std::string& what) const;
  // Every rank's `local` (the same shape on every rank) stacked along dim 0 in rank order:
  // [world * n, ...] for [n, ...]. No autograd: see all_gather_with_grad (data_parallel.hpp).
  // World size 1: `local` itself.
  torch::Tensor all_gather(const torch::Tensor& local, const std::string& what) const;
  // In place: every rank ends with `root`'s values. `tensor` must be contiguous.
  void broadcast_(torch::Tensor& tensor, int root, const std::string& what) const;
  void barrier(const std::string& what) const;

  std::vector<CollectiveTime> communication_times() const;
  void reset_communication_times() const;

 private:
  struct Impl;
  std::shared_ptr<Impl> impl_;  // shared: copies of a context are handles on one group
};

}  // namespace geomsim::train
