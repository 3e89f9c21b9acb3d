#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "scratch_folder.hpp"

using geomsim::format_bytes;

TEST_CASE("Available memory is positive and below what any machine has", "[support][memory]") {
  const double available = static_cast<double>(geomsim::available_memory_bytes());
  CHECK(available > 1e6);   // more than a megabyte is free on any machine that runs the tests
  CHECK(available < 1e15);  // and less than a petabyte
}

TEST_CASE("A request that cannot fit is refused with the argument and both sizes", "[support][memory]") {
  CHECK_NOTHROW(geomsim::require_memory("ny", 1e3, "one matrix"));
  try {
    geomsim::require_memory("ny", 8e18, "the N x N matrix");
    FAIL("8 EB was accepted");
  } catch (const geomsim::InvalidArgument& error) {
    CHECK(error.argument() == "ny");
    CHECK(error.requirement().rfind("would need 8 EB for the N x N matrix, more than the ", 0) == 0);
  }
  CHECK_THROWS_AS(geomsim::require_memory("d", 1e300, "x"), geomsim::InvalidArgument);  // absurd estimates do not overflow
  CHECK_THROWS_AS(geomsim::require_memory("d", std::nan(""), "x"), geomsim::InvalidArgument);
}

TEST_CASE("Byte counts read in decimal units", "[support][memory]") {
  CHECK(format_bytes(512) == "512 bytes");
  CHECK(format_bytes(8e8) == "800 MB");
  CHECK(format_bytes(3.2e9) == "3.2 GB");
  CHECK(format_bytes(1.25e13) == "12.5 TB");
}

namespace {
// Writes `text` to ROOT/relative, creating its folders: one file of a fake cgroup tree.
void put(const geomsim::testing::ScratchFolder& root, const std::string& relative, const std::string& text) {
  const std::filesystem::path path = root.root / relative;
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text << "\n";
}
}  // namespace

TEST_CASE("cgroup v2: the process's own cgroup and every parent's limit bind", "[support][memory]") {
  geomsim::testing::ScratchFolder root("cgroup-v2");
  const std::string self = "0::/slurm/job_7/step_0\n";
  put(root, "slurm/job_7/step_0/memory.max", "max");
  put(root, "slurm/job_7/step_0/memory.current", "100000000");
  put(root, "slurm/job_7/memory.max", "4000000000");  // the job's limit, on the step's parent
  put(root, "slurm/job_7/memory.current", "1000000000");
  put(root, "slurm/memory.max", "max");
  put(root, "slurm/memory.current", "9000000000");
  auto headroom = geomsim::cgroup_memory_headroom(self, root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 3e9);  // the job's 4 GB less the 1 GB its steps use, not the step's 100 MB
  // A tighter limit on the step itself wins.
  put(root, "slurm/job_7/step_0/memory.max", "500000000");
  headroom = geomsim::cgroup_memory_headroom(self, root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 4e8);
  // The root's files (read before, whatever the process's cgroup) are not the process's.
  put(root, "memory.max", "max");
  CHECK(*geomsim::cgroup_memory_headroom(self, root.root.string()) == 4e8);
}

TEST_CASE("cgroup v2: \"max\" everywhere is no limit", "[support][memory]") {
  geomsim::testing::ScratchFolder root("cgroup-v2-max");
  put(root, "user.slice/user-1000.slice/session-2.scope/memory.max", "max");
  put(root, "user.slice/user-1000.slice/session-2.scope/memory.current", "5000000");
  put(root, "user.slice/memory.max", "max");
  CHECK_FALSE(geomsim::cgroup_memory_headroom("0::/user.slice/user-1000.slice/session-2.scope\n", root.root.string()));
  // A usage above the limit leaves nothing, not a negative number.
  put(root, "user.slice/memory.max", "4000000");
  put(root, "user.slice/memory.current", "6000000");
  const auto headroom = geomsim::cgroup_memory_headroom("0::/user.slice/user-1000.slice/session-2.scope\n", root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 0.0);
}

TEST_CASE("cgroup v1: the memory controller's line, its cgroup and its parents", "[support][memory]") {
  geomsim::testing::ScratchFolder root("cgroup-v1");
  const std::string self =
      "12:pids:/slurm/uid_1/job_9/step_batch\n"
      "4:cpu,cpuacct:/slurm/uid_1/job_9/step_batch\n"
      "3:hugetlb,memory:/slurm/uid_1/job_9/step_batch\n"
      "1:name=systemd:/system.slice/slurmd.service\n";
  const std::string none = "9223372036854771712";  // v1's "no limit"
  put(root, "memory/slurm/uid_1/job_9/step_batch/memory.limit_in_bytes", none);
  put(root, "memory/slurm/uid_1/job_9/step_batch/memory.usage_in_bytes", "200000000");
  put(root, "memory/slurm/uid_1/job_9/memory.limit_in_bytes", "2000000000");
  put(root, "memory/slurm/uid_1/job_9/memory.usage_in_bytes", "500000000");
  put(root, "memory/slurm/memory.limit_in_bytes", none);
  put(root, "memory/memory.limit_in_bytes", none);
  auto headroom = geomsim::cgroup_memory_headroom(self, root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 1.5e9);
  // A parent whose usage cannot be read holds at least what its child uses.
  std::filesystem::remove(root.root / "memory/slurm/uid_1/job_9/memory.usage_in_bytes");
  headroom = geomsim::cgroup_memory_headroom(self, root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 1.8e9);
  // Only the memory controller's line counts: a limit under another controller's path is not read.
  CHECK_FALSE(geomsim::cgroup_memory_headroom("4:cpu:/slurm/uid_1/job_9\n", root.root.string()));
}

TEST_CASE("cgroup files that are missing fall back to the roots, then to no limit", "[support][memory]") {
  geomsim::testing::ScratchFolder root("cgroup-missing");
  // Nothing at all: no limit (MemAvailable alone, as before).
  CHECK_FALSE(geomsim::cgroup_memory_headroom("0::/docker/abc\n", root.root.string()));
  CHECK_FALSE(geomsim::cgroup_memory_headroom("", root.root.string()));
  CHECK_FALSE(geomsim::cgroup_memory_headroom("not a cgroup line\n", (root.root / "absent").string()));
  // A container sees its own cgroup at the root, while /proc/self/cgroup names the host's path:
  // the path's folders are missing and the root's limit is the one.
  put(root, "memory.max", "3000000000");
  put(root, "memory.current", "1000000000");
  auto headroom = geomsim::cgroup_memory_headroom("0::/docker/abc\n", root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 2e9);
  // No /proc/self/cgroup: the roots as before, v2's then v1's.
  headroom = geomsim::cgroup_memory_headroom("", root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 2e9);
  std::filesystem::remove(root.root / "memory.max");
  put(root, "memory/memory.limit_in_bytes", "700000000");
  headroom = geomsim::cgroup_memory_headroom("", root.root.string());
  REQUIRE(headroom);
  CHECK(*headroom == 7e8);
  // A limit file that holds no number is no limit.
  put(root, "memory/memory.limit_in_bytes", "garbage");
  CHECK_FALSE(geomsim::cgroup_memory_headroom("", root.root.string()));
}

TEST_CASE("Available memory is at most what this process's cgroups leave", "[support][memory]") {
  std::ifstream file("/proc/self/cgroup");
  const std::string self((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  const auto headroom = geomsim::cgroup_memory_headroom(self, "/sys/fs/cgroup");
  if (headroom) CHECK(static_cast<double>(geomsim::available_memory_bytes()) <= *headroom + 64e6);  // usage moves a little
}
