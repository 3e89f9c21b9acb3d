// The process group behind DistributedContext: c10d's TCPStore for the rendezvous, Gloo (or
// NCCL) for the collectives. This is the one translation unit that includes c10d's backend
// headers; CMake defines USE_C10D_GLOO (and USE_C10D_NCCL where libtorch has NCCL) for it.
#include "geomsim/train/distributed/distributed_context.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>

#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>
#ifdef USE_C10D_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef USE_C10D_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace geomsim::train {
namespace {

// libtorch 2 split the backends (Gloo, NCCL) from the ProcessGroup that dispatches to them;
// their collectives keep the same signatures.
#if TORCH_VERSION_MAJOR >= 2
using Backend = c10d::Backend;
#else
using Backend = c10d::ProcessGroup;
#endif

using Clock = std::chrono::steady_clock;

std::chrono::milliseconds to_milliseconds(double seconds) {
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(seconds * 1000.0)));
}

std::string seconds_text(double seconds) { return format_number(seconds) + " s"; }

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

// The first line of an exception's message, without Gloo's "[path/file.cc:123] " prefix and
// without c10's backtrace.
std::string first_line(const std::exception& error) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&error);
  std::string text = c10_error != nullptr ? c10_error->what_without_backtrace() : error.what();
  text = text.substr(0, text.find('\n'));
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find("] ");
    if (close != std::string::npos && close < 200) text = text.substr(close + 2);
  }
  return text;
}

c10d::ReduceOp to_c10d(ReduceOperation operation) {
  switch (operation) {
    case ReduceOperation::sum: return c10d::ReduceOp::SUM;
    case ReduceOperation::max: return c10d::ReduceOp::MAX;
    case ReduceOperation::min: return c10d::ReduceOp::MIN;
  }
  return c10d::ReduceOp::SUM;
}

bool is_loopback(const std::string& address) {
  return address == "localhost" || address == "::1" || address.rfind("127.", 0) == 0;
}

}  // namespace

struct DistributedContext::Impl {
  int rank = 0;
  int world_size = 1;
  int local_rank = 0;
  torch::Device device{torch::kCPU};
  double timeout_seconds = DistributedOptions().timeout_seconds;
  std::string backend = "none";
  c10::intrusive_ptr<c10d::Store> store;  // declared before group: destroyed after it
  c10::intrusive_ptr<Backend> group;

  mutable std::mutex times_mutex;  // the collectives may run on autograd's device threads
  mutable std::vector<CollectiveTime> times;

  std::string who() const { return "rank " + std::to_string(rank) + " of " + std::to_string(world_size); }
  std::string peer() const {
    return world_size == 2 ? "rank " + std::to_string(1 - rank) : "one of the other " + std::to_string(world_size - 1) + " ranks";
  }

  [[noreturn]] void fail(const std::string& what, const std::exception& error) const {
    const std::string said = first_line(error);
    std::string message = who() + ": the " + what + " failed: ";
    if (contains(said, "imed out") || contains(said, "timeout")) {
      message += peer() + " stopped answering for the timeout of " + seconds_text(timeout_seconds) +
                 " (it is hung, far slower, or gone without closing its connection)";
    } else if (contains(said, "losed") || contains(said, "reset") || contains(said, "roken pipe") ||
               contains(said, "refused") || contains(said, "EOF")) {
      message += peer() + " closed its connection (it exited or was killed; see its own output)";
    } else {
      message += "the " + backend + " backend reported an error";
    }
    throw DistributedFailure(message + ". " + backend + " said: " + said);
  }

  void wait(const c10::intrusive_ptr<c10d::Work>& work, const std::string& what) const {
    try {
      // The backend's own timeout (set at construction) ends a collective a peer never joins;
      // ours, a little longer, only guards against a backend that would not.
      work->wait(to_milliseconds(timeout_seconds + 5.0));
    } catch (const DistributedFailure&) {
      throw;
    } catch (const std::exception& error) {
      fail(what, error);
    }
  }

  void record(const std::string& what, Clock::time_point start, double bytes) const {
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    const std::lock_guard<std::mutex> lock(times_mutex);
    for (auto& entry : times) {
      if (entry.what == what) {
        entry.calls += 1;
        entry.seconds += seconds;
        entry.bytes += bytes;
        return;
      }
    }
    times.push_back({what, 1, seconds, bytes});
  }

  void check_tensor(const torch::Tensor& tensor, const std::string& what) const {
    if (!tensor.defined()) throw InvalidArgument(what, "needs a defined tensor");
    if (tensor.device() != device) {
      throw InvalidArgument(what, "needs tensors on the group's device " + device.str() + ", got one on " +
                                      tensor.device().str());
    }
  }

  void form_group(const LaunchEnvironment& environment);
};

