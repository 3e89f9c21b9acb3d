#pragma once
// A figure of curves y(x) in the house style, in one panel or in several side by side (facets,
// one per value of a parameter, sharing their axes' ranges), with one legend beside them:
//   - each curve (a line type 1-8: Okabe-Ito colour, dash and marker, gnuplot_figure.hpp) is
//     drawn with lines and markers (markers only in a scatter) and has one legend entry, the
//     same in every panel; a curve may carry error bars (a mean ± sd over seeds), thin and
//     solid, and the x range then has a margin so that the bars at its ends are whole;
//   - its theory, where there is one, is a thin solid line in the curve's colour, and the
//     legend has ONE entry for that style, not one per curve;
//   - vertical markers (a threshold such as alpha = K/(2K-1)) are dotted lines with one legend
//     entry, so that no label is drawn over a curve;
//   - a curve's second measurement (alternate) is open circles in its colour, with ONE legend
//     entry for that style;
//   - no legend entry for what is not drawn;
//   - the title, and under it a subtitle (the parameters that the figure holds fixed).
// The layout is computed from the terminal's size and font (gs_width, gs_height, gs_font), so it
// holds for the page's PNG and for the one- and two-column PDFs alike.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "geomsim/figures/gnuplot_figure.hpp"

namespace geomsim {

struct LineCurve {
  int style = 1;                                 // line type, 1-based; also its legend entry
  std::vector<std::pair<double, double>> points; // measured (x, y), in x order
  std::vector<double> errors;                    // empty, or the error bar (± this) of each point
  std::vector<std::vector<double>> theory;       // (x, y) rows; an empty row is a gap
  // A second measurement of the curve, drawn as open circles in its colour (without lines):
  // e.g. another solver's result, only where it differs.
  std::vector<std::pair<double, double>> alternate;
};

struct LineMarker {
  double x = 0.0;
  int style = 0;  // the colour of this curve's style, or 0 for grey
};

struct LinePanel {
  std::string title;  // empty for a figure of one panel
  std::vector<LineCurve> curves;
  std::vector<LineMarker> markers;
};

struct LineFigureSpec {
  std::string title, subtitle, xlabel, ylabel;
  std::vector<std::string> legend;  // legend[k - 1]: the entry of style k
  std::string theory_legend = "theory";
  std::string marker_legend;        // the markers' entry (they are drawn only with one)
  std::string alternate_legend;     // the open circles' entry (LineCurve::alternate; drawn only with one)
  std::optional<std::pair<double, double>> yrange;  // else the data's, with a margin
  bool logx = false;
  bool scatter = false;  // markers only: points that are not a sequence (one per subclass, say)
  std::vector<LinePanel> panels;
};

// The most curves a figure tells apart (the palette's size).
inline constexpr int kMaxLineCurves = 8;

// The largest magnitude of a value a figure draws. gnuplot refuses an axis range wider than half
// the largest double (about 8.99e307: "y axis range undefined or overflow", and then "undefined
// variable: inf"), and an axis spans its values plus a margin of 5% of their range on each side
// (line_figure): values within +-4e307 always fit. Callers refuse larger values as input errors.
inline constexpr double kMaxDrawnMagnitude = 4e307;

// The figure, sized for a page (900 px wide, wider with more panels), with paper_sizes() on.
// Throws std::logic_error for a style outside 1..kMaxLineCurves or without a legend entry, or
// for a curve whose errors are neither empty nor one per point, or for a value (a point, with its
// error bar, or the theory's) that is not finite or beyond +-kMaxDrawnMagnitude: the caller
// refuses such input first, naming where it came from.
GnuplotFigure line_figure(const LineFigureSpec& spec);

}  // namespace geomsim
