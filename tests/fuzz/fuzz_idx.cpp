// libFuzzer harness: IDX arrays (MNIST, Fashion-MNIST), plain or gzipped.
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/train/data/image_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "images-idx3-ubyte");
  fuzz::read_or_refuse([&] {
    const train::ByteArray array = train::read_idx(path, "images");
    std::size_t elements = array.shape.empty() ? 0 : 1;
    for (const auto dimension : array.shape) elements *= dimension;
    fuzz::require_consistent(array.data.size() == elements, "data size != product of the shape");
  });
  return 0;
}
