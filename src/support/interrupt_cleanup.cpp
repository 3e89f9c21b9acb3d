#include "geomsim/support/interrupt_cleanup.hpp"

#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <set>

#include "geomsim/support/fnv1a_hash.hpp"

extern char** environ;

namespace geomsim {
namespace fs = std::filesystem;

namespace {

// The table the handler reads. Static storage: zero-initialised before anything runs, never
// allocated, never freed. 512 paths of up to 4095 bytes (2 MiB of address space, touched only
// where used): a report stages a few dozen files at a time.
constexpr int kTemporarySlots = 512;
constexpr std::size_t kPathBytes = 4096;
constexpr int kChildSlots = 64;
// A slot is free, being filled (its path not complete: skipped), held, or being read by the
// cleanup (its owner waits before freeing it, so the path is never rewritten under the reader).
enum SlotState : int { kFree = 0, kFilling = 1, kHeld = 2, kCleaning = 3 };
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler needs lock-free atomics");
static_assert(std::atomic<pid_t>::is_always_lock_free, "the signal handler needs lock-free atomics");

std::atomic<int> slot_state[kTemporarySlots];
char slot_path[kTemporarySlots][kPathBytes];
std::atomic<pid_t> child_pid[kChildSlots];
std::atomic<int> interrupted{0};  // the first handler to set it cleans up; others return
std::atomic<bool> installed{false};
std::atomic<std::uint64_t> temporary_counter{0};

constexpr int kInterruptSignals[] = {SIGINT, SIGTERM, SIGHUP};
// How long the handler waits for its children after SIGTERM before it sends SIGKILL.
constexpr long kChildGraceMilliseconds = 5000;
constexpr long kChildPollMilliseconds = 5;

void sleep_milliseconds(long ms) {
  struct timespec delay {};
  delay.tv_sec = ms / 1000;
  delay.tv_nsec = (ms % 1000) * 1000000L;
  while (::nanosleep(&delay, &delay) != 0 && errno == EINTR) {
  }
}

// Whether `pid` has ended (and is reaped). ECHILD: reaped elsewhere (the thread that started it
// waits for it too), or not our child: either way gone as far as we can tell.
bool child_ended(pid_t pid) {
  const pid_t got = ::waitpid(pid, nullptr, WNOHANG);
  return got == pid || (got < 0 && errno == ECHILD);
}

// SIGTERM to every registered child, then wait for them; SIGKILL to those still running after
// the grace time. Async-signal-safe.
void stop_children() {
  pid_t pids[kChildSlots];
  int count = 0;
  for (auto& slot : child_pid) {
    const pid_t pid = slot.load(std::memory_order_acquire);
    if (pid > 0) {
      ::kill(pid, SIGTERM);
      pids[count++] = pid;
    }
  }
  for (long waited = 0; count > 0; waited += kChildPollMilliseconds) {
    int running = 0;
    for (int k = 0; k < count; ++k) {
      if (!child_ended(pids[k])) pids[running++] = pids[k];
    }
    count = running;
    if (count == 0) return;
    if (waited >= kChildGraceMilliseconds) break;
    sleep_milliseconds(kChildPollMilliseconds);
  }
  for (int k = 0; k < count; ++k) {
    ::kill(pids[k], SIGKILL);
    while (::waitpid(pids[k], nullptr, 0) < 0 && errno == EINTR) {
    }
  }
}

void on_interrupt(int signal) {
  const int saved_errno = errno;
  if (interrupted.exchange(1, std::memory_order_acq_rel) == 0) {
    stop_children();
    remove_registered_temporaries();
    // The default action, raised again: pending (the signal is blocked while its handler runs)
    // until this returns, then the process ends as it would have without the handler.
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    ::sigaction(signal, &default_action, nullptr);
    ::raise(signal);
  }
  // Another thread is cleaning up and will end the process.
  errno = saved_errno;
}

std::string host_tag() {
  static const std::string tag = [] {
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0) name[0] = '\0';
    const std::uint64_t h = fnv1a_update(kFnv1aOffsetBasis, name);
    return fnv1a_hex(h).substr(8);  // the low 32 bits: 8 hex digits
  }();
  return tag;
}

bool all_digits(const std::string& text, std::size_t max_length) {
  if (text.empty() || text.size() > max_length) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool all_hex(const std::string& text) {
  for (const char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return !text.empty();
}

// The process id in a temporary's name after "PATH.tmp.": "HOST.PID.N" with this host's tag, or
// "PID.N"; 0 for anything else (another host's, another file's, not a temporary).
pid_t temporary_owner(const std::string& tail) {
  std::string pid_and_counter = tail;
  const std::string own = host_tag() + ".";
  const auto first_dot = tail.find('.');
  if (first_dot == std::string::npos) return 0;
  const std::string first = tail.substr(0, first_dot);
  if (first.size() == own.size() - 1 && all_hex(first) && tail.find('.', first_dot + 1) != std::string::npos) {
    if (tail.compare(0, own.size(), own) != 0) return 0;  // another machine's
    pid_and_counter = tail.substr(own.size());
  }
  const auto dot = pid_and_counter.find('.');
  if (dot == std::string::npos) return 0;
  const std::string pid = pid_and_counter.substr(0, dot), counter = pid_and_counter.substr(dot + 1);
  if (!all_digits(pid, 9) || !all_digits(counter, 20)) return 0;
  const long value = std::stol(pid);
  return value > 1 ? static_cast<pid_t>(value) : 0;  // 0 and 1 are never a writer's
}

}  // namespace

void install_interrupt_cleanup() {
  if (installed.exchange(true)) return;
  struct sigaction action {};
  action.sa_handler = on_interrupt;
  sigemptyset(&action.sa_mask);
  for (const int s : kInterruptSignals) sigaddset(&action.sa_mask, s);  // one handler at a time per thread
  action.sa_flags = SA_RESTART;
  for (const int s : kInterruptSignals) {
    struct sigaction current {};
    if (::sigaction(s, nullptr, &current) != 0) continue;
    // Ignored (nohup, a background job's SIGINT) or someone else's: left as it is.
    if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;
    ::sigaction(s, &action, nullptr);
  }
}

std::string temporary_name(const std::string& path) {
  return path + ".tmp." + host_tag() + "." + std::to_string(::getpid()) + "." +
         std::to_string(temporary_counter.fetch_add(1, std::memory_order_relaxed));
}

int register_temporary(const std::string& temporary) {
  if (temporary.empty() || temporary.size() >= kPathBytes) return -1;
  for (int k = 0; k < kTemporarySlots; ++k) {
    int expected = kFree;
    if (slot_state[k].compare_exchange_strong(expected, kFilling, std::memory_order_acq_rel)) {
      std::memcpy(slot_path[k], temporary.c_str(), temporary.size() + 1);
      slot_state[k].store(kHeld, std::memory_order_release);
      return k;
    }
  }
  return -1;
}

void unregister_temporary(int slot) {
  if (slot < 0 || slot >= kTemporarySlots) return;
  for (;;) {
    int expected = kHeld;
    if (slot_state[slot].compare_exchange_weak(expected, kFree, std::memory_order_acq_rel)) return;
    if (expected != kHeld && expected != kCleaning) return;  // not registered
    // kCleaning: the cleanup on another thread is reading this path; it takes one unlink.
    if (expected == kCleaning) ::sched_yield();
  }
}

std::size_t registered_temporary_count() {
  std::size_t count = 0;
  for (const auto& state : slot_state) count += state.load(std::memory_order_acquire) == kHeld ? 1 : 0;
  return count;
}

void remove_registered_temporaries() noexcept {
  for (int k = 0; k < kTemporarySlots; ++k) {
    int expected = kHeld;
    if (!slot_state[k].compare_exchange_strong(expected, kCleaning, std::memory_order_acq_rel)) continue;
    ::unlink(slot_path[k]);
    slot_state[k].store(kHeld, std::memory_order_release);
  }
}

void remove_stale_temporaries(const std::string& path) {
  static std::mutex mutex;
  static std::set<std::string> swept;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (!swept.insert(path).second) return;
  }
  const fs::path target(path);
  const std::string prefix = target.filename().string() + ".tmp.";
  if (prefix.size() == 5) return;  // no file name
  const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  const pid_t self = ::getpid();
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const pid_t owner = temporary_owner(name.substr(prefix.size()));
    if (owner == 0 || owner == self) continue;
    if (::kill(owner, 0) == 0 || errno != ESRCH) continue;  // alive (EPERM: another user's)
    std::error_code status_error, remove_error;
    if (!fs::is_regular_file(it->symlink_status(status_error))) continue;
    fs::remove(it->path(), remove_error);
  }
}

