#pragma once
// A figure from a table of results (a sweep CSV, or any CSV of named columns): one column on x,
// one on y, one curve per value of a third column and one panel (facet) per value of a fourth,
// drawn by line_figure in the pages' style. `geomsim plot` and the alpha_spread pages draw
// their figures through it.
//
// Every point of the figure must be one row: where the chosen columns leave several rows for one
// (panel, curve, x), the table is refused, naming the column that varies and must be chosen
// (with curves, facets or a where filter). In a sweep CSV (its columns K, ny, d, alpha, tau and
// predicted_regime), a parameter that is neither x, curves nor facets must be fixed along each
// curve; those fixed in the whole figure are its subtitle, and those fixed per curve (d = K in
// a sweep over K) are named in the curve's legend entry. There, for y = spread or loss, the
// theory's prediction (experiments/sweep.hpp's predict) is drawn along x, and for x = alpha
// the threshold alpha = K/(2K-1).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/text_csv.hpp"

namespace geomsim {

struct TablePlotSpec {
  std::string x, y, curves, facets;  // column names; curves and facets may be empty
  std::vector<std::pair<std::string, std::string>> where;  // keep the rows whose COLUMN equals VALUE
  std::string title;                 // empty: "Y against X"
  bool theory = true;                // the theory's prediction, where the table has one
  bool logx = false;
  // A second column of y values drawn as open circles in each curve's colour where it differs
  // from y by more than alternate_tolerance (line_figure's LineCurve::alternate), with the legend
  // entry alternate_legend; empty: none. Rows whose alternate cell is empty draw nothing.
  std::string alternate, alternate_legend;
  double alternate_tolerance = 1e-4;
};

// Throws InvalidArgument: ("x", "y", "curves", "facets" or "where") for a column the table lacks
// (naming the file, the column and the columns it has) or a choice that repeats one; ("csv")
// naming the file and line for a value of x or y that is not a finite number, several rows for
// one point, a parameter that varies along a curve, or more curves or panels than a figure shows.
GnuplotFigure plot_table(const TextCsv& table, const TablePlotSpec& spec);

// The most panels one figure holds.
inline constexpr int kMaxFacets = 12;

}  // namespace geomsim
