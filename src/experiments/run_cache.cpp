#include "geomsim/experiments/run_cache.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_lock.hpp"
#include "geomsim/support/input_files.hpp"

namespace geomsim {
namespace {

bool plain(const std::string& text) { return text.find_first_of(",\"\n\r") == std::string::npos; }

InvalidArgument not_a_run_table(const std::string& path, const std::string& argument, const std::string& why) {
  return InvalidArgument(argument, path + " is not a run table written by geomsim (" + why + "); move it away to start the experiment afresh");
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
  index_rows();
}

std::vector<RunRow> read_run_table(const std::string& path, const std::string& argument) {
  std::vector<RunRow> rows;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return rows;
  const std::string text = read_whole_file(path, argument, kNoSizeLimit, "run table");
  const auto refuse = [&](const std::string& why) { throw not_a_run_table(path, argument, why); };
  // Lines in place, each split into cells once: nothing here is worse than linear in the text.
  std::size_t start = 0;
  const auto next_line = [&](std::string_view& line) {
    if (start >= text.size()) return false;
    const std::size_t end = std::min(text.find('\n', start), text.size());
    line = std::string_view(text).substr(start, end - start);
    start = end + 1;
    return true;
  };
  const auto split = [](std::string_view line, std::vector<std::string_view>& cells) {
    cells.clear();
    for (std::size_t from = 0;;) {
      const std::size_t comma = line.find(',', from);
      cells.push_back(line.substr(from, comma == std::string_view::npos ? std::string_view::npos : comma - from));
      if (comma == std::string_view::npos) return;
      from = comma + 1;
    }
  };
  std::string_view line;
  if (!next_line(line) || line.empty()) refuse("it has no header");
  const std::size_t columns = static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
  if (columns > kMaxRunTableColumns) {
    refuse("its header has " + std::to_string(columns) + " columns, more than the " + std::to_string(kMaxRunTableColumns) +
           " a run table may have");
  }
  std::vector<std::string_view> cells;
  split(line, cells);
  std::vector<std::string> header(cells.begin(), cells.end());
  std::unordered_set<std::string> seen_columns;
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i].empty() || !plain(header[i])) refuse("column " + std::to_string(i + 1) + " has no plain name");
    if (!seen_columns.insert(header[i]).second) refuse("the column " + header[i] + " appears twice");
  }
  std::size_t number = 1;
  while (next_line(line)) {
    ++number;
    if (line.empty()) continue;
    split(line, cells);
    if (cells.size() != header.size()) {
      refuse("line " + std::to_string(number) + " has " + std::to_string(cells.size()) + " cells for " +
             std::to_string(header.size()) + " columns");
    }
    RunRow row;
    row.cells_.reserve(cells.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (cells[i].find('"') != std::string_view::npos) refuse("line " + std::to_string(number) + " holds a quote");
      if (!plain(std::string(cells[i]))) refuse("line " + std::to_string(number) + " holds a carriage return");
      row.cells_.emplace_back(header[i], std::string(cells[i]));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<RunRow> RunCache::read_rows() const {
  std::vector<RunRow> rows = read_run_table(path_, argument_);
  std::unordered_set<std::string> seen_keys;
  for (const auto& row : rows) {
    if (!seen_keys.insert(key_of(row)).second) throw not_a_run_table(path_, argument_, "two rows are the run " + key_text(row));
  }
  return rows;
}

void RunCache::index_rows() {
  by_key_.clear();
  for (std::size_t i = 0; i < rows_.size(); ++i) by_key_.emplace(key_of(rows_[i]), i);
}

std::string RunCache::key_of(const RunRow& row) const {
  std::string key;
  for (const auto& column : key_columns_) key += row.text(column).value_or("") + ',';
  return key;
}

std::string RunCache::key_text(const RunRow& row) const {
  std::string out;
  for (const auto& column : key_columns_) out += (out.empty() ? "" : " ") + column + "=" + row.text(column).value_or("");
  return out;
}

std::optional<RunRow> RunCache::find(const RunRow& planned) const {
  const auto hit = by_key_.find(key_of(planned));
  if (hit == by_key_.end()) return std::nullopt;
  const RunRow& row = rows_[hit->second];
  const auto version = planned.text(kResultsVersionColumn);
  if (version && row.text(kResultsVersionColumn) != version) return std::nullopt;  // stale: computed by other code
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

void RunCache::add(const RunRow& row) {
  for (const auto& column : key_columns_) {
    if (!row.text(column)) throw InvalidArgument("definition", "a run lacks the key column " + column);
  }
  // Other processes may have added runs since this one read the file (the tasks of a job array
  // on one definition): under the lock, the file as it is now, with this run added.
  const FileLock lock(path_, argument_);
  rows_ = read_rows();
  index_rows();
  const auto [same, fresh] = by_key_.emplace(key_of(row), rows_.size());
  if (fresh) {
    rows_.push_back(row);
  } else {
    rows_[same->second] = row;
  }
  OutputTransaction out;
  out.stage(path_, csv(), argument_);
  out.commit();
}

std::string RunCache::csv() const {
  // The union of the columns in first-seen order, each row's cells placed by a hash of the names.
  std::vector<std::string> columns;
  std::unordered_map<std::string, std::size_t> position;
  for (const auto& row : rows_) {
    for (const auto& cell : row.cells()) {
      if (position.emplace(cell.first, columns.size()).second) columns.push_back(cell.first);
    }
  }
  std::string out;
  for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + columns[i];
  out += "\n";
  std::vector<const std::string*> placed(columns.size());
  for (const auto& row : rows_) {
    std::fill(placed.begin(), placed.end(), nullptr);
    for (const auto& cell : row.cells()) placed[position.at(cell.first)] = &cell.second;
    for (std::size_t i = 0; i < columns.size(); ++i) out += (i ? "," : "") + (placed[i] ? *placed[i] : std::string());
    out += "\n";
  }
  return out;
}

}  // namespace geomsim