void RegisteredChild::adopt(pid_t pid) {
  if (pid <= 0 || slot_ >= 0) return;
  for (int k = 0; k < kChildSlots; ++k) {
    pid_t expected = 0;
    if (child_pid[k].compare_exchange_strong(expected, pid, std::memory_order_acq_rel)) {
      slot_ = k;
      return;
    }
  }
}

RegisteredChild::~RegisteredChild() {
  if (slot_ >= 0) child_pid[slot_].store(0, std::memory_order_release);
}

InterruptsBlocked::InterruptsBlocked() {
  sigset_t blocked;
  sigemptyset(&blocked);
  for (const int s : kInterruptSignals) sigaddset(&blocked, s);
  ::pthread_sigmask(SIG_BLOCK, &blocked, &previous_);
}

InterruptsBlocked::~InterruptsBlocked() { ::pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

int spawn_registered_child(RegisteredChild& child, pid_t& pid, const char* program, bool search_path,
                           const posix_spawn_file_actions_t* files, char* const argv[]) {
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attributes, &none);  // the child takes signals as usual
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK);
  int error = 0;
  {
    const InterruptsBlocked blocked;
    error = search_path ? posix_spawnp(&pid, program, files, &attributes, argv, environ)
                        : posix_spawn(&pid, program, files, &attributes, argv, environ);
    if (error == 0) child.adopt(pid);
  }
  posix_spawnattr_destroy(&attributes);
  return error;
}

}  // namespace geomsim
