#pragma once
// The one policy for temporary files on interrupts (issue 53). Every temporary that geomsim
// stages (OutputTransaction: checkpoints, run caches, report pages, gnuplot's images and scripts)
// is named by temporary_name() and registered here while it exists. On SIGINT, SIGTERM or SIGHUP
// the handler that install_interrupt_cleanup() sets
//   1. sends SIGTERM to the registered child processes (gnuplot, a geomsim-torch that geomsim
//      waits for, the ranks of a local launch) and waits for them (SIGKILL after a grace time),
//      so that none writes a temporary again after it is removed;
//   2. removes the registered temporaries (unlink);
//   3. restores the default action and raises the signal again, so the exit status still says
//      "killed by signal N" (a resumable run stays resumable: finished rows and checkpoints are
//      whole files, renamed into place).
// The handler uses only async-signal-safe calls (kill, waitpid, nanosleep, unlink, sigaction,
// raise) on a fixed table of preallocated path buffers with one atomic state per slot: no locks,
// no allocation, so it works on whichever thread the signal arrives (OpenMP's, libtorch's).
// A signal ignored at start (nohup's SIGHUP, SIGINT of a background job) stays ignored, and a
// handler someone else installed first is left alone.
//
// SIGKILL cannot be caught: its temporaries stay. The next process that writes the same file
// removes them (remove_stale_temporaries): names of the form PATH.tmp.HOST.PID.N whose HOST is
// this machine's tag and whose PID is no live process (kill(PID, 0) fails with ESRCH), and the
// older form PATH.tmp.PID.N likewise. The host tag keeps a process on another node that writes
// into the same shared folder (a Slurm job array) from having its live temporaries removed.
#include <spawn.h>
#include <sys/types.h>

#include <signal.h>

#include <cstddef>
#include <string>

namespace geomsim {

// Sets the handler for SIGINT, SIGTERM and SIGHUP (each one whose action is still the default).
// Idempotent and thread-safe; both programs call it first thing in main(). The library never
// installs it by itself: a program embedding it (the Python module) keeps its own signal policy.
void install_interrupt_cleanup();

// "PATH.tmp.HOST.PID.N": HOST the 8 hex digits of this machine's name's FNV-1a hash, N a counter
// of this process (unique among its temporaries).
std::string temporary_name(const std::string& path);

// Registers `temporary` for removal on an interrupt. Returns the slot, or -1 when the table is
// full or the path too long (the file is then left to its owner's destructor and to
// remove_stale_temporaries). Register before creating the file; unregister after renaming or
// removing it.
int register_temporary(const std::string& temporary);
void unregister_temporary(int slot);
// How many temporaries are registered now (tests).
std::size_t registered_temporary_count();

// Removes (unlink) every registered temporary; they stay registered. Async-signal-safe: what the
// handler calls after its children have ended.
void remove_registered_temporaries() noexcept;

// Removes PATH.tmp.HOST.PID.N (HOST this machine's) and PATH.tmp.PID.N files beside `path` whose
// process is gone (kill(PID, 0) fails with ESRCH). Never another live process's, nor this one's.
// Each path is swept once per process. Errors are ignored: the sweep is housekeeping.
void remove_stale_temporaries(const std::string& path);

// A child process (pid) that the handler stops, and waits for, before it removes the
// temporaries (the child may write them). Registered while it lives in this scope.
class RegisteredChild {
 public:
  RegisteredChild() = default;
  explicit RegisteredChild(pid_t pid) { adopt(pid); }
  ~RegisteredChild();
  void adopt(pid_t pid);  // registers `pid` (once: a second call is ignored)
  RegisteredChild(const RegisteredChild&) = delete;
  RegisteredChild& operator=(const RegisteredChild&) = delete;

 private:
  int slot_ = -1;
};

// posix_spawn (posix_spawnp where `search_path`) of `program` with `files` (may be null) and
// `argv`, in this environment, the child registered in `child` with no interrupt between its start
// and its registration; the child takes signals as usual. Returns posix_spawn's error (0: started).
int spawn_registered_child(RegisteredChild& child, pid_t& pid, const char* program, bool search_path,
                           const posix_spawn_file_actions_t* files, char* const argv[]);

// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread while it lives: start a child and
// register it inside one, so no interrupt comes between the two. A child started inside one
// must unblock them itself (posix_spawnattr_setsigmask, or sigprocmask after fork).
class InterruptsBlocked {
 public:
  InterruptsBlocked();
  ~InterruptsBlocked();
  InterruptsBlocked(const InterruptsBlocked&) = delete;
  InterruptsBlocked& operator=(const InterruptsBlocked&) = delete;

 private:
  sigset_t previous_{};
};

}  // namespace geomsim