void DistributedContext::Impl::form_group(const LaunchEnvironment& environment) {
  const auto timeout = to_milliseconds(timeout_seconds);
  const std::string rendezvous = "MASTER_ADDR:MASTER_PORT = " + environment.master_addr + ":" +
                                 std::to_string(environment.master_port);
  try {
    c10d::TCPStoreOptions options;
    options.port = static_cast<std::uint16_t>(environment.master_port);
    options.isServer = rank == 0;
    options.numWorkers = static_cast<std::size_t>(world_size);
    options.waitWorkers = true;
    options.timeout = timeout;
    store = c10::make_intrusive<c10d::TCPStore>(environment.master_addr, options);
  } catch (const std::exception& error) {
    const std::string said = first_line(error);
    if (rank == 0 && (contains(said, "in use") || contains(said, "bind"))) {
      throw DistributedFailure(who() + " could not serve the rendezvous on MASTER_PORT = " +
                               std::to_string(environment.master_port) + ": " + said);
    }
    throw DistributedFailure(who() + " could not meet the other ranks at " + rendezvous + " within " +
                             seconds_text(timeout_seconds) + " (are all " + std::to_string(world_size) +
                             " ranks started, with the same MASTER_ADDR and MASTER_PORT?): " + said);
  }
  try {
    if (device.is_cuda()) {
#ifdef USE_C10D_NCCL
      auto options = c10d::ProcessGroupNCCL::Options::create();
      options->timeout = timeout;
      group = c10::make_intrusive<c10d::ProcessGroupNCCL>(store, rank, world_size, options);
      backend = "nccl";
#endif
    } else {
#ifdef USE_C10D_GLOO
      auto options = c10d::ProcessGroupGloo::Options::create(timeout);
      // GLOO_SOCKET_IFNAME chooses the interface, as in torch.distributed; a job whose rank 0
      // is on this machine's loopback stays on it; otherwise the address this host's name
      // resolves to.
      if (const char* interfaces = std::getenv("GLOO_SOCKET_IFNAME"); interfaces != nullptr && *interfaces != '\0') {
        std::string list = interfaces;
        for (std::size_t begin = 0; begin <= list.size();) {
          const auto end = std::min(list.find(',', begin), list.size());
          if (end > begin) options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(list.substr(begin, end - begin)));
          begin = end + 1;
        }
      } else if (is_loopback(environment.master_addr)) {
        options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname(environment.master_addr));
      } else {
        options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
      }
      group = c10::make_intrusive<c10d::ProcessGroupGloo>(store, rank, world_size, options);
      backend = "gloo";
#endif
    }
  } catch (const std::exception& error) {
    throw DistributedFailure(who() + " could not connect to the other ranks (" + rendezvous + ", timeout " +
                             seconds_text(timeout_seconds) + "): " + first_line(error));
  }
  if (!group) throw DistributedFailure(who() + ": this libtorch has no c10d backend for " + device.str());
}

std::vector<std::string> available_distributed_backends() {
  std::vector<std::string> backends;
#ifdef USE_C10D_GLOO
  backends.push_back("gloo");
#endif
#ifdef USE_C10D_NCCL
  backends.push_back("nccl");
#endif
  return backends;
}

DistributedContext::DistributedContext() : impl_(std::make_shared<Impl>()) {}

DistributedContext::DistributedContext(const LaunchEnvironment& environment, const DistributedOptions& options)
    : impl_(std::make_shared<Impl>()) {
  require_positive("timeout", options.timeout_seconds);
  // The launcher's variables (launch_environment.hpp), named as such.
  const char* world_variable = environment.launcher == "slurm" ? "SLURM_NTASKS" : "WORLD_SIZE";
  if (const RankLimit limit = world_size_limit(); environment.world_size < 1 || environment.world_size > limit.most) {
    throw InvalidEnvironment(world_variable, "must be " + limit.range() + ", got " + std::to_string(environment.world_size));
  }
  if (environment.rank < 0 || environment.rank >= environment.world_size) {
    throw InvalidEnvironment("RANK", "must be in [0, " + std::to_string(environment.world_size) + "), got " +
                                         std::to_string(environment.rank));
  }
  auto& impl = *impl_;
  impl.rank = environment.rank;
  impl.world_size = environment.world_size;
  impl.local_rank = environment.local_rank;
  impl.timeout_seconds = options.timeout_seconds;
  impl.device = options.device;
  if (impl.device.is_cuda() && !impl.device.has_index()) {
    impl.device = torch::Device(torch::kCUDA, static_cast<torch::DeviceIndex>(environment.local_rank));
  }
  if (environment.world_size == 1) return;
  if (impl.device.is_cuda()) {
#ifndef USE_C10D_NCCL
    throw InvalidArgument("device", "cuda with " + std::to_string(environment.world_size) +
                                        " ranks needs NCCL, which this build has not (a libtorch without CUDA, or "
                                        "nccl.h not found when configuring: set NCCL_INCLUDE_DIR); "
                                        "use the CPU (Gloo) or one process");
#endif
  } else if (!impl.device.is_cpu()) {
    throw InvalidArgument("device", "must be cpu or cuda when several ranks train, got " + impl.device.str());
  }
#ifndef USE_C10D_GLOO
  if (impl.device.is_cpu()) {
    throw InvalidArgument("device", "cpu with several ranks needs Gloo, which this build of geomsim was compiled without");
  }
#endif
  impl.form_group(environment);
}

