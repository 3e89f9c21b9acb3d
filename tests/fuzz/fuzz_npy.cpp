// libFuzzer harness: NumPy .npy files (embeddings as floats, labels as integers).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/support/npy_array.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "input.npy");
  fuzz::read_or_refuse([&] {
    NpyHeader header;
    const auto values = read_npy_floats(path, "embeddings", header, "embeddings");
    fuzz::require_consistent(values.size() == header.count(), "float values != product of the shape");
  });
  fuzz::read_or_refuse([&] {
    NpyHeader header;
    const auto values = read_npy_integers(path, "labels", header);
    fuzz::require_consistent(values.size() == header.count(), "integer values != product of the shape");
  });
  return 0;
}
