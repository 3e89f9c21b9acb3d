#pragma once
// The trained spread s_f(y) against alpha beside the simulated optimum of the core, in the house
// style (figures/line_figure.hpp): the figure of `geomsim train-sweep` and of the trained_spread
// page. One curve for the trained encoder (mean ± sd over seeds where there are several), one
// for the simulated optimum, one flat line per reference method that has no alpha (SupCon), and
// the dotted threshold alpha = K/(2K-1) where it lies inside the swept range.
#include <string>
#include <utility>
#include <vector>

#include "geomsim/figures/gnuplot_figure.hpp"

namespace geomsim::train_experiments {

struct SpreadFigure {
  std::string title, subtitle;  // the subtitle: the settings the figure holds fixed
  int K = 2;                    // the classes: where the threshold K/(2K-1) goes
  std::vector<double> alphas;   // in any order
  std::string trained_legend;
  std::vector<double> trained;     // one per alpha (a mean over seeds)
  std::vector<double> trained_sd;  // empty, or one per alpha (error bars)
  std::string simulated_legend;
  std::vector<double> simulated;   // one per alpha
  std::vector<std::pair<std::string, double>> references;  // legend entry, spread (drawn flat over the alphas)
};

// The most reference methods the figure draws beside the two curves (the palette's size).
int max_spread_references();

// Throws std::logic_error for vectors of the wrong length or too many references.
GnuplotFigure spread_figure(const SpreadFigure& figure);

}  // namespace geomsim::train_experiments
