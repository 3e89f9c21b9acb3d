// The process group behind DistributedContext: c10d's TCPStore for the rendezvous, Gloo (or
// NCCL) for the collectives. This is the one translation unit that includes c10d's backend
// headers; CMake defines USE_C10D_GLOO (and USE_C10D_NCCL where libtorch has NCCL) for it.
#include "geomsim/train/distributed/distributed_context.hpp"

#include <dirent.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <set>
#include <thread>

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

// --- The rendezvous store, within the timeout ------------------------------------------------
//
// c10d's TCPStore applies its timeout to connect() and, on rank 0, to the wait for the other
// ranks, but not to the answer to a client's first request: libtorch 1.13 reads the reply to the
// "init/" counter's ADD (TCPStore::waitForWorkers), torch 2.x the reply to its ping (after
// validate()), with a blocking recv() on a socket that has no SO_RCVTIMEO (TCPClient::setTimeout
// exists but the constructor never calls it). A program on MASTER_PORT that accepts connections
// and never answers (another service, a stopped rank 0) held a rank there for ever, whatever
// --distributed-timeout said. So the store is made on a thread of its own and waited for with the
// timeout, plus kStoreGraceSeconds for c10d's own timeouts (counted in whole seconds) to end
// first with their own errors. When it has not finished by then, the sockets it opened to
// MASTER_PORT are shut down (shutdown(2): the descriptors stay c10d's to close), which ends the
// blocked recv() with an error, so the constructor throws and the thread ends and is joined. A
// thread that still does not end within kStoreJoinSeconds (it is inside connect() or a name
// lookup) is detached: it owns all it touches (StoreAttempt is shared), and a process that exits
// meanwhile ends it in that system call.
constexpr double kStoreGraceSeconds = 2.0;
constexpr double kStoreJoinSeconds = 2.0;

struct StoreAttempt {
  std::mutex mutex;
  std::condition_variable finished;
  bool done = false;
  c10::intrusive_ptr<c10d::Store> store;
  std::exception_ptr error;
};

// The sockets this process has open (/proc/self/fd).
std::set<int> open_sockets() {
  std::set<int> sockets;
  DIR* folder = ::opendir("/proc/self/fd");
  if (folder == nullptr) return sockets;
  const int own = ::dirfd(folder);
  while (const dirent* entry = ::readdir(folder)) {
    char* end = nullptr;
    const long fd = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0' || fd == own) continue;
    struct stat status {};
    if (::fstat(static_cast<int>(fd), &status) == 0 && S_ISSOCK(status.st_mode)) sockets.insert(static_cast<int>(fd));
  }
  ::closedir(folder);
  return sockets;
}

// The port a connected TCP socket's peer listens on; -1 when it is not connected.
int peer_port(int fd) {
  sockaddr_storage address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) return -1;
  if (address.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in*>(&address)->sin_port);
  if (address.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6*>(&address)->sin6_port);
  return -1;
}

// What make_store_within reports.
struct BoundedStore {
  c10::intrusive_ptr<c10d::Store> store;  // when it was made in time
  std::exception_ptr error;               // when c10d threw in time
  bool timed_out = false;                 // neither: the thread was still at work after the bound
  bool connected = false;                 // timed out with a connection to the port open (nobody answered)
};

BoundedStore make_store_within(const std::string& host, const c10d::TCPStoreOptions& options, double seconds) {
  const std::set<int> before = open_sockets();
  auto attempt = std::make_shared<StoreAttempt>();
  std::thread worker([attempt, host, options] {
    c10::intrusive_ptr<c10d::Store> store;
    std::exception_ptr error;
    try {
      store = c10::make_intrusive<c10d::TCPStore>(host, options);
    } catch (...) {
      error = std::current_exception();
    }
    const std::lock_guard<std::mutex> lock(attempt->mutex);
    attempt->store = std::move(store);
    attempt->error = error;
    attempt->done = true;
    attempt->finished.notify_all();
  });
  // Joined below, or left behind (detached) on any other way out, an exception included.
  struct JoinedOrDetached {
    std::thread& thread;
    ~JoinedOrDetached() {
      if (thread.joinable()) thread.detach();
    }
  } guard{worker};
  BoundedStore outcome;
  std::unique_lock<std::mutex> lock(attempt->mutex);
  // `seconds` is at most a day and kStoreGraceSeconds (require_distributed_timeout).
  if (attempt->finished.wait_for(lock, to_milliseconds(seconds), [&] { return attempt->done; })) {
    outcome.store = std::move(attempt->store);
    outcome.error = attempt->error;
    lock.unlock();
    worker.join();
    return outcome;
  }
  lock.unlock();
  outcome.timed_out = true;
  for (const int fd : open_sockets()) {
    if (before.count(fd) == 0 && peer_port(fd) == options.port) {
      outcome.connected = true;
      ::shutdown(fd, SHUT_RDWR);
    }
  }
  lock.lock();
  const bool ended = attempt->finished.wait_for(lock, to_milliseconds(kStoreJoinSeconds), [&] { return attempt->done; });
  attempt->store.reset();  // made too late: closed here, or by the thread if it is left behind
  lock.unlock();
  if (ended) worker.join();
  return outcome;
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
  c10d::TCPStoreOptions store_options;
  store_options.port = static_cast<std::uint16_t>(environment.master_port);
  store_options.isServer = rank == 0;
  store_options.numWorkers = static_cast<std::size_t>(world_size);
  store_options.waitWorkers = true;
  store_options.timeout = timeout;
  BoundedStore made = make_store_within(environment.master_addr, store_options, timeout_seconds + kStoreGraceSeconds);
  if (made.timed_out) {
    std::string message = who() + " could not meet the other ranks at " + rendezvous + " within the timeout of " +
                          seconds_text(timeout_seconds) + " (--distributed-timeout): ";
    if (rank == 0) {
      message += "the rendezvous it serves did not complete (are all " + std::to_string(world_size) +
                 " ranks started, with the same MASTER_ADDR and MASTER_PORT?)";
    } else if (made.connected) {
      message += "the program on that port accepted the connection but never answered c10d's rendezvous (is it "
                 "rank 0 of this job, or another program's port? is rank 0 stopped or hung?)";
    } else {
      message += "no connection to that address was made (is MASTER_ADDR this job's rank 0, and reachable?)";
    }
    throw DistributedFailure(message);
  }
  try {
    if (made.error) std::rethrow_exception(made.error);
    store = std::move(made.store);
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
  require_distributed_timeout(options.timeout_seconds, "timeout");
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
