#include "geomsim/support/csv_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim {
namespace {

// A number is at most a few dozen characters, and a header name is short: a longer field is
// neither, and is refused without being held.
constexpr std::size_t kMaxFieldBytes = 1024;
constexpr std::size_t kChunkBytes = std::size_t{1} << 16;
// The values' memory is checked when their vector is about to double, from this size on.
constexpr std::size_t kMemoryCheckFrom = std::size_t{1} << 20;

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

bool parse_number(const std::string& field, double& value) {
  if (field.empty()) return false;
  char* end = nullptr;
  value = std::strtod(field.c_str(), &end);
  return end == field.c_str() + field.size();
}

// The table, built one byte at a time from a stream: each field is checked when it ends and each
// line when it ends, so a file that is not a CSV of numbers is refused at its first wrong field
// (a file of zero bytes at its first byte), and what is kept is the values themselves.
class CsvReader {
 public:
  CsvReader(const std::string& path, const std::string& argument) : path_(path), argument_(argument) {}

  void feed(const char* bytes, std::size_t count) {
    for (std::size_t k = 0; k < count; ++k, ++offset_) {
      const char c = bytes[k];
      if (c == '\n') {
        end_line();
      } else if (c == ',') {
        end_field();
      } else {
        if ((static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\r') || c == '\x7f') {
          fail("byte " + std::to_string(offset_) + " (line " + std::to_string(line_) + ") is the control character " + hex(c) +
               "; a CSV file is text");
        }
        if (field_.size() == kMaxFieldBytes) {
          fail("line " + std::to_string(line_) + ", column " + std::to_string(field_index_ + 1) + " holds a field of more than " +
               std::to_string(kMaxFieldBytes) + " bytes, which is neither a number nor a column name");
        }
        field_ += c;
      }
    }
  }

  NumericTable finish() {
    end_line();
    if (table_.rows == 0) fail("holds no rows of numbers");
    return std::move(table_);
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InvalidArgument(argument_, path_ + ": " + why); }

  static std::string hex(char c) {
    static const char digits[] = "0123456789abcdef";
    const auto b = static_cast<unsigned char>(c);
    return std::string("0x") + digits[b >> 4] + digits[b & 15];
  }

  void end_field() {
    std::string field = trim(field_);
    field_.clear();
    line_has_comma_ = true;
    take(std::move(field));
  }

  void take(std::string field) {
    const std::size_t column = field_index_++;
    if (table_.columns == 0) {  // the first line: a header or the first row, known at its end
      first_fields_.push_back(std::move(field));
      return;
    }
    if (column >= table_.columns) {
      fail("line " + std::to_string(line_) + " has more than " + std::to_string(table_.columns) + " fields, the first line " +
           std::to_string(table_.columns));
    }
    push_value(number_at(field, column));
  }

  // Memory follows the values read so far (a garbled file is refused before it costs any); the
  // vector's next doubling is checked against memory before it happens.
  void push_value(double value) {
    std::vector<double>& values = table_.values;
    if (values.size() == values.capacity() && values.size() >= kMemoryCheckFrom) {
      require_memory(argument_, 16.0 * static_cast<double>(values.size()), "the values of the CSV file " + path_);
    }
    values.push_back(value);
  }

  double number_at(const std::string& field, std::size_t column) const {
    double v = 0;
    if (!parse_number(field, v)) {
      fail("line " + std::to_string(line_) + ", column " + std::to_string(column + 1) + ": '" + field.substr(0, 40) + "' is not a number");
    }
    if (!std::isfinite(v)) {
      fail("line " + std::to_string(line_) + ", column " + std::to_string(column + 1) + " is not finite ('" + field.substr(0, 40) + "')");
    }
    return v;
  }

  void end_line() {
    const bool blank = !line_has_comma_ && std::all_of(field_.begin(), field_.end(), is_blank);
    if (blank) {
      field_.clear();
    } else {
      end_field();
      if (table_.columns == 0) {
        end_first_line();
      } else {
        if (field_index_ != table_.columns) {
          fail("line " + std::to_string(line_) + " has " + std::to_string(field_index_) + " fields, the first line " +
               std::to_string(table_.columns));
        }
        ++table_.rows;
      }
    }
    field_index_ = 0;
    line_has_comma_ = false;
    ++line_;
  }

  void end_first_line() {
    table_.columns = first_fields_.size();
    std::vector<double> row(first_fields_.size());
    bool numeric = true;
    for (std::size_t k = 0; k < first_fields_.size(); ++k) numeric = parse_number(first_fields_[k], row[k]) && numeric;
    if (!numeric) {
      table_.header = std::move(first_fields_);
      return;
    }
    for (std::size_t k = 0; k < first_fields_.size(); ++k) push_value(number_at(first_fields_[k], k));
    first_fields_.clear();
    ++table_.rows;
  }

  const std::string& path_;
  const std::string& argument_;
  NumericTable table_;
  std::vector<std::string> first_fields_;
  std::string field_;
  std::size_t field_index_ = 0;
  bool line_has_comma_ = false;
  std::size_t line_ = 1;
  std::uint64_t offset_ = 0;
};

}  // namespace

NumericTable read_numeric_csv(const std::string& path, const std::string& argument) {
  // A regular file only, read in chunks up to the size it has: memory follows the values (8 bytes
  // for each field of at least 2 bytes), never a copy of the text.
  InputFile file = open_regular_file(path, argument, kNoSizeLimit, "CSV file");
  CsvReader reader(path, argument);
  std::vector<char> chunk(kChunkBytes);
  for (std::uint64_t left = file.size; left > 0;) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(left, chunk.size()));
    if (!file.stream.read(chunk.data(), static_cast<std::streamsize>(want))) {
      throw InvalidArgument(argument, "cannot read " + path + " (it changed while it was read)");
    }
    reader.feed(chunk.data(), want);
    left -= want;
  }
  return reader.finish();
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
