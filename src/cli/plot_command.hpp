#pragma once
// `geomsim plot`: a figure from a CSV one already has (a sweep's, or a page's in
// notebooks-export/): any column on x and y, one curve per value of a third, one panel per value
// of a fourth, in the pages' style (figures/table_plot.hpp), as PNG, SVG and PDF.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace geomsim::cli {

struct PlotOptions {
  std::string csv, x, y, curves, facets, title, out;
  std::vector<std::string> where;  // COLUMN=VALUE
  bool no_theory = false, logx = false;
};

void add_plot_options(CLI::App& command, PlotOptions& options);
int run_plot_command(const PlotOptions& options);

}  // namespace geomsim::cli
