// libFuzzer harness: a sims/ definition (JSON), as `geomsim report --sims` loads each one; what
// loads has a name that is a plain file stem (it names the definition's files and its figure).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/experiments/sim_definition.hpp"
#include "geomsim/support/plain_text.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "definition.json");
  // The training kinds geomsim-torch runs (train_experiments/experiment_kinds.cpp), accepted
  // without checking their parameters, as the report does.
  static const std::vector<std::string> training_kinds{"transfer", "trained_spread", "strata", "lipschitz", "robustness"};
  fuzz::read_or_refuse([&] {
    // The name is the stem of every file the definition writes, and of its figure's `set output`:
    // whatever loads is a plain file name, with no folder and nothing gnuplot could run.
    const std::string name = load_sim_definition(path, training_kinds).name;
    fuzz::require_consistent(!name.empty() && name.find_first_of("/\\") == std::string::npos && !has_control_character(name),
                             "a definition name that is no plain file stem");
  });
  return 0;
}
