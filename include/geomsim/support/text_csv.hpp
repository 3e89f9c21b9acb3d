#pragma once
// A CSV file of named columns whose fields are text: a header line of distinct names, then rows
// of the header's width (numbers, words, empty fields), as geomsim's own CSVs are written (no
// field is quoted). Read as hostile input: a regular file only, its size checked against memory,
// and refused, naming the option, the file and the line, when it is empty, has no rows, holds a
// quoted field, a control character or a row of another width.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace geomsim {

struct TextCsv {
  std::string source;                          // the file (or a name for text), for messages
  std::vector<std::string> header;             // the column names
  std::vector<std::vector<std::string>> rows;  // each of header.size() fields
  std::vector<std::size_t> lines;              // the line number of each row in the file

  // The index of the column `name`, or none.
  std::optional<std::size_t> column(const std::string& name) const;
  // "K, ny, d, ..." (the header, for messages).
  std::string column_list() const;
};

// The finite number a field spells, whole (no leading '+' or space, nothing after it), or none.
std::optional<double> field_number(const std::string& field);

// Parses `text` (the contents of `source`). Throws InvalidArgument(argument, ...).
TextCsv parse_text_csv(const std::string& text, const std::string& source, const std::string& argument);
// The CSV at `path`.
TextCsv read_text_csv(const std::string& path, const std::string& argument);

}  // namespace geomsim
