#include "geomsim/support/text_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <string_view>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/plain_text.hpp"

namespace geomsim {
namespace {

// The fields of `line` between its commas, in a vector of exactly `width` slots when the line has
// that many (a row of the header's width, the one kind kept): no spare capacity per row.
std::vector<std::string> split_fields(std::string_view line, std::size_t width) {
  std::vector<std::string> out;
  out.reserve(width);
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    out.emplace_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

}  // namespace

std::optional<double> field_number(const std::string& field) {
  double value = 0.0;
  const char* end = field.data() + field.size();
  const auto result = std::from_chars(field.data(), end, value);
  if (field.empty() || result.ec != std::errc() || result.ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::optional<std::size_t> TextCsv::column(const std::string& name) const {
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c] == name) return c;
  }
  return std::nullopt;
}

std::string TextCsv::column_list() const {
  std::string out;
  for (const auto& name : header) out += (out.empty() ? "" : ", ") + name;
  return out;
}

TextCsv parse_text_csv(const std::string& text, const std::string& source, const std::string& argument) {
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, "file " + source + " " + why); };
  TextCsv table;
  table.source = source;
  // One row per line at most: the row lists are allocated once, not doubled as they fill.
  const auto line_count = static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')) + 1;
  std::size_t start = 0, line_number = 0;
  std::set<std::string> names;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);  // a view: no copy of each line
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    for (char c : line) {
      if (is_control_character(c) && c != '\t') {
        fail("line " + std::to_string(line_number) + ": holds a control character; a CSV file is text");
      }
      if (c == '"') fail("line " + std::to_string(line_number) + ": holds a quoted field, which geomsim's CSVs never hold");
    }
    if (table.header.empty()) {
      if (line.empty()) fail("line 1: is empty; a CSV needs a header line of column names");
      table.header = split_fields(line, 1 + static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')));
      for (const auto& name : table.header) {
        if (name.empty()) fail("line 1: has an empty column name");
        if (!names.insert(name).second) fail("line 1: names the column " + name + " twice");
      }
      table.rows.reserve(line_count - 1);
      table.lines.reserve(line_count - 1);
      continue;
    }
    if (line.empty()) continue;
    auto fields = split_fields(line, table.header.size());
    if (fields.size() != table.header.size()) {
      fail("line " + std::to_string(line_number) + ": has " + std::to_string(fields.size()) + " fields, the header " +
           std::to_string(table.header.size()));
    }
    table.rows.push_back(std::move(fields));
    table.lines.push_back(line_number);
  }
  if (table.header.empty()) fail("is empty: a CSV needs a header line and rows");
  if (table.rows.empty()) fail("has a header and no rows");
  return table;
}

TextCsv read_text_csv(const std::string& path, const std::string& argument) {
  const auto size = static_cast<double>(regular_file_size(path, argument));
  require_memory(argument, kTextCsvBytesPerFileByte * size,
                 "the CSV file " + path + " (" + format_bytes(size) + " on disk; its fields as text, and the figure drawn from "
                 "them, take about " + format_number(kTextCsvBytesPerFileByte) + " times that)");
  return parse_text_csv(read_whole_file(path, argument, kNoSizeLimit, "CSV file"), path, argument);
}

}  // namespace geomsim
