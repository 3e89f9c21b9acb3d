#include "geomsim/figures/table_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "geomsim/experiments/sweep.hpp"
#include "geomsim/figures/line_figure.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

const std::vector<std::string> kSweepParameters{"K", "ny", "d", "alpha", "tau"};

// A column's name as the figure shows it.
std::string display(const std::string& column) {
  if (column == "ny") return "n_y";
  if (column == "tau") return "τ";
  if (column == "alpha") return "α";
  return column;
}

std::string axis_label(const std::string& column) {
  if (column == "alpha") return "α (weight of cNCE)";
  if (column == "tau") return "temperature τ";
  if (column == "d") return "dimension d";
  if (column == "spread") return "spread s(y)";
  if (column == "loss") return "loss L_spread";
  return display(column);
}

std::string setting(const std::string& column, const std::string& value) { return display(column) + " = " + value; }

// The distinct values of a column among `rows`, numerically ordered when all are numbers, else
// in order of appearance.
std::vector<std::string> ordered_values(const TextCsv& t, std::size_t column, const std::vector<std::size_t>& rows) {
  std::vector<std::string> values;
  std::set<std::string> seen;
  for (std::size_t r : rows) {
    if (seen.insert(t.rows[r][column]).second) values.push_back(t.rows[r][column]);
  }
  if (std::all_of(values.begin(), values.end(), [](const std::string& v) { return field_number(v).has_value(); })) {
    std::stable_sort(values.begin(), values.end(), [](const std::string& a, const std::string& b) { return *field_number(a) < *field_number(b); });
  }
  return values;
}

std::string listed(const std::vector<std::string>& values, std::size_t most = 8, const std::string& noun = "values") {
  std::string out;
  for (std::size_t k = 0; k < values.size() && k < most; ++k) out += (k ? ", " : "") + values[k];
  if (values.size() > most) out += ", ... (" + std::to_string(values.size()) + " " + noun + ")";
  return out;
}

// A finite number of row r's column c that a figure can draw; InvalidArgument("csv") naming the
// file, the line and the column otherwise.
double plot_number(const TextCsv& t, std::size_t r, std::size_t c) {
  const auto v = field_number(t.rows[r][c]);
  if (!v) {
    throw InvalidArgument("csv", "file " + t.source + " line " + std::to_string(t.lines[r]) + ": column " + t.header[c] + " holds '" +
                                     t.rows[r][c] + "', not a finite number; --x and --y need numbers");
  }
  if (std::abs(*v) > kMaxDrawnMagnitude) {
    throw InvalidArgument("csv", "file " + t.source + " line " + std::to_string(t.lines[r]) + ": column " + t.header[c] + " holds " +
                                     t.rows[r][c] + ", beyond the +-" + format_number(kMaxDrawnMagnitude) +
                                     " a figure can draw (gnuplot refuses an axis range wider than about 9e307)");
  }
  return *v;
}

using GroupKey = std::pair<std::size_t, std::size_t>;  // (facet, curve)

// What a table plot draws: its columns, the rows the where filters keep, the curves' and panels'
// values, and the rows of each (facet, curve).
struct PlotSelection {
  std::size_t xc = 0, yc = 0;
  std::optional<std::size_t> ac, cc, fc;  // alternate, curves, facets
  std::vector<std::size_t> rows;
  std::set<std::size_t> filtered;  // the where filters' columns
  std::vector<std::string> curve_values, facet_values;
  std::map<GroupKey, std::vector<std::size_t>> groups;
};

std::size_t value_index(const std::vector<std::string>& values, const std::string& v) {
  return static_cast<std::size_t>(std::find(values.begin(), values.end(), v) - values.begin());
}

