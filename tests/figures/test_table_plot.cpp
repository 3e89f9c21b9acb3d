// geomsim plot's figures (issue 31): one curve per value of the curves' column in every panel,
// one legend, and the refusals of a table whose chosen columns leave several rows on a point;
// and the definitions that would draw several values of a parameter as one curve.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "geomsim/experiments/sweep.hpp"
#include "geomsim/figures/sim_figures.hpp"
#include "geomsim/figures/table_plot.hpp"
#include "scratch_folder.hpp"

using namespace geomsim;
using geomsim::testing::refusal;
using geomsim::testing::ScratchFolder;

namespace {
using geomsim::testing::file_bytes;

// A sweep CSV of made-up results (plot_table reads the columns, not how they were found).
std::string sweep_text(const std::vector<int>& Ks, const std::vector<int>& ds, const std::vector<double>& taus) {
  std::vector<SweepRow> rows;
  for (int K : Ks) {
    for (int d : ds) {
      for (double tau : taus) {
        for (double alpha : {0.6, 0.7, 0.8}) {
          SweepRow r;
          r.point = {K, 2, d, alpha, tau};
          r.seeds = "0";
          r.solver = "slsqp";
          r.spread = alpha - 0.6;
          r.geometry = "spread";
          r.atoms = "2|2";
          r.max_atoms = 2;
          r.prediction = predict(r.point);
          r.runs = r.converged_runs = 1;
          rows.push_back(r);
        }
      }
    }
  }
  return sweep_csv(rows);
}

std::size_t count(const std::string& text, const std::regex& pattern) {
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

}  // namespace

TEST_CASE("A sweep drawn by K in panels by d has one curve per K in each panel and one legend", "[figures][plot]") {
  ScratchFolder dir("table-plot");
  const TextCsv table = parse_text_csv(sweep_text({2, 3, 4, 5}, {3, 6}, {0.5}), "sweep.csv", "csv");
  TablePlotSpec spec;
  spec.x = "alpha", spec.y = "spread", spec.curves = "K", spec.facets = "d";
  const GnuplotFigure figure = plot_table(table, spec);
  REQUIRE(figure.has_paper_sizes());
  figure.render(dir("fig"));
  const std::string script = file_bytes(dir("fig.gp"));
  // Four images (PNG, SVG, two PDFs), each with 2 panels of 4 curves: 32 curves drawn.
  CHECK(count(script, std::regex("with linespoints lt [1-4] lw 2 pi \\d+ notitle")) == 32);
  // The legend: one entry per K, once per image; one for the theory; one for the thresholds.
  for (const char* entry : {"'K = 2'", "'K = 3'", "'K = 4'", "'K = 5'", "'theory'", "'α = K/(2K−1)'"}) {
    const std::string wanted = std::string("title ") + entry;
    std::size_t found = 0;
    for (auto at = script.find(wanted); at != std::string::npos; at = script.find(wanted, at + 1)) ++found;
    CHECK(found == 4);
  }
  CHECK(script.find("n_y = 2, τ = 0.5") != std::string::npos);
  for (const char* file : {"fig.png", "fig.svg", "fig.pdf", "fig-2col.pdf"}) CHECK(!file_bytes(dir(file)).empty());
}

TEST_CASE("A table whose chosen columns leave several rows on one point is refused, naming the column", "[figures][plot]") {
  TablePlotSpec spec;
  spec.x = "alpha", spec.y = "spread", spec.curves = "K";
  const TextCsv taus = parse_text_csv(sweep_text({2}, {3}, {0.5, 1}), "taus.csv", "csv");
  CHECK_THAT(refusal([&] { plot_table(taus, spec); }),
             Catch::Contains("--csv file taus.csv: the parameter tau varies on the curve K = 2") &&
                 Catch::Contains("choose it with --curves tau, --facets tau or --where tau=VALUE"));
  spec.where = {{"tau", "1.0"}};  // numbers compare as numbers
  CHECK(refusal([&] { plot_table(taus, spec); }).empty());

  const TextCsv repeated = parse_text_csv("a,b,c\n1,2,x\n1,3,y\n", "r.csv", "csv");
  TablePlotSpec generic;
  generic.x = "a", generic.y = "b";
  CHECK_THAT(refusal([&] { plot_table(repeated, generic); }),
             Catch::Contains("lines 2 and 3 both have a = 1; they differ in c: choose it with --curves c"));
  generic.curves = "c";
  CHECK(refusal([&] { plot_table(repeated, generic); }).empty());
  generic.y = "nope";
  CHECK(refusal([&] { plot_table(repeated, generic); }) == "--y names no column of r.csv: 'nope'; its columns are a, b, c");
}

TEST_CASE("A definition with a list where one value is expected is refused, naming file, definition and key", "[figures][sims]") {
  ScratchFolder dir("definition-lists");
  const auto definition = [&](const std::string& parameters) {
    std::ofstream(dir("d.json")) << R"({"name": "byk", "title": "t", "kind": "alpha_spread", "parameters": )" << parameters << "}";
    return dir("d.json");
  };
  const std::string path = definition(R"({"K": [2, 3, 4, 5], "ny": 2, "d": 5, "tau": 0.5, "alpha": [0.6], "curves": "d"})");
  CHECK_THAT(refusal([&] { load_sim_definition(path); }),
             Catch::StartsWith("--sim " + path + ": definition 'byk' (alpha_spread): parameter 'K' lists 4 values (2,3,4,5) where one is expected"));
  // Curves by K make the list legitimate; so do panels by K.
  CHECK(refusal([&] { load_sim_definition(definition(R"({"K": [2, 3], "ny": 2, "d": 5, "tau": 0.5, "alpha": [0.6], "curves": "K"})")); }).empty());
  CHECK(refusal([&] { load_sim_definition(definition(R"({"K": [2, 3], "ny": 2, "d": [4, 5], "tau": 0.5, "alpha": [0.6], "facets": "K"})")); }).empty());
  // A tau list in a phase diagram is its y axis; a K list is refused there.
  std::ofstream(dir("p.json")) << R"({"name": "ph", "title": "t", "kind": "phase_diagram",
      "parameters": {"K": "2:3:1", "ny": 2, "d": 2, "tau": [0.5, 1], "alpha": [0.6]}})";
  CHECK_THAT(refusal([&] { load_sim_definition(dir("p.json")); }),
             Catch::Contains("definition 'ph' (phase_diagram): parameter 'K' lists 2 values (2:3:1) where one is expected; in "
                             "phase_diagram only \"alpha\", \"tau\" may list several"));
  // The smoke grid is checked too.
  std::ofstream(dir("s.json")) << R"({"name": "sm", "title": "t", "kind": "point_sets",
      "parameters": {"K": 2, "ny": 2, "d": 2, "tau": 0.5, "alpha": [0.6]}, "smoke": {"ny": [2, 4]}})";
  CHECK_THAT(refusal([&] { load_sim_definition(dir("s.json")); }),
             Catch::Contains("definition 'sm' (point_sets) with its smoke grid: parameter 'ny' lists 2 values"));
}

