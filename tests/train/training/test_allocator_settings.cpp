// The allocator settings of geomsim-torch (allocator_settings.hpp), by their effect: counted
// page faults, not timings.
#include "train/catch_with_torch.hpp"
#include <sys/resource.h>

#include "geomsim/train/training/allocator_settings.hpp"

using namespace geomsim::train;

TEST_CASE("With the allocator settings, a freed tensor's pages are reused, not faulted in again", "[train][allocator]") {
  // A 64 MiB tensor allocated, written and freed again and again: glibc's default maps and
  // unmaps each one, so every round faults in its 16384 pages of 4 KiB. Kept, the pages are
  // reused; only the first rounds fault, while the heap grows to its working size.
  REQUIRE(keep_freed_memory_for_tensors());
  const auto minor_faults = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
  };
  const int64_t elements = int64_t{16} << 20;  // floats
  const long pages = static_cast<long>(elements * 4 / 4096);
  const auto round = [&] { return torch::ones({elements}).sum().item<double>(); };
  for (int warm_up = 0; warm_up < 10; ++warm_up) round();
  const auto before = minor_faults();
  for (int k = 0; k < 20; ++k) CHECK(round() == static_cast<double>(elements));
  const long faults = minor_faults() - before;
  CAPTURE(faults, pages);
  CHECK(faults < 2 * pages);  // the default: 20 * pages
}