// The columns named by the spec, the rows its where filters keep (x and y drawable numbers, x > 0
// on a log axis), at most kMaxLineCurves curves and kMaxFacets panels. Throws InvalidArgument
// naming the option or the CSV.
PlotSelection select_plot(const TextCsv& t, const TablePlotSpec& spec) {
  const auto require_column = [&](const std::string& option, const std::string& name) {
    const auto c = t.column(name);
    if (!c) throw InvalidArgument(option, "names no column of " + t.source + ": '" + name + "'; its columns are " + t.column_list());
    return *c;
  };
  PlotSelection sel;
  sel.xc = require_column("x", spec.x);
  sel.yc = require_column("y", spec.y);
  if (!spec.alternate.empty()) sel.ac = require_column("alternate", spec.alternate);
  if (sel.xc == sel.yc) throw InvalidArgument("y", "must differ from --x (both are " + spec.x + ")");
  if (!spec.curves.empty()) {
    sel.cc = require_column("curves", spec.curves);
    if (*sel.cc == sel.xc || *sel.cc == sel.yc) throw InvalidArgument("curves", "must differ from --x and --y, got " + spec.curves);
  }
  if (!spec.facets.empty()) {
    sel.fc = require_column("facets", spec.facets);
    if (*sel.fc == sel.xc || *sel.fc == sel.yc || (sel.cc && *sel.fc == *sel.cc)) {
      throw InvalidArgument("facets", "must differ from --x, --y and --curves, got " + spec.facets);
    }
  }
  // The rows the where filters keep.
  for (std::size_t r = 0; r < t.rows.size(); ++r) sel.rows.push_back(r);
  for (const auto& [name, value] : spec.where) {
    const std::size_t c = require_column("where", name);
    sel.filtered.insert(c);
    const auto wanted = field_number(value);
    const auto all = sel.rows;
    sel.rows.clear();
    for (std::size_t r : all) {
      const std::string& field = t.rows[r][c];
      const auto v = field_number(field);
      if (field == value || (wanted && v && *v == *wanted)) sel.rows.push_back(r);
    }
    if (sel.rows.empty()) {
      throw InvalidArgument("where", name + "=" + value + " selects no row of " + t.source + " (" + name + " holds " +
                                         listed(ordered_values(t, c, all)) + ")");
    }
  }
  // x and y: finite numbers that gnuplot can draw.
  for (std::size_t r : sel.rows) {
    const double x = plot_number(t, r, sel.xc);
    plot_number(t, r, sel.yc);
    if (spec.logx && !(x > 0)) {
      throw InvalidArgument("csv", "file " + t.source + " line " + std::to_string(t.lines[r]) + ": --logx needs " + spec.x + " > 0, got " +
                                       t.rows[r][sel.xc]);
    }
  }
  sel.curve_values = sel.cc ? ordered_values(t, *sel.cc, sel.rows) : std::vector<std::string>{""};
  sel.facet_values = sel.fc ? ordered_values(t, *sel.fc, sel.rows) : std::vector<std::string>{""};
  if (static_cast<int>(sel.curve_values.size()) > kMaxLineCurves) {
    throw InvalidArgument("csv", "file " + t.source + ": --curves " + spec.curves + " has " + std::to_string(sel.curve_values.size()) +
                                     " values (" + listed(sel.curve_values) + "); a figure tells at most " + std::to_string(kMaxLineCurves) +
                                     " curves apart: put " + spec.curves + " on --facets or keep some with --where");
  }
  if (static_cast<int>(sel.facet_values.size()) > kMaxFacets) {
    throw InvalidArgument("csv", "file " + t.source + ": --facets " + spec.facets + " has " + std::to_string(sel.facet_values.size()) +
                                     " values (" + listed(sel.facet_values) + "); a figure holds at most " + std::to_string(kMaxFacets) +
                                     " panels: keep some with --where");
  }
  for (std::size_t r : sel.rows) {
    sel.groups[{sel.fc ? value_index(sel.facet_values, t.rows[r][*sel.fc]) : 0,
                sel.cc ? value_index(sel.curve_values, t.rows[r][*sel.cc]) : 0}]
        .push_back(r);
  }
  return sel;
}

// " on the curve K = 3, in the panel d = 5": where a group sits, for a refusal.
std::string group_name(const TablePlotSpec& spec, const PlotSelection& sel, const GroupKey& key) {
  std::string out;
  if (sel.cc) out += " on the curve " + setting(spec.curves, sel.curve_values[key.second]);
  if (sel.fc) out += std::string(sel.cc ? "," : "") + " in the panel " + setting(spec.facets, sel.facet_values[key.first]);
  return out;
}

