#include "geomsim/figures/line_figure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

std::string num(double v) { return format_number(v); }

// The number of characters a label takes (UTF-8: continuation bytes do not count).
std::size_t characters(const std::string& text) {
  std::size_t n = 0;
  for (unsigned char c : text) n += (c & 0xc0) != 0x80 ? 1 : 0;
  return n;
}

// The theory's segments of two points or more (a lone point draws no line), gaps between them.
std::vector<std::vector<double>> drawable_theory(const std::vector<std::vector<double>>& rows) {
  std::vector<std::vector<double>> out, segment;
  const auto flush = [&] {
    if (segment.size() >= 2) {
      if (!out.empty()) out.emplace_back();
      out.insert(out.end(), segment.begin(), segment.end());
    }
    segment.clear();
  };
  for (const auto& row : rows) {
    if (row.size() >= 2) segment.push_back(row);
    else flush();
  }
  flush();
  return out;
}

}  // namespace

GnuplotFigure line_figure(const LineFigureSpec& spec) {
  const int panels = static_cast<int>(spec.panels.size());
  if (panels == 0) throw std::logic_error("line_figure: no panel");
  // What is drawn: the styles with measured points, and whether any theory or marker is.
  std::set<int> drawn;
  bool theory_drawn = false, markers_drawn = false, alternate_drawn = false;
  double x_lo = std::numeric_limits<double>::infinity(), x_hi = -x_lo, y_lo = x_lo, y_hi = -x_lo;
  const auto extend = [&](double x, double y) {
    if (!(std::abs(x) <= kMaxDrawnMagnitude && std::abs(y) <= kMaxDrawnMagnitude)) {
      throw std::logic_error("line_figure: the point (" + num(x) + ", " + num(y) + ") is beyond the +-" + num(kMaxDrawnMagnitude) +
                             " that gnuplot draws");
    }
    x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x), y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
  };
  for (const auto& panel : spec.panels) {
    for (const auto& curve : panel.curves) {
      if (curve.style < 1 || curve.style > kMaxLineCurves || static_cast<std::size_t>(curve.style) > spec.legend.size()) {
        throw std::logic_error("line_figure: curve style " + std::to_string(curve.style) + " has no legend entry");
      }
      if (!curve.errors.empty() && curve.errors.size() != curve.points.size()) {
        throw std::logic_error("line_figure: a curve of style " + std::to_string(curve.style) + " has " + std::to_string(curve.errors.size()) +
                               " error bars for " + std::to_string(curve.points.size()) + " points");
      }
      if (!curve.points.empty()) drawn.insert(curve.style);
      for (std::size_t i = 0; i < curve.points.size(); ++i) {
        const auto [x, y] = curve.points[i];
        const double e = curve.errors.empty() ? 0.0 : std::abs(curve.errors[i]);
        extend(x, y - e);
        extend(x, y + e);
      }
      if (!spec.alternate_legend.empty()) {
        for (const auto& [x, y] : curve.alternate) extend(x, y), alternate_drawn = true;
      }
      for (const auto& row : drawable_theory(curve.theory)) {
        if (row.size() >= 2) {
          theory_drawn = true;
          extend(row[0], row[1]);
        }
      }
    }
    markers_drawn = markers_drawn || (!panel.markers.empty() && !spec.marker_legend.empty());
  }
  if (drawn.empty()) throw std::logic_error("line_figure: no curve has points");
  if (spec.yrange) y_lo = spec.yrange->first, y_hi = spec.yrange->second;
  else {
    const double pad = y_hi > y_lo ? 0.05 * (y_hi - y_lo) : std::max(1e-3, 0.05 * std::abs(y_hi));
    y_lo -= pad, y_hi += pad;
  }
  if (!(x_hi > x_lo)) x_lo -= 0.5, x_hi += 0.5;
  // Markers with error bars, or scattered, at the ends of the x range would be cut in half: a margin.
  const bool bars = std::any_of(spec.panels.begin(), spec.panels.end(), [](const LinePanel& p) {
    return std::any_of(p.curves.begin(), p.curves.end(), [](const LineCurve& c) { return !c.errors.empty(); });
  });
  if (spec.scatter || bars) {
    if (spec.logx) x_lo /= 1.08, x_hi *= 1.08;
    else {
      const double pad = 0.03 * (x_hi - x_lo);
      x_lo -= pad, x_hi += pad;
    }
  }

  // The legend's width, in characters: its longest entry and the line sample.
  std::size_t longest = 0;
  for (int style : drawn) longest = std::max(longest, characters(spec.legend[static_cast<std::size_t>(style - 1)]));
  if (theory_drawn) longest = std::max(longest, characters(spec.theory_legend));
  if (markers_drawn) longest = std::max(longest, characters(spec.marker_legend));
  if (alternate_drawn) longest = std::max(longest, characters(spec.alternate_legend));

  const int entries = static_cast<int>(drawn.size()) + (theory_drawn ? 1 : 0) + (markers_drawn ? 1 : 0) + (alternate_drawn ? 1 : 0);

  GnuplotFigure fig(panels == 1 ? 900 : std::min(1800, 420 + 380 * panels), 540);
  fig.paper_sizes();
  int block = 0;
  // Screen fractions from the terminal's size: ch one line of text, cw one character. The legend
  // is a strip on the right, or, where that would take more than 30% of the width (a one-column
  // PDF), rows under the panels.
  fig.line("ch = 1.35 * gs_font / gs_height; cw = 0.62 * gs_font / gs_width");
  fig.line("at_least_1(x) = x < 1 ? 1 : x; at_least_2(x) = x < 2 ? 2 : x");
  fig.line("entry_w = " + std::to_string(longest + 13) + " * cw; key_below = entry_w > 0.3 ? 1 : 0");
  fig.line("key_cols = key_below ? at_least_1(floor((1 - 2 * cw) / entry_w)) : 1");
  fig.line("key_rows = key_below ? ceil(" + std::to_string(entries) + ".0 / key_cols) : 0");
  fig.line("key_w = key_below ? 0 : entry_w; left = 10.5 * cw; gap = 4.5 * cw");
  fig.line("panel_w = (1 - key_w - left - 2 * cw - " + std::to_string(panels - 1) + " * gap) / " + std::to_string(panels) + ".0");
  const bool heading = !spec.title.empty() || !spec.subtitle.empty();
  const bool panel_titles = std::any_of(spec.panels.begin(), spec.panels.end(), [](const LinePanel& p) { return !p.title.empty(); });
  fig.line("top = 1 - " + (heading ? GnuplotFigure::wrapped_lines(spec.title, spec.subtitle) : std::string("0")) + " * 1.2 * ch - 0.6 * ch" +
           (panel_titles ? " - 1.5 * ch" : "") + "; bottom = 3.7 * ch + key_rows * 1.25 * ch");
  fig.line("set multiplot" + (heading ? " title " + GnuplotFigure::wrapped_text(spec.title, spec.subtitle) : std::string()));
  fig.line("set tmargin at screen top; set bmargin at screen bottom");
  fig.line("set grid lt 1 lc rgb '#dddddd' lw 0.5");
  fig.line("set xrange [" + num(x_lo) + ":" + num(x_hi) + "]; set yrange [" + num(y_lo) + ":" + num(y_hi) + "]");
  // Tic steps from the room the panel has at this size: a label every 10 characters across and
  // every 2.5 lines up, rounded to 1, 2, 5 or 10 times a power of ten.
  fig.line("nice(x) = (nice_m = 10**floor(log10(x)), nice_f = x / nice_m, (nice_f < 1.5 ? 1 : nice_f < 3.5 ? 2 : nice_f < 7.5 ? 5 : 10) * nice_m)");
  if (spec.logx) fig.line("set logscale x 2");
  else {
    // Whole-number x (a dimension, a class count) gets whole-number tics.
    bool whole = true;
    for (const auto& panel : spec.panels) {
      for (const auto& curve : panel.curves) {
        for (const auto& point : curve.points) whole = whole && point.first == std::round(point.first);
      }
    }
    const std::string step = "nice(1.0 * " + num(x_hi - x_lo) + " / at_least_2(floor(panel_w / cw / 10)))";
    fig.line("set xtics " + (whole ? "at_least_1(" + step + ")" : step));
  }
  fig.line("set ytics nice(1.0 * " + num(y_hi - y_lo) + " / at_least_2(floor((top - bottom) / ch / 2.5)))");
  fig.line("set tics nomirror out; set border 3");
  // One x label under all the panels (drawn with the legend, below).
  fig.line("unset xlabel");
  for (int p = 0; p < panels; ++p) {
    const LinePanel& panel = spec.panels[static_cast<std::size_t>(p)];
    fig.line("set lmargin at screen left + " + std::to_string(p) + " * (panel_w + gap)");
    fig.line("set rmargin at screen left + " + std::to_string(p) + " * (panel_w + gap) + panel_w");
    if (p == 0) fig.line("set ylabel " + GnuplotFigure::text(spec.ylabel) + "; set format y '%g'");
    else fig.line("unset ylabel; set format y ''");
    if (!panel.title.empty()) fig.line("set title " + GnuplotFigure::text(panel.title) + " offset 0,-0.6");
    else fig.line("unset title");
    fig.line("unset arrow");
    for (const auto& m : panel.markers) {
      if (spec.marker_legend.empty()) break;
      fig.line("set arrow from " + num(m.x) + ", graph 0 to " + num(m.x) + ", graph 1 nohead dt 3 lw 1.2 lc rgb '" +
               (m.style > 0 ? GnuplotFigure::colour(m.style) : std::string("#666666")) + "'");
    }
    std::string plot;
    for (const auto& curve : panel.curves) {
      if (curve.points.empty()) continue;
      const std::string name = "c" + std::to_string(++block);
      std::vector<std::vector<double>> rows;
      for (std::size_t i = 0; i < curve.points.size(); ++i) {
        rows.push_back({curve.points[i].first, curve.points[i].second});
        if (!curve.errors.empty()) rows.back().push_back(std::abs(curve.errors[i]));
      }
      fig.datablock(name, rows);
      const std::string lt = " lt " + std::to_string(curve.style) + " lw 2";
      // Error bars: thin and solid (the curve's dash would break them up), under the curve.
      if (!curve.errors.empty()) {
        plot += (plot.empty() ? "" : ", ") + ("$" + name) + " using 1:2:3 with yerrorbars lt " + std::to_string(curve.style) + " lw 1 dt 1 ps 0 notitle";
      }
      plot += (plot.empty() ? "" : ", ") + ("$" + name);
      if (spec.scatter) plot += " using 1:2 with points" + lt + " notitle";
      else {
        // About a dozen markers per curve, so that dense grids stay readable.
        const std::size_t every = std::max<std::size_t>(1, (curve.points.size() + 11) / 12);
        plot += " using 1:2 with linespoints" + lt + " pi " + std::to_string(every) + " notitle";
      }
      const auto theory = drawable_theory(curve.theory);
      if (!theory.empty()) {
        const std::string t = "t" + std::to_string(block);
        fig.datablock(t, theory);
        plot += ", $" + t + " using 1:2 with lines lw 1 dt 1 lc rgb '" + GnuplotFigure::colour(curve.style) + "' notitle";
      }
      if (alternate_drawn && !curve.alternate.empty()) {
        const std::string a = "a" + std::to_string(block);
        std::vector<std::vector<double>> alternate;
        for (const auto& [x, y] : curve.alternate) alternate.push_back({x, y});
        fig.datablock(a, alternate);
        plot += ", $" + a + " using 1:2 with points pt 6 ps 1.3 lw 1.5 lc rgb '" + GnuplotFigure::colour(curve.style) + "' notitle";
      }
    }
    if (plot.empty()) plot = "NaN notitle";
    fig.line("plot " + plot);
  }
  // The legend, once, beside or under the panels: entries for what is drawn only.
  fig.line("unset title; unset arrow; unset grid; unset border; unset tics; unset xlabel; unset ylabel; unset logscale");
  fig.line("set xrange [0:1]; set yrange [0:1]");
  fig.line("set label 1 " + GnuplotFigure::text(spec.xlabel) + " at screen left + (1 - key_w - left) / 2, screen key_rows * 1.25 * ch + 0.75 * ch center");
  fig.line("if (key_below) {");
  fig.line("  set lmargin at screen 0; set rmargin at screen 1; set tmargin at screen 1; set bmargin at screen 0");
  fig.line("  set key at screen 0.5, screen 0.3 * ch center bottom horizontal maxcols key_cols Left reverse samplen 2.5 noautotitle");
  fig.line("} else {");
  fig.line("  set lmargin at screen 1 - key_w + cw; set rmargin at screen 1");
  fig.line("  set key at screen 1 - key_w + cw, screen top left top vertical Left reverse samplen 2.5 spacing 1.15 noautotitle");
  fig.line("}");
  std::string key;
  for (int style : drawn) {
    key += (key.empty() ? "" : ", ") + std::string(spec.scatter ? "NaN with points lt " : "NaN with linespoints lt ") + std::to_string(style) + " lw 2 title " +
           GnuplotFigure::text(spec.legend[static_cast<std::size_t>(style - 1)]);
  }
  if (theory_drawn) key += ", NaN with lines lw 1 dt 1 lc rgb '#444444' title " + GnuplotFigure::text(spec.theory_legend);
  if (markers_drawn) key += ", NaN with lines dt 3 lw 1.2 lc rgb '#666666' title " + GnuplotFigure::text(spec.marker_legend);
  if (alternate_drawn) key += ", NaN with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title " + GnuplotFigure::text(spec.alternate_legend);
  fig.line("plot " + key);
  fig.line("unset multiplot");
  return fig;
}

}  // namespace geomsim