TEST_CASE("A second column of y is drawn as open circles where it differs, with one legend entry", "[figures][plot]") {
  ScratchFolder dir("table-plot-alternate");
  // Curve c = 1 differs at x = 2 only (by more than the tolerance); c = 2 nowhere (1e-6 is within it).
  const TextCsv table = parse_text_csv("x,y,alt,c\n1,0.5,0.5,1\n2,0.5,1,1\n1,0.2,0.200001,2\n2,0.3,,2\n", "a.csv", "csv");
  TablePlotSpec spec;
  spec.x = "x", spec.y = "y", spec.curves = "c";
  spec.alternate = "alt", spec.alternate_legend = "other solver";
  plot_table(table, spec).render(dir("fig"));
  const std::string script = file_bytes(dir("fig.gp"));
  // Four images, one datablock of open circles each (curve 1's), one legend entry each.
  CHECK(count(script, std::regex("with points pt 6 ps 1.3 lw 1.5 lc rgb '#[0-9a-f]{6}' notitle")) == 4);
  CHECK(count(script, std::regex("title 'other solver'")) == 4);
  CHECK(script.find("2 1\n") != std::string::npos);  // the differing point (x = 2, alt = 1)
  // Without a legend entry no circles are drawn; an unknown column is refused by name.
  spec.alternate_legend.clear();
  plot_table(table, spec).render(dir("plain"));
  CHECK(file_bytes(dir("plain.gp")).find("with points pt 6 ps 1.3") == std::string::npos);
  spec.alternate = "nope";
  CHECK_THAT(refusal([&] { plot_table(table, spec); }), Catch::Contains("--alternate names no column of a.csv: 'nope'"));
}