std::string choose(const std::string& column) {
  return "choose it with --curves " + column + ", --facets " + column + " or --where " + column + "=VALUE";
}

// Row r of a sweep CSV as the sweep point its theory and thresholds need; InvalidArgument("csv")
// naming the line and the column of a parameter that is no sweep's.
SweepPoint sweep_point_at(const TextCsv& t, std::size_t r) {
  const auto parameter = [&](const std::string& name, double lo, double hi, bool whole, const std::string& wanted) {
    const std::size_t c = *t.column(name);
    const auto v = field_number(t.rows[r][c]);
    if (!v || *v < lo || *v > hi || (whole && *v != std::floor(*v))) {
      throw InvalidArgument("csv", "file " + t.source + " line " + std::to_string(t.lines[r]) + ": column " + name + " holds '" +
                                       t.rows[r][c] + "', not " + wanted + "; it has a sweep CSV's columns (K, ny, d, alpha, "
                                       "tau, predicted_regime), whose theory and thresholds need a sweep's parameters (--no-theory "
                                       "and an x other than alpha draw without them)");
    }
    return *v;
  };
  constexpr double kInt = std::numeric_limits<int>::max();
  SweepPoint p;
  p.K = static_cast<int>(parameter("K", 2, kInt, true, "a whole number >= 2"));
  p.ny = static_cast<int>(parameter("ny", 1, kInt, true, "a whole number >= 1"));
  p.d = static_cast<int>(parameter("d", 2, kInt, true, "a whole number >= 2"));
  p.alpha = parameter("alpha", 0.0, 1.0, false, "a number in [0, 1]");
  p.tau = parameter("tau", std::numeric_limits<double>::denorm_min(), std::numeric_limits<double>::max(), false, "a finite number > 0");
  return p;
}

// Each group must be one curve: the sweep's parameters that are none of x, curves and facets
// (`others`) fixed along it, and one row per x. InvalidArgument("csv") naming the column to choose by.
void require_one_curve_per_group(const TextCsv& t, const TablePlotSpec& spec, const PlotSelection& sel,
                                 const std::vector<std::size_t>& others) {
  for (const auto& [key, members] : sel.groups) {
    for (std::size_t c : others) {
      for (std::size_t r : members) {
        if (t.rows[r][c] != t.rows[members.front()][c]) {
          throw InvalidArgument("csv", "file " + t.source + ": the parameter " + t.header[c] + " varies" + group_name(spec, sel, key) + " (" +
                                           t.rows[members.front()][c] + " at line " + std::to_string(t.lines[members.front()]) + ", " +
                                           t.rows[r][c] + " at line " + std::to_string(t.lines[r]) + "), which would join two curves into one: " +
                                           choose(t.header[c]));
        }
      }
    }
    std::map<double, std::size_t> at;
    for (std::size_t r : members) {
      const auto [it, fresh] = at.emplace(plot_number(t, r, sel.xc), r);
      if (fresh) continue;
      const std::size_t a = it->second;
      std::vector<std::string> differ;
      for (std::size_t c = 0; c < t.header.size(); ++c) {
        if (c != sel.yc && t.rows[a][c] != t.rows[r][c]) differ.push_back(t.header[c]);
      }
      std::string why = differ.empty() ? std::string("they are the same row twice")
                                       : "they differ in " + listed(differ, 6, "columns") + ": " + choose(differ.front()) + " (the column that varies)";
      throw InvalidArgument("csv", "file " + t.source + " has several rows for one point: lines " + std::to_string(t.lines[a]) + " and " +
                                       std::to_string(t.lines[r]) + " both have " + setting(spec.x, t.rows[r][sel.xc]) + group_name(spec, sel, key) +
                                       "; " + why);
    }
  }
}

// The parameters fixed in the whole figure (its subtitle) and those fixed per curve or per panel.
struct FixedSettings {
  std::vector<std::string> figure;
  std::map<std::size_t, std::string> curves, facets;
};

