// libFuzzer harness: a sweep's CSV (what `geomsim sweep --out` resumes from and `merge` reads),
// parsed from memory as the CLI does after reading the file.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_findings.hpp"
#include "geomsim/experiments/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::optional<std::vector<SweepRow>> rows;
  fuzz::read_or_refuse([&] { rows = parse_sweep_csv(text, "sweep.csv", "out"); });
  if (!rows) return 0;
  // parse_sweep_csv accepts only what sweep_csv could have written, so what it accepted is
  // written back as a file it accepts again, unchanged by a second round.
  const std::string written = sweep_csv(*rows);
  try {
    fuzz::require_consistent(sweep_csv(parse_sweep_csv(written, "again.csv", "out")) == written,
                             "sweep_csv(parse_sweep_csv(x)) changes on a second round");
  } catch (const InvalidArgument& refusal) {
    std::fprintf(stderr, "fuzz harness: sweep_csv wrote a file parse_sweep_csv refuses: %s\n", refusal.what());
    std::abort();
  }
  return 0;
}
