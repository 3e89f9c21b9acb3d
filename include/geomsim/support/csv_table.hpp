#pragma once
// A CSV file of numbers: rows of comma-separated values, all rows of one width, with an
// optional header line (the first line is a header when one of its fields is not a number).
// A ragged row, an empty or non-numeric field, or a value that is not finite is refused with
// InvalidArgument naming the option, the file, the line and the column. The file is hostile input:
// only a regular file is read (a FIFO or a device is refused unopened), as a stream, so memory
// follows the values it holds, and it is refused at its first wrong byte or field (a control
// character such as NUL, a field longer than any number or name) without reading the rest.
#include <string>
#include <vector>

namespace geomsim {

struct NumericTable {
  std::vector<std::string> header;  // empty when the file has none
  std::size_t rows = 0, columns = 0;
  std::vector<double> values;       // row-major, rows x columns
};

NumericTable read_numeric_csv(const std::string& path, const std::string& argument);

// The column named `column` (a header name, or a 0-based index), or the only column when
// `column` is empty; each value must be an integer within int.
std::vector<int> integer_column(const NumericTable& table, const std::string& column, const std::string& path,
                                const std::string& argument);

}  // namespace geomsim
