#pragma once
// The cache of an experiment's finished runs (training runs of the sims/ definitions): a CSV
// with one row per run, holding every parameter of the run and every metric it measured.
//
// A run is identified by its key: the values of the key columns (the grid's coordinates, e.g.
// method, hierarchy, encoder, seed). Every other parameter (the budget, the recipe) must agree
// between the cached row and the run the definition now asks for; a row with the same key and
// a different value is refused with InvalidArgument("definition"), naming the run, the column
// and both values, because reusing it would silently mix two definitions in one table.
//
// One parameter is not a choice of the definition but of the code: kResultsVersionColumn, the
// version of the code's results a run was computed with. A cached row of another version (or of
// none: a row from before versions) is stale, not wrong: find treats it as not cached, and the
// run trained again replaces it (add), so that a table never mixes rows of two versions of the
// code that would give them different numbers.
//
// The file is rewritten atomically after every finished run (OutputTransaction), so an
// interrupted experiment loses at most the run in progress, and a rerun finds the finished
// ones; several processes may add to one file (add). Rows whose key the definition no longer
// asks for are kept (a finished run is never thrown away by editing a grid) and ignored by the
// page.
//
// Cells are plain text without commas, quotes or line breaks (parameter values are checked
// when a row is added); metrics are finite numbers in shortest round-trip form, and an empty
// cell means "not measured for this run" (e.g. K_g without an autoencoder), never NaN.
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace geomsim {

// The most columns a run table may have: a run's parameters and metrics are a few dozen; a header
// of more is refused before any row is read.
inline constexpr std::size_t kMaxRunTableColumns = 1000;

// The column of a run's results version (see above): a planned run that sets it finds only cached
// rows of the same version.
inline constexpr const char* kResultsVersionColumn = "results_version";

// One run: its cells in column order (parameters first, then metrics, as they were set).
class RunRow {
 public:
  // Sets (or replaces) a text cell. Throws InvalidArgument(column) for an empty name, or a
  // name or value holding a comma, a quote or a line break.
  void set(const std::string& column, const std::string& text);
  // Sets a number cell in shortest round-trip form. Throws std::logic_error for a non-finite
  // value (a metric must be measured or left out, never NaN).
  void set(const std::string& column, double value);
  std::optional<std::string> text(const std::string& column) const;   // nullopt: no such cell or empty
  std::optional<double> number(const std::string& column) const;      // nullopt: absent, empty or not a number
  const std::vector<std::pair<std::string, std::string>>& cells() const { return cells_; }

 private:
  // builds the rows it reads whole, their columns already checked distinct
  friend std::vector<RunRow> read_run_table(const std::string& path, const std::string& argument);
  std::vector<std::pair<std::string, std::string>> cells_;
};

// The rows of a run table (none when `path` does not exist). Throws InvalidArgument(argument)
// when it is not one (not a regular file, no header, more than kMaxRunTableColumns columns, a
// duplicate column, a row of the wrong width, a quote); linear in the file's size.
std::vector<RunRow> read_run_table(const std::string& path, const std::string& argument);

class RunCache {
 public:
  // Reads `path` when it exists. Throws InvalidArgument(argument) when it is not a run table
  // (read_run_table), or when two of its rows have the same key. Every check is linear in the
  // file's size (the keys and the columns are hashed).
  RunCache(std::string path, std::vector<std::string> key_columns, std::string argument = "out");

  // The cached row of the planned run (the same values in every key column), or nullopt; also
  // nullopt when `planned` sets kResultsVersionColumn and the cached row holds another version
  // or none (stale). `planned` holds the run's parameters only. Throws
  // InvalidArgument("definition") when the cached row differs in another parameter of `planned`,
  // or lacks it.
  std::optional<RunRow> find(const RunRow& planned) const;

  // Adds (or replaces, by key) a finished run and rewrites the file atomically. Several
  // processes may share one cache (the tasks of a job array, each training its shard of a
  // definition's runs): under a lock between them (FileLock, on path + ".lock"), the file is
  // read again, the run added to what it holds now, and the whole rewritten, so every finished
  // run of every process lands exactly once; a reader sees the old file or the new one, never
  // part of one. rows() is then the file's rows. Throws InvalidArgument("definition") when the
  // row lacks a key column, and InvalidArgument(argument) when the file has become unreadable.
  void add(const RunRow& row);

  const std::vector<RunRow>& rows() const { return rows_; }
  const std::string& path() const { return path_; }
  // The table as CSV text: the union of the rows' columns, in first-seen order.
  std::string csv() const;

  // "method=thanos hierarchy=fmnist-2 seed=1": the key of a row, for messages.
  std::string key_text(const RunRow& row) const;

 private:
  std::string key_of(const RunRow& row) const;  // the key cells joined by commas (no cell holds one)
  std::vector<RunRow> read_rows() const;  // the file's rows, their keys checked distinct
  void index_rows();                      // rebuilds by_key_ from rows_
  std::string path_;
  std::vector<std::string> key_columns_;
  std::string argument_;
  std::vector<RunRow> rows_;
  std::unordered_map<std::string, std::size_t> by_key_;  // a row's key -> its index in rows_
};

}  // namespace geomsim
