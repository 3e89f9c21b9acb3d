#include "geomsim/figures/table_plot.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
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

}  // namespace

GnuplotFigure plot_table(const TextCsv& t, const TablePlotSpec& spec) {
  const auto require_column = [&](const std::string& option, const std::string& name) {
    const auto c = t.column(name);
    if (!c) throw InvalidArgument(option, "names no column of " + t.source + ": '" + name + "'; its columns are " + t.column_list());
    return *c;
  };
  const std::size_t xc = require_column("x", spec.x), yc = require_column("y", spec.y);
  const std::optional<std::size_t> ac =
      spec.alternate.empty() ? std::nullopt : std::optional<std::size_t>(require_column("alternate", spec.alternate));
  if (xc == yc) throw InvalidArgument("y", "must differ from --x (both are " + spec.x + ")");
  std::optional<std::size_t> cc, fc;
  if (!spec.curves.empty()) {
    cc = require_column("curves", spec.curves);
    if (*cc == xc || *cc == yc) throw InvalidArgument("curves", "must differ from --x and --y, got " + spec.curves);
  }
  if (!spec.facets.empty()) {
    fc = require_column("facets", spec.facets);
    if (*fc == xc || *fc == yc || (cc && *fc == *cc)) throw InvalidArgument("facets", "must differ from --x, --y and --curves, got " + spec.facets);
  }
  // The rows the where filters keep.
  std::vector<std::size_t> rows;
  for (std::size_t r = 0; r < t.rows.size(); ++r) rows.push_back(r);
  std::set<std::size_t> filtered;
  for (const auto& [name, value] : spec.where) {
    const std::size_t c = require_column("where", name);
    filtered.insert(c);
    const auto wanted = field_number(value);
    const auto all = rows;
    rows.clear();
    for (std::size_t r : all) {
      const std::string& field = t.rows[r][c];
      const auto v = field_number(field);
      if (field == value || (wanted && v && *v == *wanted)) rows.push_back(r);
    }
    if (rows.empty()) {
      throw InvalidArgument("where", name + "=" + value + " selects no row of " + t.source + " (" + name + " holds " +
                                         listed(ordered_values(t, c, all)) + ")");
    }
  }
  // x and y: finite numbers that gnuplot can draw.
  const auto number_at = [&](std::size_t r, std::size_t c) {
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
  };
  for (std::size_t r : rows) {
    const double x = number_at(r, xc);
    number_at(r, yc);
    if (spec.logx && !(x > 0)) {
      throw InvalidArgument("csv", "file " + t.source + " line " + std::to_string(t.lines[r]) + ": --logx needs " + spec.x + " > 0, got " + t.rows[r][xc]);
    }
  }
  const std::vector<std::string> curve_values = cc ? ordered_values(t, *cc, rows) : std::vector<std::string>{""};
  const std::vector<std::string> facet_values = fc ? ordered_values(t, *fc, rows) : std::vector<std::string>{""};
  if (static_cast<int>(curve_values.size()) > kMaxLineCurves) {
    throw InvalidArgument("csv", "file " + t.source + ": --curves " + spec.curves + " has " + std::to_string(curve_values.size()) + " values (" +
                                     listed(curve_values) + "); a figure tells at most " + std::to_string(kMaxLineCurves) +
                                     " curves apart: put " + spec.curves + " on --facets or keep some with --where");
  }
  if (static_cast<int>(facet_values.size()) > kMaxFacets) {
    throw InvalidArgument("csv", "file " + t.source + ": --facets " + spec.facets + " has " + std::to_string(facet_values.size()) + " values (" +
                                     listed(facet_values) + "); a figure holds at most " + std::to_string(kMaxFacets) +
                                     " panels: keep some with --where");
  }
  const auto index_of = [](const std::vector<std::string>& values, const std::string& v) {
    return static_cast<std::size_t>(std::find(values.begin(), values.end(), v) - values.begin());
  };
  // The rows of each (facet, curve).
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> groups;
  for (std::size_t r : rows) {
    groups[{fc ? index_of(facet_values, t.rows[r][*fc]) : 0, cc ? index_of(curve_values, t.rows[r][*cc]) : 0}].push_back(r);
  }
  const auto group_name = [&](const std::pair<std::size_t, std::size_t>& key) {
    std::string out;
    if (cc) out += " on the curve " + setting(spec.curves, curve_values[key.second]);
    if (fc) out += std::string(cc ? "," : "") + " in the panel " + setting(spec.facets, facet_values[key.first]);
    return out;
  };
  const bool sweep = std::all_of(kSweepParameters.begin(), kSweepParameters.end(), [&](const std::string& p) { return t.column(p); }) &&
                     t.column("predicted_regime");
  const bool theory = spec.theory && sweep && (spec.y == "spread" || spec.y == "loss") &&
                      std::find(kSweepParameters.begin(), kSweepParameters.end(), spec.x) != kSweepParameters.end();
  const bool predicts = sweep && (theory || spec.x == "alpha");
  const auto sweep_point_at = [&](std::size_t r) {
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
  };
  if (predicts) {
    for (std::size_t r : rows) sweep_point_at(r);
  }
  // The sweep's parameters that are none of x, curves, facets: fixed along every curve.
  std::vector<std::size_t> others;
  for (const auto& p : kSweepParameters) {
    const auto c = t.column(p);
    if (c && *c != xc && *c != yc && c != cc && c != fc) others.push_back(*c);
  }
  const auto choose = [&](const std::string& column) {
    return "choose it with --curves " + column + ", --facets " + column + " or --where " + column + "=VALUE";
  };
  for (const auto& [key, members] : groups) {
    for (std::size_t c : others) {
      for (std::size_t r : members) {
        if (t.rows[r][c] != t.rows[members.front()][c]) {
          throw InvalidArgument("csv", "file " + t.source + ": the parameter " + t.header[c] + " varies" + group_name(key) + " (" +
                                           t.rows[members.front()][c] + " at line " + std::to_string(t.lines[members.front()]) + ", " +
                                           t.rows[r][c] + " at line " + std::to_string(t.lines[r]) + "), which would join two curves into one: " +
                                           choose(t.header[c]));
        }
      }
    }
    // One row per x.
    std::map<double, std::size_t> at;
    for (std::size_t r : members) {
      const auto [it, fresh] = at.emplace(number_at(r, xc), r);
      if (fresh) continue;
      const std::size_t a = it->second;
      std::vector<std::string> differ;
      for (std::size_t c = 0; c < t.header.size(); ++c) {
        if (c != yc && t.rows[a][c] != t.rows[r][c]) differ.push_back(t.header[c]);
      }
      std::string why = differ.empty() ? std::string("they are the same row twice")
                                       : "they differ in " + listed(differ, 6, "columns") + ": " + choose(differ.front()) + " (the column that varies)";
      throw InvalidArgument("csv", "file " + t.source + " has several rows for one point: lines " + std::to_string(t.lines[a]) + " and " +
                                       std::to_string(t.lines[r]) + " both have " + setting(spec.x, t.rows[r][xc]) + group_name(key) + "; " + why);
    }
  }
  // The parameters fixed in the whole figure (the subtitle) and those fixed per curve or panel.
  std::vector<std::string> fixed;
  std::map<std::size_t, std::string> curve_notes, facet_notes;
  std::vector<std::size_t> described = others;
  for (std::size_t c : filtered) {
    if (std::find(described.begin(), described.end(), c) == described.end() && c != xc && c != yc && c != cc && c != fc) described.push_back(c);
  }
  std::sort(described.begin(), described.end());
  for (std::size_t c : described) {
    const auto values = ordered_values(t, c, rows);
    if (values.size() == 1) {
      fixed.push_back(setting(t.header[c], values.front()));
      continue;
    }
    // Fixed per curve value (across panels), or else per panel.
    const auto per = [&](std::optional<std::size_t> by, std::map<std::size_t, std::string>& notes) {
      if (!by) return false;
      std::map<std::string, std::string> value_of;
      for (std::size_t r : rows) {
        const auto [it, fresh] = value_of.emplace(t.rows[r][*by], t.rows[r][c]);
        if (!fresh && it->second != t.rows[r][c]) return false;
      }
      const auto& order = by == cc ? curve_values : facet_values;
      for (const auto& [v, w] : value_of) {
        auto& note = notes[index_of(order, v)];
        note += (note.empty() ? "" : ", ") + setting(t.header[c], w);
      }
      return true;
    };
    if (!per(cc, curve_notes) && !per(fc, facet_notes)) {
      throw InvalidArgument("csv", "file " + t.source + ": the parameter " + t.header[c] + " takes " + listed(values) +
                                       " across the figure's curves and panels: " + choose(t.header[c]));
    }
  }
  // A sweep CSV's parameters feed its theory and thresholds (computed below whenever the
  // figure draws either): each kept row's must be a sweep's, or the CSV is refused naming the
  // file, the line and the column (a field that is no number, or a K of 1e300, is no sweep point).
  LineFigureSpec figure;
  figure.title = spec.title.empty() ? axis_label(spec.y) + " against " + display(spec.x) : spec.title;
  for (const auto& f : fixed) figure.subtitle += (figure.subtitle.empty() ? "" : ", ") + f;
  figure.xlabel = axis_label(spec.x);
  figure.ylabel = axis_label(spec.y);
  figure.logx = spec.logx;
  figure.theory_legend = "theory";
  if (sweep && spec.y == "spread") figure.yrange = std::make_pair(-0.03, 1.05);
  for (std::size_t k = 0; k < curve_values.size(); ++k) {
    std::string entry = cc ? setting(spec.curves, curve_values[k]) : axis_label(spec.y);
    if (curve_notes.count(k)) entry += " (" + curve_notes[k] + ")";
    figure.legend.push_back(entry);
  }
  for (std::size_t f = 0; f < facet_values.size(); ++f) {
    LinePanel panel;
    if (fc) {
      panel.title = setting(spec.facets, facet_values[f]);
      if (facet_notes.count(f)) panel.title += ", " + facet_notes[f];
    }
    std::set<double> thresholds;
    for (std::size_t k = 0; k < curve_values.size(); ++k) {
      const auto it = groups.find({f, k});
      if (it == groups.end()) continue;
      LineCurve curve;
      curve.style = static_cast<int>(k) + 1;
      std::vector<std::size_t> members = it->second;
      std::sort(members.begin(), members.end(), [&](std::size_t a, std::size_t b) { return number_at(a, xc) < number_at(b, xc); });
      for (std::size_t r : members) curve.points.emplace_back(number_at(r, xc), number_at(r, yc));
      if (ac) {
        for (std::size_t r : members) {
          const auto alternate = field_number(t.rows[r][*ac]);
          if (alternate && std::abs(*alternate - number_at(r, yc)) > spec.alternate_tolerance) {
            curve.alternate.emplace_back(number_at(r, xc), *alternate);
          }
        }
      }
      if (predicts) {
        // The sweep point of the curve's first row; x varies along it (each of its rows checked above).
        const SweepPoint base = sweep_point_at(members.front());
        const double lo = curve.points.front().first, hi = curve.points.back().first;
        if (spec.x == "alpha") {
          const double threshold = predict(base).threshold;
          if (threshold >= lo && threshold <= hi && thresholds.insert(threshold).second) {
            // In the curve's colour where K changes from curve to curve, else grey.
            const bool by_curve = spec.curves == "K" || curve_notes.count(k) != 0;
            panel.markers.push_back({threshold, by_curve ? curve.style : 0});
          }
        }
        if (theory) {
          const bool integral = spec.x == "K" || spec.x == "ny" || spec.x == "d";
          std::vector<double> xs;
          if (integral && hi - lo <= 2000) {
            for (double v = lo; v <= hi; v += 1.0) xs.push_back(v);
          } else if (integral) {
            for (const auto& p : curve.points) xs.push_back(p.first);
          } else {
            for (int s = 0; s <= 400; ++s) xs.push_back(lo + (hi - lo) * s / 400.0);
          }
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
            if ((pr.regime != previous || !value) && !curve.theory.empty() && !curve.theory.back().empty()) curve.theory.push_back({});
            previous = pr.regime;
            if (value) curve.theory.push_back({v, *value});
          }
          while (!curve.theory.empty() && curve.theory.back().empty()) curve.theory.pop_back();
        }
      }
      panel.curves.push_back(std::move(curve));
    }
    figure.panels.push_back(std::move(panel));
  }
  if (spec.x == "alpha" && sweep) figure.marker_legend = "α = K/(2K−1)";
  if (ac) figure.alternate_legend = spec.alternate_legend;
  return line_figure(figure);
}

}  // namespace geomsim
