// libFuzzer harness: a user's label hierarchy file, JSON or CSV (told apart by the first byte).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "hierarchy");
  fuzz::read_or_refuse([&] {
    const train::LabelHierarchy hierarchy = train::read_hierarchy_file(path, "hierarchy");
    fuzz::require_consistent(hierarchy.coarse_of_fine.size() == hierarchy.fine_names.size(), "coarse_of_fine != fine classes");
    for (const int coarse : hierarchy.coarse_of_fine) {
      fuzz::require_consistent(coarse >= 0 && coarse < hierarchy.num_coarse(), "a coarse label outside 0..C-1");
    }
  });
  return 0;
}
