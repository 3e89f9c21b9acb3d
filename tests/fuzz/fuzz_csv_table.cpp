// libFuzzer harness: CSV files of numbers (embeddings, and labels as an integer column).
#include <cstddef>
#include <cstdint>

#include "fuzz_findings.hpp"
#include "fuzz_input_file.hpp"
#include "geomsim/support/csv_table.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string path = fuzz::input_file(data, size, "input.csv");
  fuzz::read_or_refuse([&] {
    const NumericTable table = read_numeric_csv(path, "embeddings");
    fuzz::require_consistent(table.values.size() == table.rows * table.columns, "values != rows x columns");
    fuzz::require_consistent(table.header.empty() || table.header.size() == table.columns, "header width != columns");
    // The first column by index, as --labels-column 0 reads it.
    fuzz::read_or_refuse([&] { integer_column(table, "0", path, "labels"); });
  });
  return 0;
}
