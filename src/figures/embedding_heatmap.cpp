#include "geomsim/figures/embedding_heatmap.hpp"

#include <cmath>
#include <sstream>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/text_csv.hpp"

namespace geomsim {

namespace {

// The figure of N points already sorted by class, then subclass: their labels and their cosines
// (cosines[a * N + b] = cos(a, b)).
GnuplotFigure heatmap_figure(const std::vector<int>& classes, const std::vector<int>& subclasses,
                             const std::vector<double>& cosines, const std::string& title) {
  const std::size_t N = classes.size();
  std::vector<std::vector<double>> rows;
  rows.reserve(N * (N + 1));
  for (std::size_t a = 0; a < N; ++a) {
    for (std::size_t b = 0; b < N; ++b) rows.push_back({static_cast<double>(b), static_cast<double>(a), cosines[a * N + b]});
    rows.push_back({});
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
  for (std::size_t a = 1; a < N; ++a) {
    const bool new_class = classes[a - 1] != classes[a];
    if (!new_class && subclasses[a - 1] == subclasses[a]) continue;
    const std::string edge = text(static_cast<double>(a) - 0.5);
    const std::string style = new_class ? " nohead front lc 'black' lw 1.5" : " nohead front lc 'black' dt 2";
    fig.line("set arrow from " + edge + ",-0.5 to " + edge + "," + text(last) + style);
    fig.line("set arrow from -0.5," + edge + " to " + text(last) + "," + edge + style);
  }
  fig.line("plot $m using 1:2:3 with image notitle");
  return fig;
}

}  // namespace

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
  std::vector<int> sorted_classes, sorted_subclasses;
  std::vector<double> cosines;
  cosines.reserve(static_cast<std::size_t>(N * N));
  for (Index a = 0; a < N; ++a) {
    const auto original = static_cast<std::size_t>(sorted.order[static_cast<std::size_t>(a)]);
    sorted_classes.push_back(classes[original]);
    sorted_subclasses.push_back(subclasses[original]);
    csv += std::to_string(classes[original]) + "," + std::to_string(subclasses[original]);
    for (Index b = 0; b < N; ++b) {
      // 4 decimals: a heatmap's colours need no more, and the committed files stay small.
      const double value = std::round(sorted.matrix(a, b) * 1e4) / 1e4;
      cosines.push_back(value);
      csv += "," + format_number(value);
    }
    csv += "\n";
  }
  // The figure first: a gnuplot failure leaves no CSV behind either.
  heatmap_figure(sorted_classes, sorted_subclasses, cosines, title).render(stem);
  OutputTransaction out;
  out.stage(stem + ".csv", csv, "out");
  out.commit();
}

void redraw_embedding_heatmap(const std::string& title, const std::string& stem) {
  const TextCsv table = read_text_csv(stem + ".csv", "out");
  const std::size_t N = table.rows.size();
  const auto refuse = [&](std::size_t line, const std::string& why) {
    throw InvalidArgument("out", "holds " + table.source + ", line " + std::to_string(line) + ": " + why);
  };
  if (table.header.size() != N + 2 || table.header[0] != "class" || table.header[1] != "subclass") {
    refuse(1, "the header must be class,subclass,c1..cN with one row per point (N = " + std::to_string(N) + ")");
  }
  for (std::size_t b = 0; b < N; ++b) {
    if (table.header[b + 2] != "c" + std::to_string(b + 1)) refuse(1, "column " + std::to_string(b + 3) + " must be c" + std::to_string(b + 1));
  }
  std::vector<int> classes, subclasses;
  std::vector<double> cosines;
  cosines.reserve(N * N);
  for (std::size_t a = 0; a < N; ++a) {
    const auto& row = table.rows[a];
    const std::size_t line = table.lines[a];
    const auto label = [&](const std::string& field, const char* name) {
      const auto value = field_number(field);
      if (!value || *value != std::floor(*value) || *value < 0 || *value > 1e6) {
        refuse(line, std::string(name) + " '" + field + "' is not a whole number in [0, 1e6]");
      }
      return static_cast<int>(*value);
    };
    classes.push_back(label(row[0], "class"));
    subclasses.push_back(label(row[1], "subclass"));
    for (std::size_t b = 0; b < N; ++b) {
      const auto value = field_number(row[b + 2]);
      if (!value || std::abs(*value) > 1.0) refuse(line, "c" + std::to_string(b + 1) + " '" + row[b + 2] + "' is not a cosine in [-1, 1]");
      cosines.push_back(*value);
    }
  }
  heatmap_figure(classes, subclasses, cosines, title).render(stem);
}

}  // namespace geomsim
