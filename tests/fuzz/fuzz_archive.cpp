// libFuzzer harness: the zip check every torch archive passes before libtorch reads it
// (checkpoints, torch.save and torch.jit.save files).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/train/data/archive_integrity.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "checkpoint.pt");
  fuzz::read_or_refuse([&] { train::verify_archive(path, "checkpoint"); });
  return 0;
}