// `described`: the sweep's other parameters and the where filters' columns. A column that takes
// several values and is fixed neither per curve nor per panel is refused (InvalidArgument("csv")).
FixedSettings fixed_settings(const TextCsv& t, const PlotSelection& sel, std::vector<std::size_t> described) {
  FixedSettings fixed;
  std::sort(described.begin(), described.end());
  for (std::size_t c : described) {
    const auto values = ordered_values(t, c, sel.rows);
    if (values.size() == 1) {
      fixed.figure.push_back(setting(t.header[c], values.front()));
      continue;
    }
    // Fixed per curve value (across panels), or else per panel.
    const auto per = [&](std::optional<std::size_t> by, std::map<std::size_t, std::string>& notes) {
      if (!by) return false;
      std::map<std::string, std::string> value_of;
      for (std::size_t r : sel.rows) {
        const auto [it, fresh] = value_of.emplace(t.rows[r][*by], t.rows[r][c]);
        if (!fresh && it->second != t.rows[r][c]) return false;
      }
      const auto& order = by == sel.cc ? sel.curve_values : sel.facet_values;
      for (const auto& [v, w] : value_of) {
        auto& note = notes[value_index(order, v)];
        note += (note.empty() ? "" : ", ") + setting(t.header[c], w);
      }
      return true;
    };
    if (!per(sel.cc, fixed.curves) && !per(sel.fc, fixed.facets)) {
      throw InvalidArgument("csv", "file " + t.source + ": the parameter " + t.header[c] + " takes " + listed(values) +
                                       " across the figure's curves and panels: " + choose(t.header[c]));
    }
  }
  return fixed;
}

// The theory's curve from `base` as x runs over [lo, hi] (whole steps for K, n_y and d, else 400
// steps), with a gap wherever the predicted regime changes or has no drawable value.
std::vector<std::vector<double>> theory_curve(const TablePlotSpec& spec, const SweepPoint& base, double lo, double hi,
                                              const std::vector<std::pair<double, double>>& points) {
  const bool integral = spec.x == "K" || spec.x == "ny" || spec.x == "d";
  std::vector<double> xs;
  if (integral && hi - lo <= 2000) {
    for (double v = lo; v <= hi; v += 1.0) xs.push_back(v);
  } else if (integral) {
    for (const auto& p : points) xs.push_back(p.first);
  } else {
    for (int s = 0; s <= 400; ++s) xs.push_back(lo + (hi - lo) * s / 400.0);
  }
  std::vector<std::vector<double>> theory;
  std::string previous;
  for (double v : xs) {
    SweepPoint q = base;
    if (spec.x == "K") q.K = static_cast<int>(v);
    else if (spec.x == "ny") q.ny = static_cast<int>(v);
    else if (spec.x == "d") q.d = static_cast<int>(v);
    else if (spec.x == "alpha") q.alpha = v;
    else q.tau = v;
    const SweepPrediction pr = predict(q);
    auto value = spec.y == "spread" ? pr.spread : pr.loss;
    // A prediction that overflows (a loss at a tau near 0) is a gap: no figure draws it.
    if (value && !(std::abs(*value) <= kMaxDrawnMagnitude)) value.reset();
    // A gap wherever the predicted regime changes (the value jumps there) or has no value.
    if ((pr.regime != previous || !value) && !theory.empty() && !theory.back().empty()) theory.push_back({});
    previous = pr.regime;
    if (value) theory.push_back({v, *value});
  }
  while (!theory.empty() && theory.back().empty()) theory.pop_back();
  return theory;
}

}  // namespace