DistributedContext DistributedContext::from_environment(const DistributedOptions& options) {
  return DistributedContext(read_launch_environment(), options);
}

int DistributedContext::rank() const { return impl_->rank; }
int DistributedContext::world_size() const { return impl_->world_size; }
int DistributedContext::local_rank() const { return impl_->local_rank; }
torch::Device DistributedContext::device() const { return impl_->device; }
double DistributedContext::timeout_seconds() const { return impl_->timeout_seconds; }
std::string DistributedContext::backend() const { return impl_->backend; }

void DistributedContext::all_reduce_(torch::Tensor& tensor, ReduceOperation operation, const std::string& what) const {
  std::vector<torch::Tensor> tensors{tensor};
  all_reduce_(tensors, operation, what);
}

void DistributedContext::all_reduce_(std::vector<torch::Tensor>& tensors, ReduceOperation operation,
                                     const std::string& what) const {
  if (impl_->world_size == 1) return;
  const auto start = Clock::now();
  double bytes = 0.0;
  std::vector<c10::intrusive_ptr<c10d::Work>> works;
  c10d::AllreduceOptions options;
  options.reduceOp = to_c10d(operation);
  try {
    for (auto& tensor : tensors) {
      impl_->check_tensor(tensor, what);
      if (!tensor.is_contiguous()) throw InvalidArgument(what, "needs contiguous tensors (it works in place)");
      bytes += static_cast<double>(tensor.nbytes());
      std::vector<at::Tensor> one{tensor};
      works.push_back(impl_->group->allreduce(one, options));
    }
  } catch (const InvalidArgument&) {
    throw;
  } catch (const std::exception& error) {
    impl_->fail(what, error);
  }
  for (const auto& work : works) impl_->wait(work, what);
  impl_->record(what, start, bytes);
}

torch::Tensor DistributedContext::all_gather(const torch::Tensor& local, const std::string& what) const {
  if (impl_->world_size == 1) return local;
  impl_->check_tensor(local, what);
  const auto start = Clock::now();
  auto input = local.contiguous();
  std::vector<int64_t> shape = input.sizes().vec();
  if (shape.empty()) shape.push_back(1);
  const int64_t rows = shape[0];
  shape[0] = rows * impl_->world_size;
  auto output = torch::empty(shape, input.options());
  // One view of `output` per rank: the backend writes each rank's rows in place.
  std::vector<std::vector<at::Tensor>> outputs(1);
  for (int r = 0; r < impl_->world_size; ++r) outputs[0].push_back(output.narrow(0, r * rows, rows).view(input.sizes()));
  std::vector<at::Tensor> inputs{input};
  c10::intrusive_ptr<c10d::Work> work;
  try {
    work = impl_->group->allgather(outputs, inputs);
  } catch (const std::exception& error) {
    impl_->fail(what, error);
  }
  impl_->wait(work, what);
  impl_->record(what, start, static_cast<double>(input.nbytes()));
  return output;
}

void DistributedContext::broadcast_(torch::Tensor& tensor, int root, const std::string& what) const {
  if (impl_->world_size == 1) return;
  impl_->check_tensor(tensor, what);
  if (root < 0 || root >= impl_->world_size) {
    throw InvalidArgument("root", "must be a rank in [0, " + std::to_string(impl_->world_size) + "), got " +
                                      std::to_string(root));
  }
  if (!tensor.is_contiguous()) throw InvalidArgument(what, "needs a contiguous tensor (it works in place)");
  const auto start = Clock::now();
  c10d::BroadcastOptions options;
  options.rootRank = root;
  options.rootTensor = 0;
  std::vector<at::Tensor> tensors{tensor};
  c10::intrusive_ptr<c10d::Work> work;
  try {
    work = impl_->group->broadcast(tensors, options);
  } catch (const std::exception& error) {
    impl_->fail(what, error);
  }
  impl_->wait(work, what);
  impl_->record(what, start, static_cast<double>(tensor.nbytes()));
}

void DistributedContext::barrier(const std::string& what) const {
  if (impl_->world_size == 1) return;
  const auto start = Clock::now();
  c10::intrusive_ptr<c10d::Work> work;
  try {
    work = impl_->group->barrier();
  } catch (const std::exception& error) {
    impl_->fail(what, error);
  }
  impl_->wait(work, what);
  impl_->record(what, start, 0.0);
}

std::vector<CollectiveTime> DistributedContext::communication_times() const {
  const std::lock_guard<std::mutex> lock(impl_->times_mutex);
  return impl_->times;
}

void DistributedContext::reset_communication_times() const {
  const std::lock_guard<std::mutex> lock(impl_->times_mutex);
  impl_->times.clear();
}

}  // namespace geomsim::train
