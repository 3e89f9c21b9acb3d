#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/interrupt_cleanup.hpp"
#include "scratch_folder.hpp"

namespace fs = std::filesystem;

namespace {

// The names in `folder`.
std::set<std::string> interrupt_test_listing(const fs::path& folder) {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
  return names;
}

// A process id that was ours and has ended (reaped): no live process has it, until pids wrap.
pid_t interrupt_test_dead_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return pid;
}

// The host tag of this machine's temporaries ("HOST" in PATH.tmp.HOST.PID.N).
std::string interrupt_test_host_tag() {
  const std::string name = geomsim::temporary_name("x");  // x.tmp.HOST.PID.N
  return name.substr(6, name.find('.', 6) - 6);
}

// Forks a child that installs the handler (after setting `ignored` to SIG_IGN, when not 0), with
// `temporary` registered; sends it `first` and then SIGTERM. Returns its wait status.
int interrupt_test_child_status(const std::string& temporary, int ignored, int first) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const int slot = geomsim::register_temporary(temporary);  // the child's table is a copy of this one
  REQUIRE(slot >= 0);
  const pid_t pid = ::fork();
  if (pid == 0) {  // only async-signal-safe calls and the handler's installation
    // As at a program's start (Catch2 has handlers of its own while a test runs).
    for (const int s : {SIGINT, SIGTERM, SIGHUP}) ::signal(s, SIG_DFL);
    if (ignored != 0) ::signal(ignored, SIG_IGN);
    geomsim::install_interrupt_cleanup();
    const char byte = 1;
    if (::write(ready[1], &byte, 1) != 1) ::_exit(3);
    for (;;) ::pause();
  }
  geomsim::unregister_temporary(slot);
  REQUIRE(pid > 0);
  ::close(ready[1]);
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  ::kill(pid, first);
  if (first != SIGTERM) {
    ::usleep(200000);  // an ignored signal: the child lives on
    CHECK(::waitpid(pid, nullptr, WNOHANG) == 0);
    CHECK(fs::exists(temporary));
    ::kill(pid, SIGTERM);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

}  // namespace

TEST_CASE("Atomic output on interrupts: Registered temporaries are removed by the interrupt cleanup, unregistered ones are not",
          "[support][atomic][interrupt]") {
  const geomsim::testing::ScratchFolder dir("interrupt-registry");
  const std::size_t before = geomsim::registered_temporary_count();
  const std::string kept = dir("kept.tmp"), removed = dir("removed.tmp"), never = dir("never.tmp");
  const int kept_slot = geomsim::register_temporary(kept);
  const int removed_slot = geomsim::register_temporary(removed);
  const int never_slot = geomsim::register_temporary(never);  // registered, never created
  REQUIRE(kept_slot >= 0);
  REQUIRE(removed_slot >= 0);
  REQUIRE(never_slot >= 0);
  CHECK(geomsim::registered_temporary_count() == before + 3);
  std::ofstream(kept) << "k";
  std::ofstream(removed) << "r";
  geomsim::unregister_temporary(kept_slot);
  CHECK(geomsim::registered_temporary_count() == before + 2);
  geomsim::remove_registered_temporaries();
  CHECK(fs::exists(kept));
  CHECK_FALSE(fs::exists(removed));
  CHECK_FALSE(fs::exists(never));
  // They stay registered until their owner lets them go; a slot is freed once.
  CHECK(geomsim::registered_temporary_count() == before + 2);
  geomsim::unregister_temporary(removed_slot);
  geomsim::unregister_temporary(never_slot);
  geomsim::unregister_temporary(never_slot);
  geomsim::unregister_temporary(-1);
  CHECK(geomsim::registered_temporary_count() == before);
  // A path too long for the table's buffers is not registered.
  CHECK(geomsim::register_temporary(std::string(5000, 'x')) == -1);
  CHECK(geomsim::register_temporary("") == -1);
}

