#pragma once
// Sweeps: the synthetic experiment of seed 004, Appendix H, over a grid of (K, n_y, d, tau,
// alpha), one row per grid point with the optimum's loss, spread and geometry beside the
// theory's prediction.
//
// Grid points run in parallel (OpenMP, one point per thread; each solve is then serial), and
// every point's result is independent of the thread count, so a sweep is reproducible.
// A shard i/n takes the points whose index in grid order is i mod n; rows carry their
// parameters, so shards merge by key, and a rerun skips the points already in its output.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/experiments/shard.hpp"
#include "geomsim/experiments/spread_problem.hpp"

namespace geomsim {

struct SweepGrid {
  std::vector<int> K{3}, ny{8}, d{3};
  std::vector<double> alpha{0.64}, tau{0.5};
};

struct SweepPoint {
  int K = 3, ny = 8, d = 3;
  double alpha = 0.64, tau = 0.5;
  // "K=3 ny=8 d=3 tau=0.5 alpha=0.64": identifies the point across shards and reruns.
  std::string key() const;
};

// The most points one sweep runs (each a multi-start solve: 10^6 of the smallest take an hour
// or more on 2 cores); a larger grid is a typo or wants several sweeps.
inline constexpr double kMaxSweepPoints = 1e6;
// Throws InvalidArgument naming the longest list when the lists multiply to more than
// kMaxSweepPoints points (before any point is built).
void require_sweep_size(const SweepGrid& grid);

// Every point of the grid, in grid order: K, then n_y, d, tau, and alpha innermost.
// Throws InvalidArgument for an empty list, an invalid value (naming the parameter) or a grid
// larger than kMaxSweepPoints.
std::vector<SweepPoint> sweep_points(const SweepGrid& grid);

// Shard i of n (shard.hpp): the points whose grid index is i mod n.
std::vector<SweepPoint> shard_points(const std::vector<SweepPoint>& points, const Shard& shard);

// What the theory predicts at a point: "collapsed" at or below alpha = K/(2K-1) (any d >= K);
// for d = K the symmetric split ("split", with its spread and loss) up to the exact end of its
// window against uniform, "uniform" (spread 1) beyond it; for d > K "continuous" (the classes
// spread into caps; no closed form); "none" for d < K. The measured geometry (SweepRow::geometry)
// uses the same names: collapsed, atoms, continuous.
struct SweepPrediction {
  std::string regime = "none";
  std::optional<double> spread, loss;
  double threshold = 0.0;                 // K/(2K-1)
  std::optional<double> window_end;       // exact end of the split's window (d >= K)
};
SweepPrediction predict(const SweepPoint& point);

struct SweepRow {
  SweepPoint point;
  std::string seeds;   // the seed list, e.g. "0:4" (commas written as spaces in the CSV: "0 2 4")
  std::string solver;  // the solver actually used
  double cluster_tolerance = kDefaultAtomTolerance;  // the atom tolerance of the geometry summary
  double loss = 0.0, spread = 0.0;
  std::string geometry;  // collapsed / atoms / continuous (GeometryKind)
  std::string atoms;     // atom sizes per class, e.g. "4+4|4+4"
  int max_atoms = 0;     // most atoms in any class
  std::optional<double> collapsed_loss;  // L of the collapsed simplex (K <= d + 1)
  double uniform_loss = 0.0;             // L(sigma), the population uniform measure
  SweepPrediction prediction;
  int converged_runs = 0, runs = 0;
  double seconds = 0.0;
};

// Solves one point with the given settings (seeds_text is recorded in the row).
SweepRow run_sweep_point(const SweepPoint& point, const SolveSettings& settings, const std::string& seeds_text);
// The row of a finished solve of `point` (its settings' atom tolerance; seeds_text recorded).
SweepRow sweep_row_of(const SweepPoint& point, const SpreadSolution& solution, const std::string& seeds_text);

// Runs the points that `done` does not already hold (by key) in parallel, calling on_row
// (serialised, in completion order) after each with the number completed and the total to run.
// Returns done's rows and the new ones, in the order of `points`. Rows of `done` whose key is
// not among `points` are kept at the end.
std::vector<SweepRow> run_sweep(const std::vector<SweepPoint>& points, const SolveSettings& settings,
                                const std::string& seeds_text, const std::vector<SweepRow>& done,
                                const std::function<void(const SweepRow&, std::size_t, std::size_t)>& on_row = {});

// CSV with a header row; numbers in shortest round-trip form, missing values empty. No field
// holds a comma or a quote.
std::string sweep_csv(const std::vector<SweepRow>& rows);
// Parses sweep_csv's format. Throws InvalidArgument(argument) naming `source` and the line on
// a wrong header or a row sweep_csv cannot have written: a wrong number of fields, a quoted
// field, a value that is not a number, a non-finite loss or spread, a parameter outside its
// range (K >= 2, n_y >= 1, d >= 2, alpha in [0, 1], tau > 0), an unknown solver, geometry or
// regime, or run counts that do not add up. A file written before issue 31 names the continuous
// regime "spread" (geometry, predicted_regime): it is read as "continuous".
std::vector<SweepRow> parse_sweep_csv(const std::string& text, const std::string& source, const std::string& argument);
// The sweep CSV at `path`, read as hostile input: a regular file only (a FIFO or a device is
// refused unopened), its header checked before the rest is read (a file that is not a sweep CSV
// costs one line), then parse_sweep_csv.
std::vector<SweepRow> read_sweep_csv(const std::string& path, const std::string& argument);

// Refuses (InvalidArgument(argument), naming the option and both values) to resume a sweep whose
// rows in `source` were solved with other --seeds, another --solver (auto resolved per point) or
// another --cluster-tol than `settings`: the file would mix two experiments.
void require_same_settings(const std::vector<SweepRow>& done, const SolveSettings& settings, const std::string& seeds_text,
                           const std::string& source, const std::string& argument);

// Joins shards: rows by key, sorted in grid order (K, n_y, d, tau, alpha). A key present in two
// inputs must have the same seeds, solver and loss; otherwise InvalidArgument("merge").
std::vector<SweepRow> merge_sweep_rows(const std::vector<std::vector<SweepRow>>& inputs);

}  // namespace geomsim
