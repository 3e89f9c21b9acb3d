#include "geomsim/figures/embedding_heatmap.hpp"

#include <cmath>
#include <sstream>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

void draw_embedding_heatmap(const Matrix& points, const std::vector<int>& classes, const std::vector<int>& subclasses,
                            const std::string& title, const std::string& stem) {
  const auto n = static_cast<std::size_t>(points.cols());
  if (classes.size() != n || subclasses.size() != n || n == 0) {
    throw InvalidArgument("points", "need one class and one subclass label per point (N >= 1)");
  }
  PointSet set;
  set.points = points;
  set.labels = classes;
  set.subclass_labels = subclasses;
  const SortedCosineSimilarity sorted = cosine_similarity_by_class(set);
  const Index N = sorted.matrix.rows();
  std::string csv = "class,subclass";
  for (Index b = 0; b < N; ++b) csv += ",c" + std::to_string(b + 1);
  csv += "\n";
  std::vector<std::vector<double>> rows;
  for (Index a = 0; a < N; ++a) {
    const auto original = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a)]);
    csv += std::to_string(classes[original]) + "," + std::to_string(subclasses[original]);
    for (Index b = 0; b < N; ++b) {
      // 4 decimals: a heatmap's colours need no more, and the committed files stay small.
      const double value = std::round(sorted.matrix(a, b) * 1e4) / 1e4;
      rows.push_back({static_cast<double>(b), static_cast<double>(a), value});
      csv += "," + format_number(value);
    }
    rows.push_back({});
    csv += "\n";
  }
  const auto text = [](double v) {
    std::ostringstream out;
    out << v;
    return out.str();
  };
  const double last = static_cast<double>(N) - 0.5;
  GnuplotFigure fig(640, 580);
  fig.paper_sizes();  // the house style of the simulated heatmaps: the paper's PDFs beside the PNG
  fig.datablock("m", rows);
  fig.line("set title " + GnuplotFigure::wrapped_text(title));
  fig.line("set size ratio -1; set xrange [-0.5:" + text(last) + "]; set yrange [" + text(last) + ":-0.5]");
  fig.line("set xlabel 'test image (sorted by class, then subclass)'; set ylabel 'test image'");
  fig.line("set cbrange [-1:1]; set cblabel 'cosine similarity'");
  fig.line("set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')");
  for (Index a = 1; a < N; ++a) {
    const auto prev = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a - 1)]);
    const auto here = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a)]);
    const bool new_class = classes[prev] != classes[here];
    if (!new_class && subclasses[prev] == subclasses[here]) continue;
    const std::string edge = text(static_cast<double>(a) - 0.5);
    const std::string style = new_class ? " nohead front lc 'black' lw 1.5" : " nohead front lc 'black' dt 2";
    fig.line("set arrow from " + edge + ",-0.5 to " + edge + "," + text(last) + style);
    fig.line("set arrow from -0.5," + edge + " to " + text(last) + "," + edge + style);
  }
  fig.line("plot $m using 1:2:3 with image notitle");
  fig.render(stem);  // first: a gnuplot failure leaves no CSV behind either
  OutputTransaction out;
  out.stage(stem + ".csv", csv, "out");
  out.commit();
}

}  // namespace geomsim