TEST_CASE("Atomic output on interrupts: OutputTransaction's temporaries are named for this host and process and registered while they exist",
          "[support][atomic][interrupt]") {
  const geomsim::testing::ScratchFolder dir("interrupt-transaction");
  const std::size_t before = geomsim::registered_temporary_count();
  const std::string tag = interrupt_test_host_tag();
  CHECK(tag.size() == 8);
  const std::string a = geomsim::temporary_name(dir("a.csv")), b = geomsim::temporary_name(dir("a.csv"));
  CHECK(a != b);  // one counter for the whole process
  CHECK(a.rfind(dir("a.csv") + ".tmp." + tag + "." + std::to_string(::getpid()) + ".", 0) == 0);
  {
    geomsim::OutputTransaction out;
    out.stage(dir("one.csv"), "1\n", "out");
    const std::string image = out.reserve(dir("two.png"), "out");
    CHECK(image.find(".tmp." + tag + ".") != std::string::npos);
    CHECK(geomsim::registered_temporary_count() == before + 2);
    std::ofstream(image) << "half an image";
    geomsim::remove_registered_temporaries();  // what the handler does
    CHECK(interrupt_test_listing(dir.root).empty());
  }  // the destructor unregisters them
  CHECK(geomsim::registered_temporary_count() == before);
  {
    geomsim::OutputTransaction out;
    out.stage(dir("one.csv"), "1\n", "out");
    out.commit();
    CHECK(geomsim::registered_temporary_count() == before);
  }
  CHECK(interrupt_test_listing(dir.root) == std::set<std::string>{"one.csv"});
}

TEST_CASE("Atomic output on interrupts: A writer removes the temporaries that killed processes left beside its file, and only those",
          "[support][atomic][interrupt]") {
  const geomsim::testing::ScratchFolder dir("interrupt-stale");
  const std::string tag = interrupt_test_host_tag();
  const std::string dead = std::to_string(interrupt_test_dead_pid());
  const std::string alive = std::to_string(::getppid()), self = std::to_string(::getpid());
  const std::string other_host = tag == "00000000" ? "00000001" : "00000000";
  const std::set<std::string> stale = {"out.csv.tmp." + dead + ".0", "out.csv.tmp." + tag + "." + dead + ".12"};
  const std::set<std::string> kept = {
      "out.csv.tmp." + alive + ".0",                      // a live process's (the older form)
      "out.csv.tmp." + tag + "." + alive + ".3",          // a live process's
      "out.csv.tmp." + tag + "." + self + ".999",         // this process's own
      "out.csv.tmp." + other_host + "." + dead + ".0",    // another machine's: its pid means nothing here
      "other.csv.tmp." + dead + ".0",                     // another file's
      "out.csv.tmp." + dead,                              // not a temporary's name
      "out.csv.tmp." + dead + ".0.bak",
      "out.csv.tmp.1.0",                                  // init: never a writer
      "out.csv.tmp.0.0",
  };
  for (const auto& name : stale) std::ofstream(dir(name)) << "stale";
  for (const auto& name : kept) std::ofstream(dir(name)) << "kept";
  fs::create_directory(dir("out.csv.tmp." + tag + "." + dead + ".7"));  // a folder is never removed
  geomsim::OutputTransaction out;
  out.stage(dir("out.csv"), "x\n", "out");
  out.commit();
  std::set<std::string> expected = kept;
  expected.insert("out.csv");
  expected.insert("out.csv.tmp." + tag + "." + dead + ".7");
  CHECK(interrupt_test_listing(dir.root) == expected);
}

TEST_CASE("Atomic output on interrupts: SIGTERM removes the registered temporaries and ends the process by the signal, and an ignored signal stays ignored",
          "[support][atomic][interrupt]") {
  const geomsim::testing::ScratchFolder dir("interrupt-signal");
  const std::string temporary = dir("checkpoint.pt.tmp.x");
  std::ofstream(temporary) << "half a checkpoint";
  int status = interrupt_test_child_status(temporary, 0, SIGTERM);
  CHECK(WIFSIGNALED(status));
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
  CHECK_FALSE(fs::exists(temporary));

  std::ofstream(temporary) << "half a checkpoint";
  status = interrupt_test_child_status(temporary, SIGHUP, SIGHUP);  // as under nohup
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
  CHECK_FALSE(fs::exists(temporary));
}
