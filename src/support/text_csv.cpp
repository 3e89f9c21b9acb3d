#include "geomsim/support/text_csv.hpp"

#include <charconv>
#include <cmath>
#include <set>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"

namespace geomsim {
namespace {

std::vector<std::string> split_fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (char c : line) {
    if (c == ',') out.emplace_back();
    else out.back() += c;
  }
  return out;
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
  std::size_t start = 0, line_number = 0;
  std::set<std::string> names;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    for (char c : line) {
      if ((static_cast<unsigned char>(c) < 0x20 && c != '\t') || c == '\x7f') {
        fail("line " + std::to_string(line_number) + ": holds a control character; a CSV file is text");
      }
      if (c == '"') fail("line " + std::to_string(line_number) + ": holds a quoted field, which geomsim's CSVs never hold");
    }
    if (table.header.empty()) {
      if (line.empty()) fail("line 1: is empty; a CSV needs a header line of column names");
      table.header = split_fields(line);
      for (const auto& name : table.header) {
        if (name.empty()) fail("line 1: has an empty column name");
        if (!names.insert(name).second) fail("line 1: names the column " + name + " twice");
      }
      continue;
    }
    if (line.empty()) continue;
    auto fields = split_fields(line);
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
  return parse_text_csv(read_whole_file(path, argument, kNoSizeLimit, "CSV file"), path, argument);
}

}  // namespace geomsim