GnuplotFigure plot_table(const TextCsv& t, const TablePlotSpec& spec) {
  const PlotSelection sel = select_plot(t, spec);
  const std::size_t xc = sel.xc, yc = sel.yc;
  const bool sweep = std::all_of(kSweepParameters.begin(), kSweepParameters.end(), [&](const std::string& p) { return t.column(p); }) &&
                     t.column("predicted_regime");
  const bool theory = spec.theory && sweep && (spec.y == "spread" || spec.y == "loss") &&
                      std::find(kSweepParameters.begin(), kSweepParameters.end(), spec.x) != kSweepParameters.end();
  const bool predicts = sweep && (theory || spec.x == "alpha");
  if (predicts) {
    for (std::size_t r : sel.rows) sweep_point_at(t, r);
  }
  // The sweep's parameters that are none of x, curves, facets: fixed along every curve.
  std::vector<std::size_t> others;
  for (const auto& p : kSweepParameters) {
    const auto c = t.column(p);
    if (c && *c != xc && *c != yc && c != sel.cc && c != sel.fc) others.push_back(*c);
  }
  require_one_curve_per_group(t, spec, sel, others);
  std::vector<std::size_t> described = others;
  for (std::size_t c : sel.filtered) {
    if (std::find(described.begin(), described.end(), c) == described.end() && c != xc && c != yc && c != sel.cc && c != sel.fc) {
      described.push_back(c);
    }
  }
  FixedSettings fixed = fixed_settings(t, sel, described);

  LineFigureSpec figure;
  figure.title = spec.title.empty() ? axis_label(spec.y) + " against " + display(spec.x) : spec.title;
  for (const auto& f : fixed.figure) figure.subtitle += (figure.subtitle.empty() ? "" : ", ") + f;
  figure.xlabel = axis_label(spec.x);
  figure.ylabel = axis_label(spec.y);
  figure.logx = spec.logx;
  figure.theory_legend = "theory";
  if (sweep && spec.y == "spread") figure.yrange = std::make_pair(-0.03, 1.05);
  for (std::size_t k = 0; k < sel.curve_values.size(); ++k) {
    std::string entry = sel.cc ? setting(spec.curves, sel.curve_values[k]) : axis_label(spec.y);
    if (fixed.curves.count(k)) entry += " (" + fixed.curves[k] + ")";
    figure.legend.push_back(entry);
  }
  for (std::size_t f = 0; f < sel.facet_values.size(); ++f) {
    LinePanel panel;
    if (sel.fc) {
      panel.title = setting(spec.facets, sel.facet_values[f]);
      if (fixed.facets.count(f)) panel.title += ", " + fixed.facets[f];
    }
    std::set<double> thresholds;
    for (std::size_t k = 0; k < sel.curve_values.size(); ++k) {
      const auto it = sel.groups.find({f, k});
      if (it == sel.groups.end()) continue;
      LineCurve curve;
      curve.style = static_cast<int>(k) + 1;
      std::vector<std::size_t> members = it->second;
      std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) { return plot_number(t, a, xc) < plot_number(t, b, xc); });
      for (std::size_t r : members) curve.points.emplace_back(plot_number(t, r, xc), plot_number(t, r, yc));
      if (sel.ac) {
        for (std::size_t r : members) {
          const auto alternate = field_number(t.rows[r][*sel.ac]);
          if (alternate && std::abs(*alternate - plot_number(t, r, yc)) > spec.alternate_tolerance) {
            curve.alternate.emplace_back(plot_number(t, r, xc), *alternate);
          }
        }
      }
      if (predicts) {
        // The sweep point of the curve's first row; x varies along it (each of its rows checked above).
        const SweepPoint base = sweep_point_at(t, members.front());
        const double lo = curve.points.front().first, hi = curve.points.back().first;
        if (spec.x == "alpha") {
          const double threshold = predict(base).threshold;
          if (threshold >= lo && threshold <= hi && thresholds.insert(threshold).second) {
            // In the curve's colour where K changes from curve to curve, else grey.
            const bool by_curve = spec.curves == "K" || fixed.curves.count(k) != 0;
            panel.markers.push_back({threshold, by_curve ? curve.style : 0});
          }
        }
        if (theory) curve.theory = theory_curve(spec, base, lo, hi, curve.points);
      }
      panel.curves.push_back(std::move(curve));
    }
    figure.panels.push_back(std::move(panel));
  }
  if (spec.x == "alpha" && sweep) figure.marker_legend = "α = K/(2K−1)";
  if (sel.ac) figure.alternate_legend = spec.alternate_legend;
  return line_figure(figure);
}

}  // namespace geomsim
