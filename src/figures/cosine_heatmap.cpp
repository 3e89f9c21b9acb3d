#include "geomsim/figures/cosine_heatmap.hpp"

#include <algorithm>
#include <iomanip>
#include <limits>
#include <sstream>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {

using nlohmann::json;

std::vector<std::string> figure_files(const std::string& stem) {
  GnuplotFigure figure(1, 1);
  figure.paper_sizes();
  std::vector<std::string> files = {stem + ".csv"};
  for (const auto& file : figure.files(stem)) files.push_back(file);
  return files;
}

Index write_cosine_heatmap(const std::string& stem, const Matrix& points, const std::vector<int>& labels,
                           const std::vector<int>& subclasses, Index max_points, std::uint64_t seed, const std::string& title,
                           const std::string& subtitle) {
  require_at_least("heatmap-points", max_points, 2);
  std::vector<Index> chosen(static_cast<std::size_t>(points.cols()));
  for (std::size_t k = 0; k < chosen.size(); ++k) chosen[k] = static_cast<Index>(k);
  if (points.cols() > max_points) {
    Rng rng(seed);
    rng.shuffle(chosen);
    chosen.resize(static_cast<std::size_t>(max_points));
    std::sort(chosen.begin(), chosen.end());
  }
  const auto n = static_cast<Index>(chosen.size());
  // The matrix, its CSV text (~25 bytes a cell) and gnuplot's copy of it.
  require_memory("heatmap-points", static_cast<double>(n) * static_cast<double>(n) * 80.0, "the cosine heat map of " + std::to_string(n) + " points");
  PointSet set;
  set.points.resize(points.rows(), n);
  for (Index k = 0; k < n; ++k) {
    const Index i = chosen[static_cast<std::size_t>(k)];
    set.points.col(k) = points.col(i);
    set.labels.push_back(labels[static_cast<std::size_t>(i)]);
    set.subclass_labels.push_back(subclasses[static_cast<std::size_t>(i)]);
  }
  const SortedCosineSimilarity sorted = cosine_similarity_by_class(set);
  std::ostringstream csv;
  csv << std::setprecision(std::numeric_limits<double>::max_digits10);
  csv << "index,class,subclass";
  for (Index b = 0; b < n; ++b) csv << ",p" << chosen[static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(b)])];
  csv << "\n";
  std::vector<std::vector<double>> rows;
  rows.reserve(static_cast<std::size_t>(n * (n + 1)));
  for (Index a = 0; a < n; ++a) {
    const auto k = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a)]);
    csv << chosen[k] << "," << set.labels[k] << "," << set.subclass_labels[k];
    for (Index b = 0; b < n; ++b) {
      csv << "," << sorted.matrix(a, b);
      rows.push_back({static_cast<double>(b), static_cast<double>(a), sorted.matrix(a, b)});
    }
    csv << "\n";
    rows.push_back({});
  }
  // The house style of the simulated heatmaps (sim_figures.cpp): the fixed settings in a
  // subtitle, the paper's PDFs beside the PNG and SVG.
  GnuplotFigure fig(680, 620);
  fig.paper_sizes();
  fig.datablock("m", rows);
  const double last = static_cast<double>(n) - 0.5;
  const std::string shown = std::to_string(n) + " points" +
                            (points.cols() > max_points ? " (a sample of " + std::to_string(points.cols()) + ", seed " + std::to_string(seed) + ")" : "");
  fig.line("set title " + GnuplotFigure::wrapped_text(title, subtitle + (subtitle.empty() ? "" : ", ") + shown));
  fig.line("set size ratio -1; set xrange [-0.5:" + format_number(last) + "]; set yrange [" + format_number(last) + ":-0.5]");
  fig.line("set xlabel 'point (sorted by class, then subclass)'; set ylabel 'point'");
  fig.line("set cbrange [-1:1]; set cblabel 'cosine similarity'");
  fig.line("set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')");
  // Black lines between classes, grey ones between the subclasses of a class.
  for (Index a = 1; a < n; ++a) {
    const auto k = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a)]);
    const auto previous = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a - 1)]);
    const bool new_class = set.labels[k] != set.labels[previous];
    if (!new_class && set.subclass_labels[k] == set.subclass_labels[previous]) continue;
    const std::string edge = format_number(static_cast<double>(a) - 0.5), colour = new_class ? "'black'" : "'grey50'";
    fig.line("set arrow from " + edge + ",-0.5 to " + edge + "," + format_number(last) + " nohead front lc " + colour);
    fig.line("set arrow from -0.5," + edge + " to " + format_number(last) + "," + edge + " nohead front lc " + colour);
  }
  fig.line("plot $m using 1:2:3 with image notitle");
  fig.render(stem);  // first: a gnuplot failure leaves no CSV behind either
  OutputTransaction outputs;
  outputs.stage(stem + ".csv", csv.str(), "out");
  outputs.commit();
  return n;
}

}  // namespace geomsim
