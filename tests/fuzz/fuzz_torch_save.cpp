// libFuzzer harness: a tensor torch.save wrote, read as --embeddings and as --labels (the
// reader tells .npy, torch.save and CSV apart by the first bytes, so all three are reached).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/train/data/embedding_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "tensor.pt");
  fuzz::read_or_refuse([&] { train::read_embeddings(path, "embeddings"); });
  fuzz::read_or_refuse([&] { train::read_labels(path, "labels"); });
  return 0;
}
