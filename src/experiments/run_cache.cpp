#include "geomsim/experiments/run_cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <stdexcept>

#include "geomsim/support/input_files.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/file_lock.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

bool plain(const std::string& text) { return text.find_first_of(",\"\n\r") == std::string::npos; }

std::vector<std::string> split_line(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  std::istringstream in(line);
  while (std::getline(in, cell, ',')) cells.push_back(cell);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

}  // namespace

void RunRow::set(const std::string& column, const std::string& text) {
  if (column.empty() || !plain(column)) throw InvalidArgument("column", "'" + column + "' must be a non-empty name without commas, quotes or line breaks");
  if (!plain(text)) throw InvalidArgument(column, "value '" + text + "' must not hold commas, quotes or line breaks");
  for (auto& cell : cells_) {
    if (cell.first == column) {
      cell.second = text;
      return;
    }
  }
  cells_.emplace_back(column, text);
}

void RunRow::set(const std::string& column, double value) {
  if (!std::isfinite(value)) throw std::logic_error("RunRow: the metric " + column + " is not finite");
  set(column, format_number(value));
}

std::optional<std::string> RunRow::text(const std::string& column) const {
  for (const auto& cell : cells_) {
    if (cell.first == column) return cell.second.empty() ? std::nullopt : std::optional<std::string>(cell.second);
  }
  return std::nullopt;
}

std::optional<double> RunRow::number(const std::string& column) const {
  const auto t = text(column);
  if (!t) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(t->c_str(), &end);
  if (end != t->c_str() + t->size() || errno == ERANGE || !std::isfinite(v)) return std::nullopt;
  return v;
}

RunCache::RunCache(std::string path, std::vector<std::string> key_columns, std::string argument)
    : path_(std::move(path)), key_columns_(std::move(key_columns)), argument_(std::move(argument)) {
  if (key_columns_.empty()) throw std::logic_error("RunCache: no key columns");
  rows_ = read_rows();
}

std::vector<RunRow> RunCache::read_rows() const {
  std::vector<RunRow> rows;
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) return rows;
  const std::string text = read_whole_file(path_, argument_);
  std::istringstream in(text);
  std::string line;
  const auto refuse = [&](const std::string& why) {
    throw InvalidArgument(argument_, path_ + " is not a run table written by geomsim (" + why +
                                         "); move it away to start the experiment afresh");
  };
  if (!std::getline(in, line) || line.empty()) refuse("it has no header");
  const std::vector<std::string> header = split_line(line);
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i].empty() || header[i].find('"') != std::string::npos) refuse("column " + std::to_string(i + 1) + " has no plain name");
    if (std::find(header.begin(), header.begin() + static_cast<std::ptrdiff_t>(i), header[i]) != header.begin() + static_cast<std::ptrdiff_t>(i)) {
      refuse("the column " + header[i] + " appears twice");
    }
  }
  std::size_t number = 1;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty()) continue;
    const std::vector<std::string> cells = split_line(line);
    if (cells.size() != header.size()) {
      refuse("line " + std::to_string(number) + " has " + std::to_string(cells.size()) + " cells for " +
             std::to_string(header.size()) + " columns");
    }
    RunRow row;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].find('"') != std::string::npos) refuse("line " + std::to_string(number) + " holds a quote");
      row.set(header[i], cells[i]);
    }
    const auto key = key_of(row);
    for (const auto& other : rows) {
      if (key_of(other) == key) refuse("two rows are the run " + key_text(row));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<std::string> RunCache::key_of(const RunRow& row) const {
  std::vector<std::string> key;
  for (const auto& column : key_columns_) key.push_back(row.text(column).value_or(""));
  return key;
}

std::string RunCache::key_text(const RunRow& row) const {
  std::string out;
  for (const auto& column : key_columns_) out += (out.empty() ? "" : " ") + column + "=" + row.text(column).value_or("");
  return out;
}

std::optional<RunRow> RunCache::find(const RunRow& planned) const {
  const auto key = key_of(planned);
  for (const auto& row : rows_) {
    if (key_of(row) != key) continue;
    for (const auto& [column, value] : planned.cells()) {
      const std::string cached = row.text(column).value_or("");
      if (cached != value) {
        throw InvalidArgument("definition", "asks for the run " + key_text(planned) + " with " + column + " = " + value +
                                                ", but " + path_ + " holds it with " + column + " = " +
                                                (cached.empty() ? std::string("(none)") : cached) +
                                                ": restore the definition, or remove that row (or the file) to train it again");
      }
    }
    return row;
  }
  return std::nullopt;
}

void RunCache::add(const RunRow& row) {
  for (const auto& column : key_columns_) {
    if (!row.text(column)) throw InvalidArgument("definition", "a run lacks the key column " + column);
  }
  // Other processes may have added runs since this one read the file (the tasks of a job array
  // on one definition): under the lock, the file as it is now, with this run added.
  const FileLock lock(path_, argument_);
  rows_ = read_rows();
  const auto key = key_of(row);
  const auto same = std::find_if(rows_.begin(), rows_.end(), [&](const RunRow& r) { return key_of(r) == key; });
  if (same != rows_.end()) {
    *same = row;
  } else {
    rows_.push_back(row);
  }
  OutputTransaction out;
  out.stage(path_, csv(), argument_);
  out.commit();
}

std::string RunCache::csv() const {
  std::vector<std::string> columns;
  for (const auto& row : rows_) {
    for (const auto& cell : row.cells()) {
      if (std::find(columns.begin(), columns.end(), cell.first) == columns.end()) columns.push_back(cell.first);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += "\n";
  for (const auto& row : rows_) {
    for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + row.text(columns[i]).value_or("");
    out += "\n";
  }
  return out;
}

}  // namespace geomsim
