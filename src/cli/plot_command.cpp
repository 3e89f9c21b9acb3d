#include "plot_command.hpp"

#include <iostream>

#include "cli_support.hpp"
#include "geomsim/figures/table_plot.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/text_csv.hpp"

namespace geomsim::cli {

void add_plot_options(CLI::App& command, PlotOptions& o) {
  command.add_option("--csv", o.csv, "the CSV to draw: a sweep's (geomsim sweep --out) or any CSV of named columns")->required();
  command.add_option("--x", o.x, "the column on the x axis (numbers), e.g. alpha")->required();
  command.add_option("--y", o.y, "the column on the y axis (numbers), e.g. spread")->required();
  command.add_option("--curves", o.curves, "one curve per value of this column, e.g. K (at most 8)");
  command.add_option("--facets", o.facets, "one panel per value of this column, side by side in one figure, e.g. d (at most 12)");
  command.add_option("--where", o.where, "keep only the rows whose COLUMN equals VALUE (COLUMN=VALUE; repeat for several)");
  command.add_option("--title", o.title, "the figure's title (default: 'Y against X')");
  command.add_flag("--no-theory", o.no_theory, "leave out the theory's prediction (drawn for y = spread or loss of a sweep CSV)");
  command.add_flag("--logx", o.logx, "a logarithmic x axis (base 2)");
  command.add_option("--out", o.out, "output stem: writes STEM.png, STEM.svg, STEM.pdf (3.5 in wide), STEM-2col.pdf (7 in) and "
                                     "STEM.gp (the gnuplot script, data inline)")
      ->required()
      ->check(no_control_characters());
  command.footer(
      "Every point of the figure must be one row of the CSV: where the chosen columns leave several rows for one point, "
      "the plot is refused, naming the column that varies; choose it with --curves, --facets or --where. In a sweep CSV the "
      "parameters (K, ny, d, alpha, tau) that are none of x, curves and facets must be fixed along each curve: those fixed in "
      "the whole figure are its subtitle.");
}

int run_plot_command(const PlotOptions& o) {
  TablePlotSpec spec;
  spec.x = o.x, spec.y = o.y, spec.curves = o.curves, spec.facets = o.facets, spec.title = o.title;
  spec.theory = !o.no_theory;
  spec.logx = o.logx;
  for (const auto& filter : o.where) {
    const auto eq = filter.find('=');
    if (eq == std::string::npos || eq == 0) throw InvalidArgument("where", "must be COLUMN=VALUE, got '" + filter + "'");
    spec.where.emplace_back(filter.substr(0, eq), filter.substr(eq + 1));
  }
  // The outputs are named first, so that none is the input, before anything is read.
  GnuplotFigure sizes(1, 1);
  sizes.paper_sizes();
  std::vector<NamedPath> files{{"csv", o.csv}};
  for (const auto& path : sizes.files(o.out)) files.push_back({"out", path});
  require_distinct_files(files);
  for (const auto& path : sizes.files(o.out)) require_writable_path(path, "out");
  const TextCsv table = read_text_csv(o.csv, "csv");
  const GnuplotFigure figure = plot_table(table, spec);
  OutputTransaction outputs;
  figure.render(o.out, outputs);
  outputs.commit();
  std::string written;
  const auto paths = figure.files(o.out);
  for (std::size_t k = 0; k < paths.size(); ++k) written += (k == 0 ? "" : k + 1 == paths.size() ? " and " : ", ") + paths[k];
  std::cout << "geomsim plot: " << o.y << " against " << o.x << " from " << o.csv << " (" << table.rows.size()
            << " rows), written to " << written << "\n";
  return 0;
}

}  // namespace geomsim::cli
