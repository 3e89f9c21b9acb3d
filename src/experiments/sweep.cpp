#include "geomsim/experiments/sweep.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <charconv>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

#include "geomsim/experiments/solve_memory.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/theory/reference_losses.hpp"
#include "geomsim/theory/symmetric_split.hpp"
#include "geomsim/theory/wiener_constant.hpp"

namespace geomsim {
namespace {

const std::vector<std::string>& columns() {
  static const std::vector<std::string> names{
      "K",          "ny",        "d",         "alpha",          "tau",          "seeds",        "solver",       "cluster_tol",
      "loss",       "spread",    "geometry",  "atoms",          "max_atoms",    "collapsed_loss",
      "uniform_loss", "predicted_regime", "predicted_spread", "predicted_loss", "threshold", "window_end",
      "converged_runs", "runs", "seconds"};
  return names;
}

// CSVs written before issue 31 name the continuous regime "spread" (in geometry and
// predicted_regime): they are read as "continuous", and rewritten so when a resumed sweep saves.
std::string current_regime_name(const std::string& name) { return name == "spread" ? "continuous" : name; }

std::string number(double v) { return format_number(v); }
std::string number(const std::optional<double>& v) { return v ? format_number(*v) : std::string(); }

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::string field;
  std::istringstream in(line);
  while (std::getline(in, field, sep)) out.push_back(field);
  if (!line.empty() && line.back() == sep) out.emplace_back();
  return out;
}

// Atom sizes (descending) joined by '+', a run of m > 2 equal sizes k written k*m:
// {4, 4} -> "4+4", {1 x 200} -> "1*200", {3, 2, 1, 1, 1} -> "3+2+1*3".
std::string compact_sizes(const std::vector<Index>& sizes) {
  std::string out;
  for (std::size_t k = 0; k < sizes.size();) {
    std::size_t run = 1;
    while (k + run < sizes.size() && sizes[k + run] == sizes[k]) ++run;
    const std::string one = std::to_string(sizes[k]);
    if (!out.empty()) out += '+';
    if (run > 2) {
      out += one + "*" + std::to_string(run);
    } else {
      out += one;
      if (run == 2) out += "+" + one;
    }
    k += run;
  }
  return out;
}

// Grid order: K, n_y, d, tau, alpha.
auto order_key(const SweepPoint& p) { return std::make_tuple(p.K, p.ny, p.d, p.tau, p.alpha); }

}  // namespace

std::string SweepPoint::key() const {
  return "K=" + std::to_string(K) + " ny=" + std::to_string(ny) + " d=" + std::to_string(d) +
         " tau=" + format_number(tau) + " alpha=" + format_number(alpha);
}

