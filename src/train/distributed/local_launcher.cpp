#include "geomsim/train/distributed/local_launcher.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <thread>

#include "geomsim/support/interrupt_cleanup.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"

extern char** environ;

namespace geomsim::train {
namespace {

using Clock = std::chrono::steady_clock;

std::string two_decimals(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f", seconds);
  return text;
}

// Closes a file descriptor at the end of a scope.
struct FileDescriptor {
  int fd = -1;
  FileDescriptor() = default;
  explicit FileDescriptor(int value) : fd(value) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() { reset(); }
  void reset() {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
};

struct Child {
  RankOutcome outcome;
  bool running = false;
  // While it runs: an interrupt of the launcher stops it (SIGTERM, so that it removes its own
  // temporaries) and waits for it before the launcher ends (interrupt_cleanup.hpp). Dropped once
  // reaped: its pid may then be another process's.
  std::unique_ptr<RegisteredChild> registration;
};

void signal_running(std::vector<Child>& children, int signal) {
  for (auto& child : children) {
    if (child.running) {
      ::kill(child.outcome.pid, signal);
      child.outcome.terminated = true;
    }
  }
}

// Records how a child ended from waitpid's status.
void record_end(Child& child, int status, double seconds) {
  child.running = false;
  child.registration.reset();
  child.outcome.seconds = seconds;
  if (WIFEXITED(status)) {
    child.outcome.exited = true;
    child.outcome.exit_status = WEXITSTATUS(status);
  } else {
    child.outcome.exited = false;
    child.outcome.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  }
}

// SIGKILL to the children started so far, and reaps them (a rank could not be started).
void kill_and_reap(std::vector<Child>& children) {
  for (auto& child : children) {
    if (!child.running) continue;
    ::kill(child.outcome.pid, SIGKILL);
    int status = 0;
    while (::waitpid(child.outcome.pid, &status, 0) < 0 && errno == EINTR) {
    }
    child.running = false;
    child.registration.reset();
  }
}

}  // namespace

std::string RankOutcome::describe() const {
  std::string text = "rank " + std::to_string(rank) + " (pid " + std::to_string(pid) + ") ";
  if (exited) {
    text += "exited with status " + std::to_string(exit_status);
  } else {
    const char* name = ::strsignal(signal);
    text += "was killed by signal " + std::to_string(signal) + (name != nullptr ? std::string(" (") + name + ")" : "");
  }
  text += " after " + two_decimals(seconds) + " s";
  if (terminated) text += ", ended by the launcher";
  return text;
}

std::string LaunchReport::summary() const {
  std::string text;
  if (timed_out) text += "the launch timed out after " + two_decimals(seconds) + " s\n";
  if (first_failed_rank >= 0) text += "first failure: " + ranks[first_failed_rank].describe() + "\n";
  for (const auto& outcome : ranks) {
    if (outcome.rank != first_failed_rank) text += outcome.describe() + "\n";
  }
  return text;
}

int free_local_port() {
  FileDescriptor socket_fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket_fd.fd < 0) throw DistributedFailure(std::string("could not open a socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);  // where c10d's TCPStore listens
  address.sin_port = 0;
  socklen_t length = sizeof address;
  if (::bind(socket_fd.fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      ::getsockname(socket_fd.fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    throw DistributedFailure(std::string("could not find a free TCP port: ") + std::strerror(errno));
  }
  return ntohs(address.sin_port);
}

LaunchReport launch_local(const std::string& program, const std::vector<std::string>& arguments,
                          const LocalLaunchOptions& options) {
  if (const RankLimit limit = local_ranks_limit(); options.processes < 1 || options.processes > limit.most) {
    throw InvalidArgument("nproc-per-node", "must be " + limit.range() + ", got " + std::to_string(options.processes));
  }
  require_non_negative("failure-wait", options.failure_wait_seconds);
  require_non_negative("grace", options.grace_seconds);
  require_non_negative("timeout", options.timeout_seconds);
  if (options.master_port < 0 || options.master_port > 65535) {
    throw InvalidArgument("master-port", "must be in [0, 65535] (0: a free port), got " + std::to_string(options.master_port));
  }
  if (program.empty()) throw InvalidArgument("program", "must be a path to an executable, got an empty string");

  LaunchReport report;
  report.master_port = options.master_port != 0 ? options.master_port : free_local_port();

  // This process's environment with the launcher's variables on top.
  std::map<std::string, std::string> base;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string text = *entry;
    const auto equals = text.find('=');
    if (equals != std::string::npos) base[text.substr(0, equals)] = text.substr(equals + 1);
  }
  for (const auto& [name, value] : options.environment) base[name] = value;
  base["WORLD_SIZE"] = std::to_string(options.processes);
  base["LOCAL_WORLD_SIZE"] = std::to_string(options.processes);
  base["MASTER_ADDR"] = options.master_addr;
  base["MASTER_PORT"] = std::to_string(report.master_port);

  std::vector<std::string> argv_text{program};
  argv_text.insert(argv_text.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (auto& text : argv_text) argv.push_back(text.data());
  argv.push_back(nullptr);

  const pid_t launcher_pid = ::getpid();
  const auto start = Clock::now();
  const auto since_start = [&] { return std::chrono::duration<double>(Clock::now() - start).count(); };
  std::vector<Child> children(static_cast<std::size_t>(options.processes));
  for (int rank = 0; rank < options.processes; ++rank) {
    auto environment = base;
    environment["RANK"] = std::to_string(rank);
    environment["LOCAL_RANK"] = std::to_string(rank);
    std::vector<std::string> envp_text;
    for (const auto& [name, value] : environment) envp_text.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (auto& text : envp_text) envp.push_back(text.data());
    envp.push_back(nullptr);

    FileDescriptor log;
    if (!options.log_directory.empty()) {
      const std::string path = options.log_directory + "/rank_" + std::to_string(rank) + ".log";
      log.fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (log.fd < 0) {
        const int error = errno;
        kill_and_reap(children);
        throw InvalidArgument("log-directory", "must be a writable directory; could not open " + path + ": " +
                                                   std::strerror(error));
      }
    }
    // The child reports a failed execve through this pipe; a successful one closes it.
    int pipe_fds[2];
    if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
      const int error = errno;
      kill_and_reap(children);
      throw DistributedFailure(std::string("could not start rank ") + std::to_string(rank) + ": pipe: " + std::strerror(error));
    }
    FileDescriptor exec_read(pipe_fds[0]), exec_write(pipe_fds[1]);
    auto registration = std::make_unique<RegisteredChild>();
    // Interrupts blocked from before the fork until the rank is registered: the child unblocks
    // them only after it has reset their actions, so the launcher's handler never runs in it.
    std::optional<InterruptsBlocked> blocked(std::in_place);
    const pid_t pid = ::fork();
    if (pid > 0) registration->adopt(pid);
    if (pid != 0) blocked.reset();  // the child unblocks them below, after their actions are reset
    if (pid == 0) {
      // The child: only async-signal-safe calls until execve.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (::getppid() != launcher_pid) ::_exit(127);  // the launcher is already gone
      struct sigaction default_action {};
      default_action.sa_handler = SIG_DFL;
      for (const int s : {SIGTERM, SIGINT, SIGPIPE, SIGHUP}) ::sigaction(s, &default_action, nullptr);
      sigset_t none;
      sigemptyset(&none);
      ::sigprocmask(SIG_SETMASK, &none, nullptr);
      if (log.fd >= 0 && (::dup2(log.fd, STDOUT_FILENO) < 0 || ::dup2(log.fd, STDERR_FILENO) < 0)) ::_exit(127);
      ::execve(program.c_str(), argv.data(), envp.data());
      const int error = errno;
      [[maybe_unused]] const auto written = ::write(exec_write.fd, &error, sizeof error);
      ::_exit(127);
    }
    if (pid < 0) {
      const int error = errno;
      kill_and_reap(children);
      throw DistributedFailure("could not start rank " + std::to_string(rank) + ": fork: " + std::strerror(error));
    }
    auto& child = children[static_cast<std::size_t>(rank)];
    child.outcome.rank = rank;
    child.outcome.pid = pid;
    child.running = true;
    child.registration = std::move(registration);
    exec_write.reset();
    int exec_error = 0;
    ssize_t got = 0;
    do {
      got = ::read(exec_read.fd, &exec_error, sizeof exec_error);
    } while (got < 0 && errno == EINTR);
    if (got == static_cast<ssize_t>(sizeof exec_error)) {
      kill_and_reap(children);
      throw DistributedFailure("could not start rank " + std::to_string(rank) + ": " + program + ": " +
                               std::strerror(exec_error));
    }
  }

  // Wait for every rank, polling each of ours (never waitpid(-1): the caller may have other children).
  double failure_time = -1.0, terminate_time = -1.0;
  bool killed = false;
  for (;;) {
    bool any_running = false;
    for (auto& child : children) {
      if (!child.running) continue;
      int status = 0;
      const pid_t ended = ::waitpid(child.outcome.pid, &status, WNOHANG);
      if (ended == child.outcome.pid) {
        record_end(child, status, since_start());
        if (child.outcome.failed() && report.first_failed_rank < 0 && !child.outcome.terminated) {
          report.first_failed_rank = child.outcome.rank;
          failure_time = child.outcome.seconds;
        }
      } else if (ended < 0 && errno == ECHILD) {
        child.running = false;  // reaped elsewhere; nothing more to learn
        child.registration.reset();
      } else {
        any_running = true;
      }
    }
    if (!any_running) break;
    const double now = since_start();
    if (terminate_time < 0.0) {
      const bool after_failure = failure_time >= 0.0 && now - failure_time >= options.failure_wait_seconds;
      const bool too_long = options.timeout_seconds > 0.0 && now >= options.timeout_seconds;
      if (after_failure || too_long) {
        report.timed_out = too_long && !after_failure;
        signal_running(children, SIGTERM);
        terminate_time = now;
      }
    } else if (!killed && now - terminate_time >= options.grace_seconds) {
      signal_running(children, SIGKILL);
      killed = true;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  report.seconds = since_start();
  for (auto& child : children) report.ranks.push_back(child.outcome);
  return report;
}

}  // namespace geomsim::train
