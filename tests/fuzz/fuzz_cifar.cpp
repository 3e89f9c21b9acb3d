// libFuzzer harness: CIFAR binary batches, read as CIFAR-10 (one label byte) and as CIFAR-100
// (two, the fine one picked), plain or gzipped.
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/train/data/image_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "data_batch_1.bin");
  for (const int label_bytes : {1, 2}) {
    fuzz::read_or_refuse([&] {
      const auto read = train::read_cifar_binary({path}, label_bytes, label_bytes - 1, "cifar");
      fuzz::require_consistent(read.images.data.size() == read.labels.size() * 3 * 32 * 32, "images != labels x 3072 bytes");
    });
  }
  return 0;
}
