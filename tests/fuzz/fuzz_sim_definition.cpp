// libFuzzer harness: a sims/ definition (JSON), as `geomsim report --sims` loads each one.
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/figures/sim_figures.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "definition.json");
  // The training kinds geomsim-torch runs (train_experiments/experiment_kinds.cpp), accepted
  // without checking their parameters, as the report does.
  static const std::vector<std::string> training_kinds{"transfer", "trained_spread", "strata", "lipschitz", "robustness"};
  fuzz::read_or_refuse([&] { load_sim_definition(path, training_kinds); });
  return 0;
}