void require_sweep_size(const SweepGrid& grid) {
  const std::vector<std::pair<const char*, std::size_t>> lists = {
      {"K", grid.K.size()}, {"ny", grid.ny.size()}, {"d", grid.d.size()}, {"tau", grid.tau.size()}, {"alpha", grid.alpha.size()}};
  double points = 1.0;
  std::string product;
  for (const auto& [name, size] : lists) {
    points *= static_cast<double>(size);
    product += (product.empty() ? "" : " x ") + std::to_string(size);
  }
  if (points > kMaxSweepPoints) {
    const auto longest = std::max_element(lists.begin(), lists.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    throw InvalidArgument(longest->first, "makes a grid of " + product + " (K x ny x d x tau x alpha) = " + format_number(points) +
                                              " points, more than the " + std::to_string(static_cast<long>(kMaxSweepPoints)) +
                                              " one sweep runs; use shorter lists or several sweeps");
  }
}

std::vector<SweepPoint> sweep_points(const SweepGrid& grid) {
  const auto nonempty = [](const char* name, std::size_t size) {
    if (size == 0) throw InvalidArgument(name, "must list at least one value");
  };
  nonempty("K", grid.K.size());
  nonempty("ny", grid.ny.size());
  nonempty("d", grid.d.size());
  nonempty("alpha", grid.alpha.size());
  nonempty("tau", grid.tau.size());
  require_sweep_size(grid);
  std::vector<SweepPoint> points;
  for (int K : grid.K) {
    for (int ny : grid.ny) {
      for (int d : grid.d) {
        for (double tau : grid.tau) {
          for (double alpha : grid.alpha) {
            SpreadProblem problem{K, ny, d, alpha, tau};
            problem.validate();
            // Each row carries the theory's prediction (uniform_loss, the split's window), whose
            // Wiener constant is summed for tau >= 1/700.
            if (tau < kMinWienerTemperature) {
              throw InvalidArgument("tau", "must be >= 1/700 in a sweep (its rows carry the theory's prediction, whose "
                                           "Wiener constant needs it), got " + format_number(tau));
            }
            points.push_back({K, ny, d, alpha, tau});
          }
        }
      }
    }
  }
  return points;
}

std::vector<SweepPoint> shard_points(const std::vector<SweepPoint>& points, const Shard& shard) {
  std::vector<SweepPoint> out;
  for (std::size_t i = static_cast<std::size_t>(shard.index); i < points.size(); i += static_cast<std::size_t>(shard.count)) {
    out.push_back(points[i]);
  }
  return out;
}

SweepPrediction predict(const SweepPoint& p) {
  SweepPrediction out;
  const SymmetricSplit split(p.K);
  out.threshold = split.threshold();
  if (p.d < p.K) return out;
  out.window_end = split.exact_crossover(p.tau, p.d);
  if (p.alpha <= out.threshold) {
    out.regime = "collapsed";
    out.spread = 0.0;
    out.loss = collapsed_loss(p.K, p.alpha, p.tau);
  } else if (p.d > p.K) {
    out.regime = "continuous";
  } else if (out.window_end && p.alpha < *out.window_end) {
    out.regime = "split";
    out.spread = split.spread(p.alpha, p.tau);
    out.loss = split.min_loss(p.alpha, p.tau);
  } else {
    out.regime = "uniform";
    out.spread = 1.0;
    out.loss = uniform_loss(p.alpha, p.tau, p.d);
  }
  return out;
}

SweepRow run_sweep_point(const SweepPoint& point, const SolveSettings& settings, const std::string& seeds_text) {
  return sweep_row_of(point, solve_spread_problem({point.K, point.ny, point.d, point.alpha, point.tau}, settings), seeds_text);
}

SweepRow sweep_row_of(const SweepPoint& point, const SpreadSolution& s, const std::string& seeds_text) {
  SweepRow row;
  row.point = point;
  row.seeds = seeds_text;
  row.solver = s.solver;
  row.cluster_tolerance = s.settings.cluster_tolerance;
  row.loss = s.loss;
  row.spread = s.spread.mean;
  row.geometry = to_string(s.geometry.kind);
  for (const auto& c : s.geometry.classes) {
    if (!row.atoms.empty()) row.atoms += '|';
    row.atoms += compact_sizes(c.atom_sizes);
    row.max_atoms = std::max(row.max_atoms, static_cast<int>(c.atom_sizes.size()));
  }
  row.collapsed_loss = s.collapsed_simplex_loss;
  row.uniform_loss = uniform_loss(point.alpha, point.tau, point.d);
  row.prediction = predict(point);
  row.runs = static_cast<int>(count_starts(s.runs));
  for (const auto& run : s.runs) row.converged_runs += !run.polish && run.summary.converged() ? 1 : 0;
  row.seconds = s.seconds;
  return row;
}

std::vector<SweepRow> run_sweep(const std::vector<SweepPoint>& points, const SolveSettings& settings,
                                const std::string& seeds_text, const std::vector<SweepRow>& done,
                                const std::function<void(const SweepRow&, std::size_t, std::size_t)>& on_row) {
  std::map<std::string, SweepRow> by_key;
  for (const auto& row : done) by_key.emplace(row.point.key(), row);
  std::vector<std::size_t> todo;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (!by_key.count(points[i].key())) todo.push_back(i);
  }
  // Every point must fit with as many others beside it as there are threads.
  const int at_once = static_cast<int>(std::min<std::size_t>(todo.size(), static_cast<std::size_t>(std::max(1, omp_get_max_threads()))));
  for (std::size_t i : todo) {
    const SweepPoint& p = points[i];
    estimate_solve_memory({p.K, p.ny, p.d, p.alpha, p.tau}, settings, at_once).require();
  }
  std::vector<SweepRow> fresh(todo.size());
  std::size_t completed = 0;
  const auto count = static_cast<std::ptrdiff_t>(todo.size());
  // One point per thread. An exception may not leave a parallel region (nor an omp critical
  // section: std::terminate), so the first one, from a solve or from on_row (a checkpoint that
  // cannot be written), is kept, the remaining points are skipped, and it is rethrown after.
  std::exception_ptr failure;
  std::atomic<bool> failed{false};
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    if (failed.load()) continue;
    const auto i = static_cast<std::size_t>(k);
    try {
      fresh[i] = run_sweep_point(points[todo[i]], settings, seeds_text);
    } catch (...) {
#pragma omp critical(geomsim_sweep_progress)
      if (!failure) failure = std::current_exception();
      failed.store(true);
      continue;
    }
#pragma omp critical(geomsim_sweep_progress)
    if (!failure) {
      try {
        ++completed;
        if (on_row) on_row(fresh[i], completed, todo.size());
      } catch (...) {
        failure = std::current_exception();
        failed.store(true);
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  for (std::size_t k = 0; k < todo.size(); ++k) by_key.emplace(points[todo[k]].key(), fresh[k]);

  std::vector<SweepRow> out;
  for (const auto& p : points) {
    auto it = by_key.find(p.key());
    out.push_back(it->second);
    by_key.erase(it);
  }
  for (auto& [key, row] : by_key) out.push_back(row);
  return out;
}

std::string sweep_csv(const std::vector<SweepRow>& rows) {
  std::ostringstream out;
  const auto& names = columns();
  for (std::size_t c = 0; c < names.size(); ++c) out << (c ? "," : "") << names[c];
  out << "\n";
  for (const auto& r : rows) {
    const auto& p = r.point;
    const auto& pr = r.prediction;
    std::string seeds = r.seeds;  // "0,2,4" would be three fields
    std::replace(seeds.begin(), seeds.end(), ',', ' ');
    out << p.K << ',' << p.ny << ',' << p.d << ',' << number(p.alpha) << ',' << number(p.tau) << ',' << seeds << ','
        << r.solver << ',' << number(r.cluster_tolerance) << ',' << number(r.loss) << ',' << number(r.spread) << ',' << r.geometry << ',' << r.atoms << ','
        << r.max_atoms << ',' << number(r.collapsed_loss) << ',' << number(r.uniform_loss) << ',' << pr.regime << ','
        << number(pr.spread) << ',' << number(pr.loss) << ',' << number(pr.threshold) << ',' << number(pr.window_end)
        << ',' << r.converged_runs << ',' << r.runs << ',' << number(r.seconds) << "\n";
  }
  return out.str();
}

namespace {
std::string sweep_csv_header() {
  const auto& names = columns();
  std::string header;
  for (std::size_t c = 0; c < names.size(); ++c) header += (c ? "," : "") + names[c];
  return header;
}
}  // namespace

std::vector<SweepRow> parse_sweep_csv(const std::string& text, const std::string& source, const std::string& argument) {
  const auto fail = [&](std::size_t line_number, const std::string& why) {
    throw InvalidArgument(argument, "file " + source + " line " + std::to_string(line_number) + ": " + why);
  };
  const auto& names = columns();
  // Line by line in place: one line at a time is copied, never the text.
  std::size_t start = 0;
  std::string line;
  const auto next_line = [&] {
    if (start >= text.size()) return false;
    const std::size_t end = std::min(text.find('\n', start), text.size());
    line.assign(text, start, end - start);
    start = end + 1;
    return true;
  };
  if (!next_line() || line != sweep_csv_header()) fail(1, "is not a geomsim sweep CSV (wrong header)");
  std::vector<SweepRow> rows;
  std::size_t line_number = 1;
  while (next_line()) {
    ++line_number;
    if (line.empty()) continue;
    if (line.find('"') != std::string::npos) fail(line_number, "has a quoted field, which a geomsim sweep CSV never holds");
    const auto f = split(line, ',');
    if (f.size() != names.size()) {
      fail(line_number, "has " + std::to_string(f.size()) + " fields, expected " + std::to_string(names.size()));
    }
    std::size_t c = 0;
    const auto real = [&](const std::string& s) {
      double v = 0.0;
      const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
      if (res.ec != std::errc() || res.ptr != s.data() + s.size()) fail(line_number, "column " + names[c] + ": '" + s + "' is not a number");
      return v;
    };
    const auto integer = [&](const std::string& s) {
      int v = 0;
      const auto res = std::from_chars(s.data(), s.data() + s.size(), v);
      if (res.ec != std::errc() || res.ptr != s.data() + s.size()) fail(line_number, "column " + names[c] + ": '" + s + "' is not an integer");
      return v;
    };
    const auto optional_real = [&](const std::string& s) { return s.empty() ? std::optional<double>() : real(s); };
    SweepRow r;
    r.point.K = integer(f[c]); ++c;
    r.point.ny = integer(f[c]); ++c;
    r.point.d = integer(f[c]); ++c;
    r.point.alpha = real(f[c]); ++c;
    r.point.tau = real(f[c]); ++c;
    r.seeds = f[c++];
    std::replace(r.seeds.begin(), r.seeds.end(), ' ', ',');
    r.solver = f[c++];
    r.cluster_tolerance = real(f[c]); ++c;
    r.loss = real(f[c]); ++c;
    r.spread = real(f[c]); ++c;
    r.geometry = current_regime_name(f[c++]);
    r.atoms = f[c++];
    r.max_atoms = integer(f[c]); ++c;
    r.collapsed_loss = optional_real(f[c]); ++c;
    r.uniform_loss = real(f[c]); ++c;
    r.prediction.regime = current_regime_name(f[c++]);
    r.prediction.spread = optional_real(f[c]); ++c;
    r.prediction.loss = optional_real(f[c]); ++c;
    r.prediction.threshold = real(f[c]); ++c;
    r.prediction.window_end = optional_real(f[c]); ++c;
    r.converged_runs = integer(f[c]); ++c;
    r.runs = integer(f[c]); ++c;
    r.seconds = real(f[c]); ++c;
    // What sweep_csv cannot have written: a row like this is damage, not a result to keep.
    const auto require = [&](bool holds, const std::string& column, const std::string& what) {
      if (!holds) fail(line_number, "column " + column + ": " + what);
    };
    const auto finite = [](double v) { return std::isfinite(v); };
    const auto one_of = [](const std::string& v, std::initializer_list<const char*> allowed) {
      return std::any_of(allowed.begin(), allowed.end(), [&](const char* n) { return v == n; });
    };
    require(r.point.K >= 2, "K", "must be >= 2, got " + std::to_string(r.point.K));
    require(r.point.ny >= 1, "ny", "must be >= 1, got " + std::to_string(r.point.ny));
    require(r.point.d >= 2, "d", "must be >= 2, got " + std::to_string(r.point.d));
    require(r.point.alpha >= 0.0 && r.point.alpha <= 1.0, "alpha", "must be in [0, 1], got " + format_number(r.point.alpha));
    require(r.point.tau > 0.0 && finite(r.point.tau), "tau", "must be a finite number > 0, got " + format_number(r.point.tau));
    require(!r.seeds.empty(), "seeds", "is empty");
    require(is_solver_run_name(r.solver), "solver", "'" + r.solver + "' is not a solver");
    require(r.cluster_tolerance > 0.0 && finite(r.cluster_tolerance), "cluster_tol", "must be a finite number > 0");
    require(finite(r.loss), "loss", "must be finite, got " + format_number(r.loss));
    require(finite(r.spread) && r.spread >= 0.0, "spread", "must be a finite number >= 0, got " + format_number(r.spread));
    require(one_of(r.geometry, {"collapsed", "atoms", "continuous"}), "geometry", "'" + r.geometry + "' is not a geometry");
    require(r.max_atoms >= 1, "max_atoms", "must be >= 1");
    require(!r.collapsed_loss || finite(*r.collapsed_loss), "collapsed_loss", "must be finite or empty");
    require(finite(r.uniform_loss), "uniform_loss", "must be finite");
    require(one_of(r.prediction.regime, {"none", "collapsed", "continuous", "split", "uniform"}), "predicted_regime",
            "'" + r.prediction.regime + "' is not a regime");
    require(r.runs >= 1 && r.converged_runs >= 0 && r.converged_runs <= r.runs, "converged_runs",
            "must be in [0, runs] with runs >= 1");
    require(finite(r.seconds) && r.seconds >= 0.0, "seconds", "must be a finite number >= 0");
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<SweepRow> read_sweep_csv(const std::string& path, const std::string& argument) {
  InputFile file = open_regular_file(path, argument, kNoSizeLimit, "sweep CSV");
  // The header first: a file that is not a sweep CSV is refused after reading its first line.
  const std::string header = sweep_csv_header() + "\n";
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(file.size, header.size())), '\0');
  if (!file.stream.read(head.data(), static_cast<std::streamsize>(head.size()))) {
    throw InvalidArgument(argument, "cannot read " + path + " (it changed while it was read)");
  }
  if (head != header && head + "\n" != header) {
    throw InvalidArgument(argument, "file " + path + " line 1: is not a geomsim sweep CSV (wrong header)");
  }
  return parse_sweep_csv(read_whole_file(path, argument, kNoSizeLimit, "sweep CSV"), path, argument);
}

void require_same_settings(const std::vector<SweepRow>& done, const SolveSettings& settings, const std::string& seeds_text,
                           const std::string& source, const std::string& argument) {
  const std::string solver = make_solver(settings.solver)->name();
  for (const auto& row : done) {
    const auto refuse = [&](const std::string& option, const std::string& was, const std::string& now) {
      throw InvalidArgument(argument, source + " holds results for --" + option + " " + was + " (at " + row.point.key() +
                                          "), not " + now + "; resume with the same settings or write another file");
    };
    if (row.seeds != seeds_text) refuse("seeds", row.seeds, seeds_text);
    if (row.solver != solver) refuse("solver", row.solver, solver + (settings.solver == "auto" ? " (auto)" : ""));
    // The restarts by the starts they add to the seeds (the default depends on the point's size).
    const SpreadProblem problem{row.point.K, row.point.ny, row.point.d, row.point.alpha, row.point.tau};
    const int restarts = settings.restarts_for(static_cast<Index>(problem.K) * problem.ny, problem.dim());
    const int starts = static_cast<int>(settings.seeds.size()) + restarts;
    if (row.runs != starts) {
      refuse("restarts", std::to_string(row.runs - static_cast<int>(settings.seeds.size())) + " (" +
                             std::to_string(row.runs) + " starts)",
             std::to_string(restarts) + (settings.restarts < 0 ? " (the default at this size)" : ""));
    }
    if (row.cluster_tolerance != settings.cluster_tolerance) {
      refuse("cluster-tol", format_number(row.cluster_tolerance), format_number(settings.cluster_tolerance));
    }
  }
}

std::vector<SweepRow> merge_sweep_rows(const std::vector<std::vector<SweepRow>>& inputs) {
  std::map<std::string, SweepRow> by_key;
  for (const auto& rows : inputs) {
    for (const auto& row : rows) {
      const auto [it, inserted] = by_key.emplace(row.point.key(), row);
      if (!inserted && (it->second.seeds != row.seeds || it->second.solver != row.solver ||
                        it->second.cluster_tolerance != row.cluster_tolerance || it->second.loss != row.loss)) {
        throw InvalidArgument("merge", "two inputs disagree at " + row.point.key() + " (seeds " + it->second.seeds +
                                           " vs " + row.seeds + ", solver " + it->second.solver + " vs " + row.solver +
                                           ", cluster_tol " + format_number(it->second.cluster_tolerance) + " vs " +
                                           format_number(row.cluster_tolerance) + ", loss " + format_number(it->second.loss) +
                                           " vs " + format_number(row.loss) + ")");
      }
    }
  }
  std::vector<SweepRow> out;
  for (auto& [key, row] : by_key) out.push_back(row);
  std::sort(out.begin(), out.end(), [](const SweepRow& a, const SweepRow& b) { return order_key(a.point) < order_key(b.point); });
  return out;
}

}  // namespace geomsim
