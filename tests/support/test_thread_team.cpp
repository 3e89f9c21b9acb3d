// The small thread team of multi_start (thread_team.hpp): each slot once, a barrier that orders
// every round (spinning, or asleep past the spin), one OpenMP thread inside, and the caller's
// OpenMP team size and CPUs as they were afterwards.
#include <catch2/catch.hpp>
#include <omp.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/thread_team.hpp"

#ifdef __linux__
#include <sched.h>
#endif

namespace geomsim {
namespace {
#ifdef __linux__
int own_cpu_count() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  REQUIRE(sched_getaffinity(0, sizeof mask, &mask) == 0);
  return CPU_COUNT(&mask);
}
#endif
}  // namespace

TEST_CASE("A thread team runs each slot once and its barrier orders every round", "[support][threads]") {
  ThreadTeam team(2);
  const int size = team.size();
  REQUIRE(size >= 1);
  REQUIRE(size <= 2);
  constexpr int kRounds = 300;
  std::vector<int> written(static_cast<std::size_t>(size), -1);
  std::vector<std::atomic<int>> ran(static_cast<std::size_t>(size));
  std::atomic<int> disorder{0}, nested_threads{0};
  team.run([&](int slot) {
    ran[static_cast<std::size_t>(slot)]++;
    if (omp_get_max_threads() != 1) nested_threads++;
    for (int r = 0; r < kRounds; ++r) {
      // Now and then one slot arrives late, past the spin: the others sleep and are woken.
      if (slot == size - 1 && r % 100 == 7) {
        std::this_thread::sleep_for(std::chrono::microseconds(2 * ThreadTeam::kSpinMicroseconds));
      }
      written[static_cast<std::size_t>(slot)] = r;
      team.barrier();
      for (const int w : written) {
        if (w != r) disorder++;
      }
      team.barrier();
    }
  });
  for (const auto& count : ran) CHECK(count == 1);
  CHECK(disorder == 0);
  CHECK(nested_threads == 0);  // OpenMP regions inside body run on one thread
}

TEST_CASE("A thread team gives the caller its OpenMP team size and CPUs back, and fits the CPUs it has",
          "[support][threads]") {
  omp_set_num_threads(3);
#ifdef __linux__
  cpu_set_t before;
  CPU_ZERO(&before);
  REQUIRE(sched_getaffinity(0, sizeof before, &before) == 0);
  CHECK(ThreadTeam(1000).size() == own_cpu_count());
#endif
  ThreadTeam team(2);
  team.run([](int) {});
  CHECK(omp_get_max_threads() == 3);
#ifdef __linux__
  cpu_set_t after;
  CPU_ZERO(&after);
  REQUIRE(sched_getaffinity(0, sizeof after, &after) == 0);
  CHECK(CPU_EQUAL(&before, &after));
#endif
  omp_set_num_threads(2);
  CHECK(ThreadTeam(1).size() == 1);
  CHECK_THROWS_AS(ThreadTeam(0), InvalidArgument);
}

}  // namespace geomsim
