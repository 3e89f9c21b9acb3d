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

// Memory per byte of a CSV file read by read_text_csv and drawn by geomsim plot: each field
// becomes a std::string (32 bytes, and a heap block past 15 characters) in a row vector, and the
// figure copies the points. Measured (issue 53) as the peak of
// `/usr/bin/time -v geomsim plot --csv F --x X --y Y --out p` on 20 MB CSVs, less the 22 MB
// peak of a 622-byte sweep CSV: a sweep CSV (101 635 rows of 23 columns) 126 MB, 5.2x (7.0x
// before the rows were reserved and fields split without copies); two columns of full-precision
// numbers (593 603 rows) 228 MB, 10x; two columns of short integers ("123456,6", 2 111 111
// rows) 503 MB, 24x, the most of the three. Rounded up: a file of still narrower fields needs
// more, but no CSV geomsim writes has them.
inline constexpr double kTextCsvBytesPerFileByte = 25.0;

// Parses `text` (the contents of `source`). Throws InvalidArgument(argument, ...).
TextCsv parse_text_csv(const std::string& text, const std::string& source, const std::string& argument);
// The CSV at `path`, refused (InvalidArgument(argument), naming the file and the memory needed
// and available) when kTextCsvBytesPerFileByte times its size does not fit in memory.
TextCsv read_text_csv(const std::string& path, const std::string& argument);

}  // namespace geomsim
