#include "geomsim/experiments/sweep.hpp"

#include <omp.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <sstream>
#include <tuple>

#include "geomsim/experiments/solve_memory.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/reference_losses.hpp"
#include "geomsim/theory/symmetric_split.hpp"

namespace geomsim {
namespace {

const std::vector<std::string>& columns() {
  static const std::vector<std::string> names{
      "K",          "ny",        "d",         "alpha",          "tau",          "seeds",        "solver",
      "loss",       "spread",    "geometry",  "atoms",          "max_atoms",    "collapsed_loss",
      "uniform_loss", "predicted_regime", "predicted_spread", "predicted_loss", "threshold", "window_end",
      "converged_runs", "runs", "seconds"};
  return names;
}

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

std::vector<SweepPoint> sweep_points(const SweepGrid& grid) {
  const auto nonempty = [](const char* name, std::size_t size) {
    if (size == 0) throw InvalidArgument(name, "must list at least one value");
  };
  nonempty("K", grid.K.size());
  nonempty("ny", grid.ny.size());
  nonempty("d", grid.d.size());
  nonempty("alpha", grid.alpha.size());
  nonempty("tau", grid.tau.size());
  std::vector<SweepPoint> points;
  for (int K : grid.K) {
    for (int ny : grid.ny) {
      for (int d : grid.d) {
        for (double tau : grid.tau) {
          for (double alpha : grid.alpha) {
            SpreadProblem problem{K, ny, d, alpha, tau};
            problem.validate();
            points.push_back({K, ny, d, alpha, tau});
          }
        }
      }
    }
  }
  return points;
}

Shard parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  Shard shard;
  const auto parse = [&](const std::string& part, int& value) {
    const auto result = std::from_chars(part.data(), part.data() + part.size(), value);
    return result.ec == std::errc() && result.ptr == part.data() + part.size();
  };
  if (slash == std::string::npos || !parse(text.substr(0, slash), shard.index) ||
      !parse(text.substr(slash + 1), shard.count) || shard.count < 1 || shard.index < 0 ||
      shard.index >= shard.count) {
    throw InvalidArgument("shard", "must be i/n with 0 <= i < n, e.g. 0/4, got '" + text + "'");
  }
  return shard;
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
    out.regime = "spread";
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
  const SpreadSolution s = solve_spread_problem({point.K, point.ny, point.d, point.alpha, point.tau}, settings);
  SweepRow row;
  row.point = point;
  row.seeds = seeds_text;
  row.solver = s.solver;
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
  // One point per thread; an exception in a worker is carried out of the parallel region.
  std::string error_argument, error_requirement;
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t k = 0; k < count; ++k) {
    try {
      fresh[static_cast<std::size_t>(k)] = run_sweep_point(points[todo[static_cast<std::size_t>(k)]], settings, seeds_text);
#pragma omp critical(geomsim_sweep_progress)
      {
        ++completed;
        if (on_row) on_row(fresh[static_cast<std::size_t>(k)], completed, todo.size());
      }
    } catch (const InvalidArgument& e) {
#pragma omp critical(geomsim_sweep_progress)
      if (error_argument.empty()) {
        error_argument = e.argument();
        error_requirement = e.requirement();
      }
    } catch (const std::exception& e) {
#pragma omp critical(geomsim_sweep_progress)
      if (error_argument.empty()) {
        error_argument = "sweep";
        error_requirement = std::string("failed: ") + e.what();
      }
    }
  }
  if (!error_argument.empty()) throw InvalidArgument(error_argument, error_requirement);
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
    out << p.K << ',' << p.ny << ',' << p.d << ',' << number(p.alpha) << ',' << number(p.tau) << ',' << r.seeds << ','
        << r.solver << ',' << number(r.loss) << ',' << number(r.spread) << ',' << r.geometry << ',' << r.atoms << ','
        << r.max_atoms << ',' << number(r.collapsed_loss) << ',' << number(r.uniform_loss) << ',' << pr.regime << ','
        << number(pr.spread) << ',' << number(pr.loss) << ',' << number(pr.threshold) << ',' << number(pr.window_end)
        << ',' << r.converged_runs << ',' << r.runs << ',' << number(r.seconds) << "\n";
  }
  return out.str();
}

std::vector<SweepRow> parse_sweep_csv(const std::string& text, const std::string& source, const std::string& argument) {
  std::istringstream in(text);
  std::string line;
  const auto fail = [&](std::size_t line_number, const std::string& why) {
    throw InvalidArgument(argument, "file " + source + " line " + std::to_string(line_number) + ": " + why);
  };
  const auto& names = columns();
  std::string header;
  for (std::size_t c = 0; c < names.size(); ++c) header += (c ? "," : "") + names[c];
  if (!std::getline(in, line) || line != header) fail(1, "is not a geomsim sweep CSV (wrong header)");
  std::vector<SweepRow> rows;
  std::size_t line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty()) continue;
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
    r.solver = f[c++];
    r.loss = real(f[c]); ++c;
    r.spread = real(f[c]); ++c;
    r.geometry = f[c++];
    r.atoms = f[c++];
    r.max_atoms = integer(f[c]); ++c;
    r.collapsed_loss = optional_real(f[c]); ++c;
    r.uniform_loss = real(f[c]); ++c;
    r.prediction.regime = f[c++];
    r.prediction.spread = optional_real(f[c]); ++c;
    r.prediction.loss = optional_real(f[c]); ++c;
    r.prediction.threshold = real(f[c]); ++c;
    r.prediction.window_end = optional_real(f[c]); ++c;
    r.converged_runs = integer(f[c]); ++c;
    r.runs = integer(f[c]); ++c;
    r.seconds = real(f[c]); ++c;
    rows.push_back(std::move(r));
  }
  return rows;
}

std::vector<SweepRow> merge_sweep_rows(const std::vector<std::vector<SweepRow>>& inputs) {
  std::map<std::string, SweepRow> by_key;
  for (const auto& rows : inputs) {
    for (const auto& row : rows) {
      const auto [it, inserted] = by_key.emplace(row.point.key(), row);
      if (!inserted && (it->second.seeds != row.seeds || it->second.solver != row.solver || it->second.loss != row.loss)) {
        throw InvalidArgument("merge", "two inputs disagree at " + row.point.key() + " (seeds " + it->second.seeds +
                                           " vs " + row.seeds + ", solver " + it->second.solver + " vs " + row.solver +
                                           ", loss " + format_number(it->second.loss) + " vs " + format_number(row.loss) + ")");
      }
    }
  }
  std::vector<SweepRow> out;
  for (auto& [key, row] : by_key) out.push_back(row);
  std::sort(out.begin(), out.end(), [](const SweepRow& a, const SweepRow& b) { return order_key(a.point) < order_key(b.point); });
  return out;
}

}  // namespace geomsim