TEST_CASE("A value beyond what gnuplot draws is refused, naming the file, the line and the column", "[figures][plot]") {
  TablePlotSpec spec;
  spec.x = "a", spec.y = "b";
  // +-1e308 are finite, but no axis holds them: gnuplot refuses ranges wider than about 9e307.
  for (const char* value : {"1e308", "-1e308", "4.0000001e307", "1.7976931348623157e308"}) {
    CAPTURE(value);
    const TextCsv table = parse_text_csv(std::string("a,b\n1,2\n2,") + value + "\n", "big.csv", "csv");
    CHECK(refusal([&] { plot_table(table, spec); }) ==
          std::string("--csv file big.csv line 3: column b holds ") + value +
              ", beyond the +-4e+307 a figure can draw (gnuplot refuses an axis range wider than about 9e307)");
  }
  const TextCsv x = parse_text_csv("a,b\n1,2\n-1e308,3\n", "bigx.csv", "csv");
  CHECK_THAT(refusal([&] { plot_table(x, spec); }), Catch::StartsWith("--csv file bigx.csv line 3: column a holds -1e308, beyond"));
  // The largest magnitude allowed, at both ends of one axis, still makes a figure.
  const TextCsv edge = parse_text_csv("a,b\n1,-4e307\n2,4e307\n", "edge.csv", "csv");
  CHECK(refusal([&] { plot_table(edge, spec); }).empty());
}

TEST_CASE("A sweep CSV whose parameter is not a sweep's is refused, naming the file, the line and the column", "[figures][plot]") {
  TablePlotSpec spec;
  spec.x = "alpha", spec.y = "spread", spec.curves = "K";
  const std::string text = sweep_text({2, 3}, {3}, {0.5});
  // The field of one column of the row on `line` (1: the header) replaced by `value`.
  const auto damaged = [&](int line, const std::string& column, const std::string& value) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    std::vector<std::string> header;
    std::istringstream h(lines[0]);
    for (std::string f; std::getline(h, f, ',');) header.push_back(f);
    const auto c = static_cast<std::size_t>(std::find(header.begin(), header.end(), column) - header.begin());
    std::vector<std::string> fields;
    std::istringstream r(lines[static_cast<std::size_t>(line - 1)]);
    for (std::string f; std::getline(r, f, ',');) fields.push_back(f);
    fields[c] = value;
    std::string row;
    for (std::size_t k = 0; k < fields.size(); ++k) row += (k ? "," : "") + fields[k];
    lines[static_cast<std::size_t>(line - 1)] = row;
    std::string out;
    for (const auto& l : lines) out += l + "\n";
    return parse_text_csv(out, "s.csv", "csv");
  };
  // A word where K was read as an empty optional: "--K must be >= 2, got 0" (and tau a garbage 4.68e-310).
  spec.curves = "";
  spec.where = {{"K", "2"}};
  CHECK_THAT(refusal([&] { plot_table(damaged(2, "tau", "x"), spec); }),
             Catch::StartsWith("--csv file s.csv line 2: column tau holds 'x', not a finite number > 0; it has a sweep CSV's columns"));
  spec.where.clear();
  spec.curves = "ny";
  CHECK_THAT(refusal([&] { plot_table(damaged(3, "K", "two"), spec); }),
             Catch::StartsWith("--csv file s.csv line 3: column K holds 'two', not a whole number >= 2"));
  for (const char* K : {"1", "2.5", "1e300", "-3"}) {
    CAPTURE(K);
    CHECK_THAT(refusal([&] { plot_table(damaged(4, "K", K), spec); }),
               Catch::StartsWith("--csv file s.csv line 4: column K holds '" + std::string(K) + "', not a whole number >= 2"));
  }
  CHECK_THAT(refusal([&] { plot_table(damaged(2, "alpha", "1.5"), spec); }), Catch::Contains("column alpha holds '1.5', not a number in [0, 1]"));
  // Without the theory and with x other than alpha, nothing is predicted: the parameters are not needed.
  spec.x = "tau", spec.y = "loss", spec.curves = "alpha", spec.theory = false;
  spec.where = {{"K", "3"}};
  CHECK(refusal([&] { plot_table(damaged(5, "ny", "many"), spec); }).empty());
}

TEST_CASE("A definition named README, in any case, is refused: the report's index is README.md", "[figures][sims]") {
  ScratchFolder dir("definition-readme");
  for (const char* name : {"README", "readme", "ReadMe"}) {
    CAPTURE(name);
    std::ofstream(dir("r.json")) << R"({"name": ")" << name
                                 << R"(", "title": "t", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]}})";
    CHECK(refusal([&] { load_sim_definition(dir("r.json")); }) ==
          "--sim " + dir("r.json") + ": \"name\" must not be " + name +
              ": geomsim report writes its index to README.md beside the pages (NAME.md), which this page would overwrite; "
              "rename the definition");
  }
  std::ofstream(dir("r.json")) << R"({"name": "README-2", "title": "t", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2, 3]}})";
  CHECK(refusal([&] { load_sim_definition(dir("r.json")); }).empty());
}
