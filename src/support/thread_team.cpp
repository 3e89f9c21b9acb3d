#include "geomsim/support/thread_team.hpp"

#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <thread>
#include <utility>

#include "geomsim/support/errors.hpp"

#ifdef __linux__
#include <pthread.h>
#include <sched.h>
#endif

namespace geomsim {
namespace {

void pause_briefly() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

bool runtime_places_threads() {
  for (const char* name : {"OMP_PROC_BIND", "OMP_PLACES", "GOMP_CPU_AFFINITY"}) {
    if (std::getenv(name) != nullptr) return true;
  }
  return false;
}

#ifdef __linux__
std::vector<int> own_cpus() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (pthread_getaffinity_np(pthread_self(), sizeof mask, &mask) != 0) return {};
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &mask)) cpus.push_back(cpu);
  }
  return cpus;
}

void run_on(pthread_t thread, const std::vector<int>& cpus) {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  for (const int cpu : cpus) CPU_SET(cpu, &mask);
  pthread_setaffinity_np(thread, sizeof mask, &mask);  // refused: the thread runs where it is
}
#endif

// The calling thread's OpenMP team size for its own regions, restored on the way out.
class OneOpenMpThread {
 public:
  OneOpenMpThread() : before_(omp_get_max_threads()) { omp_set_num_threads(1); }
  ~OneOpenMpThread() { omp_set_num_threads(before_); }
  OneOpenMpThread(const OneOpenMpThread&) = delete;
  OneOpenMpThread& operator=(const OneOpenMpThread&) = delete;

 private:
  int before_;
};

}  // namespace

ThreadTeam::ThreadTeam(int size) : size_(size) {
  require_at_least("size", size, 1);
#ifdef __linux__
  own_ = own_cpus();
  if (runtime_places_threads()) {
    const int places = omp_get_num_places();
    if (omp_get_proc_bind() == omp_proc_bind_false || places < 1) {
      size_ = std::min(size_, std::max(1, static_cast<int>(own_.size())));
      return;
    }
    // The runtime's places (the caller is bound to one of them): slot k on the k-th.
    size_ = std::min(size_, places);
    for (int place = 0; place < size_; ++place) {
      std::vector<int> ids(static_cast<std::size_t>(omp_get_place_num_procs(place)));
      omp_get_place_proc_ids(place, ids.data());
      slot_cpus_.push_back(std::move(ids));
    }
    return;
  }
  // A team larger than the caller's CPUs would spin at every barrier for a thread that cannot run.
  size_ = std::min(size_, std::max(1, static_cast<int>(own_.size())));
  if (size_ <= 1) return;
  std::vector<int> cpus = own_;
  const int here = sched_getcpu();
  for (std::size_t k = 1; k < cpus.size(); ++k) {
    if (cpus[k] == here) std::swap(cpus[0], cpus[k]);
  }
  for (int slot = 0; slot < size_; ++slot) slot_cpus_.push_back({cpus[static_cast<std::size_t>(slot)]});
#endif
}

void ThreadTeam::run(const std::function<void(int)>& body) {
  if (size_ == 1) {
    const OneOpenMpThread one;
    body(0);
    return;
  }
  // The workers wait at a gate until every thread exists, so that a thread the system refuses
  // only makes the team smaller before any barrier counts it.
  std::mutex gate_mutex;
  std::condition_variable gate;
  bool open = false;
  std::vector<std::thread> workers;
  workers.reserve(static_cast<std::size_t>(size_ - 1));
  for (int slot = 1; slot < size_; ++slot) {
    try {
      workers.emplace_back([&, slot] {
        {
          std::unique_lock<std::mutex> lock(gate_mutex);
          gate.wait(lock, [&] { return open; });
        }
        const OneOpenMpThread one;
        body(slot);
      });
    } catch (...) {  // std::system_error, or no memory for the thread's state: a smaller team
      break;
    }
#ifdef __linux__
    // Moved while it waits at the gate: it starts on its own CPU instead of waiting on ours.
    if (!slot_cpus_.empty()) run_on(workers.back().native_handle(), slot_cpus_[static_cast<std::size_t>(slot)]);
#endif
  }
  size_ = static_cast<int>(workers.size()) + 1;
  {
    const std::lock_guard<std::mutex> lock(gate_mutex);
    open = true;
  }
  gate.notify_all();
#ifdef __linux__
  if (!slot_cpus_.empty()) run_on(pthread_self(), slot_cpus_.front());
#endif
  {
    const OneOpenMpThread one;
    body(0);
  }
  for (auto& worker : workers) worker.join();
#ifdef __linux__
  if (!slot_cpus_.empty()) run_on(pthread_self(), own_);
#endif
}

void ThreadTeam::barrier() {
  if (size_ == 1) return;
  const unsigned generation = generation_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == size_) {
    arrived_.store(0, std::memory_order_relaxed);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      generation_.store(generation + 1, std::memory_order_release);
    }
    passed_.notify_all();
    return;
  }
  const auto passed = [&] { return generation_.load(std::memory_order_acquire) != generation; };
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(kSpinMicroseconds);
  for (int spin = 1;; ++spin) {
    if (passed()) return;
    pause_briefly();
    if (spin % 256 == 0 && std::chrono::steady_clock::now() > until) break;
  }
  std::unique_lock<std::mutex> lock(mutex_);
  passed_.wait(lock, passed);
}

}  // namespace geomsim
