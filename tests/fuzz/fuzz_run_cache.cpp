// libFuzzer harness: the run cache of the training experiments (a CSV of finished runs), read
// as an experiment resumes from it.
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/experiments/run_cache.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "runs.csv");
  fuzz::read_or_refuse([&] {
    const RunCache cache(path, {"method", "seed"}, "out");
    for (const auto& row : cache.rows()) fuzz::read_or_refuse([&] { cache.find(row); });
  });
  return 0;
}
