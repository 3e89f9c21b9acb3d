#include "geomsim/support/input_files.hpp"
#include "geomsim/support/csv_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const auto comma = line.find(',', start);
    fields.push_back(trim(line.substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return fields;
    start = comma + 1;
  }
}

bool parse_number(const std::string& field, double& value) {
  if (field.empty()) return false;
  char* end = nullptr;
  value = std::strtod(field.c_str(), &end);
  return end == field.c_str() + field.size();
}

}  // namespace

NumericTable read_numeric_csv(const std::string& path, const std::string& argument) {
  std::error_code error;
  const auto size = std::filesystem::file_size(path, error);
  if (!error) require_memory(argument, 5.0 * static_cast<double>(size), "the CSV file " + path + " and its values");
  const std::string text = read_whole_file(path, argument);
  NumericTable table;
  std::size_t start = 0;
  int line_number = 0;
  while (start < text.size()) {
    const auto end = std::min(text.find('\n', start), text.size());
    const std::string line = trim(text.substr(start, end - start));
    start = end + 1;
    ++line_number;
    if (line.empty()) continue;
    const std::vector<std::string> fields = split(line);
    std::vector<double> row(fields.size());
    bool numeric = true;
    for (std::size_t k = 0; k < fields.size(); ++k) numeric = parse_number(fields[k], row[k]) && numeric;
    if (table.columns == 0) {
      table.columns = fields.size();
      if (!numeric) {
        table.header = fields;
        continue;
      }
    }
    if (fields.size() != table.columns) {
      throw InvalidArgument(argument, path + ": line " + std::to_string(line_number) + " has " + std::to_string(fields.size()) +
                                          " fields, the first line " + std::to_string(table.columns));
    }
    for (std::size_t k = 0; k < fields.size(); ++k) {
      double v = 0;
      if (!parse_number(fields[k], v)) {
        throw InvalidArgument(argument, path + ": line " + std::to_string(line_number) + ", column " + std::to_string(k + 1) + ": '" +
                                            fields[k].substr(0, 40) + "' is not a number");
      }
      if (!std::isfinite(v)) {
        throw InvalidArgument(argument, path + ": line " + std::to_string(line_number) + ", column " + std::to_string(k + 1) +
                                            " is not finite ('" + fields[k] + "')");
      }
      table.values.push_back(v);
    }
    ++table.rows;
  }
  if (table.rows == 0) throw InvalidArgument(argument, path + ": holds no rows of numbers");
  return table;
}

std::vector<int> integer_column(const NumericTable& table, const std::string& column, const std::string& path,
                                const std::string& argument) {
  std::size_t index = 0;
  if (column.empty()) {
    if (table.columns != 1) {
      throw InvalidArgument(argument, path + ": has " + std::to_string(table.columns) + " columns; name the label column (--" + argument +
                                          "-column NAME or INDEX)");
    }
  } else {
    const auto named = std::find(table.header.begin(), table.header.end(), column);
    if (named != table.header.end()) {
      index = static_cast<std::size_t>(named - table.header.begin());
    } else if (column.find_first_not_of("0123456789") == std::string::npos && column.size() < 9 &&
               static_cast<std::size_t>(std::stoul(column)) < table.columns) {
      index = std::stoul(column);
    } else {
      throw InvalidArgument(argument, path + ": has no column '" + column + "' (a header name, or an index below " +
                                          std::to_string(table.columns) + ")");
    }
  }
  std::vector<int> out(table.rows);
  for (std::size_t r = 0; r < table.rows; ++r) {
    const double v = table.values[r * table.columns + index];
    if (v != std::floor(v) || v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
      throw InvalidArgument(argument, path + ": row " + std::to_string(r + 1) + " of the label column holds " + format_number(v) +
                                          ", not an integer label");
    }
    out[r] = static_cast<int>(v);
  }
  return out;
}

}  // namespace geomsim
