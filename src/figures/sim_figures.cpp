#include "geomsim/figures/sim_figures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/figures/table_plot.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/support/text_csv.hpp"
#include "geomsim/theory/symmetric_split.hpp"

namespace geomsim {
namespace {

using nlohmann::json;

// Spread at or above this counts as "uniform-like": the class mean is at the origin.
constexpr double kUniformSpread = 0.99;
// Spread above this counts as "spread at all" (the optimizer places atoms to ~1e-6).
constexpr double kOnsetSpread = 1e-3;

std::string fmt(double v, int digits = 4) {
  std::ostringstream out;
  out.precision(digits);
  out << v;
  return out.str();
}

std::string category(const SweepRow& r) {
  if (r.geometry == "collapsed") return "collapsed";
  if (r.geometry == "atoms") return r.max_atoms == 2 ? "two atoms" : "several atoms";
  return r.spread >= kUniformSpread ? "uniform-like" : "continuous";
}

// A markdown table cell: '|' would end the cell.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// Whether the optimum is what the theory predicts: collapse, the split (two atoms at the
// predicted spread, to 1e-4) or a uniform-like spread. Only for rows with a prediction.
bool agrees_with_theory(const SweepRow& r) {
  const std::string c = category(r);
  const std::string& regime = r.prediction.regime;
  if (regime == "collapsed") return c == "collapsed";
  if (regime == "split") return c == "two atoms" && r.prediction.spread && std::abs(r.spread - *r.prediction.spread) < 1e-4;
  if (regime == "uniform") return c == "uniform-like";
  return false;
}

// What a page that ran the paper's method beside the default solve says about the two: where the
// best known optimum came from, and where the paper's method ended above it.
std::string paper_method_summary(const std::vector<BestKnownRow>& rows, const std::string& seeds) {
  std::size_t from_default = 0, from_prediction = 0, other_geometry = 0, split_points = 0, split_missed = 0;
  const BestKnownRow* worst = nullptr;
  for (const auto& r : rows) {
    from_default += r.source == "default_solve" ? 1 : 0;
    from_prediction += r.source == "predicted_start" ? 1 : 0;
    other_geometry += category(r.paper_method) != category(r.best) ? 1 : 0;
    if (r.best.prediction.regime == "split" && r.best.prediction.loss) {
      ++split_points;
      split_missed += r.paper_method.loss > *r.best.prediction.loss + kBestKnownTie ? 1 : 0;
    }
    if (r.source != "paper_method" && (!worst || r.paper_method.loss - r.best.loss > worst->paper_method.loss - worst->best.loss)) worst = &r;
  }
  std::ostringstream md;
  md << "Every point is the best known optimum: the lowest loss of the paper's method (SLSQP, best of seeds " << seeds
     << ", no restarts), the default solve (RLBFGS, seeds 0:4 and its restarts) and, where the theory predicts the split, a "
        "solve started from the split itself (columns best_of and paper_method_* of the CSV). The paper's method reached it "
        "(to 1e-9) at "
     << rows.size() - from_default - from_prediction << " of " << rows.size() << " points; the default solve was lower at "
     << from_default << ", the start from the split at " << from_prediction << ".";
  if (worst) {
    md << " Where it missed, the paper's method ended above the best known loss by up to " << fmt(worst->paper_method.loss - worst->best.loss)
       << " (" << worst->best.point.key() << ": " << fmt(worst->paper_method.loss, 6) << ", " << category(worst->paper_method)
       << ", against " << fmt(worst->best.loss, 6) << ", " << category(worst->best) << ")";
    md << "; its geometry differs from the best known at " << other_geometry << " points";
    if (split_points) md << ", and it is above the split's loss at " << split_missed << " of the " << split_points << " points where the split is predicted";
    md << ".";
  }
  return md.str() + "\n";
}

std::string header_lines(const std::string& name, const std::string& extra = "") {
  return "![" + name + "](" + name + ".png)\n\nData: [" + name + ".csv](" + name + ".csv) · vector: [" + name +
         ".svg](" + name + ".svg) · PDF: [one column](" + name + ".pdf), [two columns](" + name + "-2col.pdf) · gnuplot script: [" +
         name + ".gp](" + name + ".gp)" + extra + "\n\n";
}

// ---------------------------------------------------------------------------------------
// A sweep parameter of a row by its name in the definitions (K, ny, d, tau).
double parameter_of(const SweepRow& r, const std::string& name) {
  if (name == "K") return r.point.K;
  if (name == "ny") return r.point.ny;
  if (name == "d") return r.point.d;
  return r.point.tau;
}

std::string parameter_label(const std::string& name, double value) {
  return (name == "tau" ? std::string("τ") : name == "ny" ? std::string("n_y") : name) + " = " + fmt(value);
}

std::string alpha_spread(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const std::vector<SweepRow>& rows = data.rows;
  const std::vector<BestKnownRow>& best_known = data.best_known;
  const std::string& seeds = data.seeds;
  const json& p = data.parameters;
  std::map<std::string, const BestKnownRow*> known;
  for (const auto& r : best_known) known.emplace(r.best.point.key(), &r);
  // "curves" and "facets" were checked with the definition (SimKind::list_rule).
  const std::string by = parameter_text(p, "curves", "d", "d");
  const std::string facets = parameter_text(p, "facets", "", "K");
  TablePlotSpec spec;
  spec.x = "alpha", spec.y = "spread", spec.curves = by, spec.facets = facets, spec.title = def.title;
  if (!best_known.empty()) {  // the paper's method's spread where it differs from the best known
    spec.alternate = "paper_method_spread";
    spec.alternate_legend = "paper's SLSQP";
  }
  plot_table(parse_text_csv(best_known.empty() ? sweep_csv(rows) : best_known_csv(best_known), stem + ".csv", "sim"), spec).render(stem, outputs);

  // One column per (panel, curve).
  using Column = std::pair<double, double>;
  std::map<Column, std::vector<const SweepRow*>> curves;
  for (const auto& r : rows) curves[{facets.empty() ? 0.0 : parameter_of(r, facets), parameter_of(r, by)}].push_back(&r);
  const auto column_label = [&](const Column& c) {
    return (facets.empty() ? std::string() : parameter_label(facets, c.first) + ", ") + parameter_label(by, c.second);
  };
  std::ostringstream md;
  md << "| α |";
  for (const auto& [value, members] : curves) md << " " << column_label(value) << " |";
  md << "\n|---|";
  for (std::size_t c = 0; c < curves.size(); ++c) md << "---|";
  md << "\n";
  std::map<double, std::map<Column, const SweepRow*>> table;
  for (const auto& [value, members] : curves) {
    for (const auto* r : members) table[r->point.alpha][value] = r;
  }
  for (const auto& [alpha, cells] : table) {
    md << "| " << fmt(alpha) << " |";
    for (const auto& [value, members] : curves) {
      const auto it = cells.find(value);
      if (it == cells.end()) {
        md << " |";
        continue;
      }
      const SweepRow& r = *it->second;
      md << " " << fmt(r.spread) << " " << category(r);
      if (r.prediction.spread) {
        md << (agrees_with_theory(r) ? " ✓" : " (theory: " + r.prediction.regime + " " + fmt(*r.prediction.spread) + ")");
      }
      if (const auto k = known.find(r.point.key()); k != known.end() && k->second->source != "paper_method") {
        const SweepRow& paper = k->second->paper_method;
        md << " [paper's method: " << fmt(paper.spread) << " " << category(paper) << ", loss +" << fmt(paper.loss - r.loss, 3) << "]";
      }
      md << " |";
    }
    md << "\n";
  }
  return header_lines(def.name) + "Spread of the optimum (seeds " + seeds + ") and its geometry; ✓ where the theory predicts it (collapse, the "
                                  "split at its spread to 1e-4, or uniform), otherwise the prediction in brackets; no mark where the theory has none" +
         (best_known.empty() ? std::string() : "; [paper's method: …] where the paper's method ended higher, with its spread, geometry and excess loss") +
         ":\n\n" + md.str() + (best_known.empty() ? std::string() : "\n" + paper_method_summary(best_known, seeds));
}

// ---------------------------------------------------------------------------------------
// c_threshold: data.thresholds holds one row per tau, per d, in the order of the definition's lists.
std::string c_threshold_figure(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const auto taus = parameter_numbers(data.parameters, "tau");
  const auto ds = parameter_integers(data.parameters, "d", 2);
  GnuplotFigure fig(900, 560);
  fig.paper_sizes(true, 3.6);  // its seven key entries go under the plot in one column
  std::string plot = "plot ";
  std::ostringstream md;
  md << "| τ | c(τ,d) > 2/3 for all d | c at d = " << ds.front() << " | c at d = " << ds.back()
     << " | exact end − c at d = " << ds.front() << " |\n|---|---|---|---|---|\n";
  int k = 0;
  bool any_exact = false;
  double lo = 2.0 / 3.0, hi = lo;  // the range of c, for the tics
  for (double tau : taus) {
    const ThresholdRow* row = &data.thresholds[static_cast<std::size_t>(k) * ds.size()];
    const ThresholdRow* first = row;
    ++k;
    std::vector<std::vector<double>> c_rows, exact_rows;
    bool all_above = true;
    for (std::size_t i = 0; i < ds.size(); ++i, ++row) {
      const auto& c = row->c;
      if (c) c_rows.push_back({static_cast<double>(row->d), *c});
      if (c) lo = std::min(lo, *c), hi = std::max(hi, *c);
      if (row->exact) exact_rows.push_back({static_cast<double>(row->d), *row->exact});
      all_above = all_above && c && *c > 2.0 / 3.0;
    }
    const ThresholdRow* last = row - 1;
    // c(τ,d) in the curve's line type (colour and dash); the exact end thin and solid in its
    // colour, with one legend entry for that style (added below), none for an empty block.
    if (!c_rows.empty()) {
      fig.datablock("c" + std::to_string(k), c_rows);
      plot += std::string(plot == "plot " ? "" : ", ") + "$c" + std::to_string(k) + " using 1:2 with lines lt " + std::to_string(k) +
              " lw 2 title 'c(τ,d), τ = " + fmt(tau) + "'";
    }
    if (!exact_rows.empty()) {
      any_exact = true;
      fig.datablock("x" + std::to_string(k), exact_rows);
      plot += std::string(plot == "plot " ? "" : ", ") + "$x" + std::to_string(k) + " using 1:2 with lines lw 1 dt 1 lc rgb '" +
              GnuplotFigure::colour(k) + "' notitle";
    }
    const auto c0 = first->c, c1 = last->c;
    const auto x0 = first->exact;
    md << "| " << fmt(tau) << " | " << (all_above ? "yes" : "**no**") << " | " << (c0 ? fmt(*c0, 7) : "undefined")
       << " | " << (c1 ? fmt(*c1, 7) : "undefined") << " | " << (c0 && x0 ? fmt(*x0 - *c0, 3) : "") << " |\n";
  }
  fig.line("set title " + GnuplotFigure::wrapped_text(def.title));
  fig.line("set xlabel 'dimension d (log scale)'");
  fig.line("set ylabel 'upper end of the α window'");
  fig.line("set logscale x 2");
  fig.tics("y", hi - lo, 0.5);
  fig.key("inside top right Left reverse samplen 2.5", 2);  // the curves fall away from that corner
  fig.line("set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3");
  if (any_exact) plot += ", NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)'";
  fig.line(plot + ", 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'");
  fig.render(stem, outputs);
  return header_lines(def.name, " · thick: c(τ,d) as Theorem 2 states it; thin: the exact end, L(µθ*) = L(σ)") + md.str();
}

// ---------------------------------------------------------------------------------------
// What a page that draws points says of the paper's method beside the best known optimum drawn.
std::string paper_method_cell(const SolvedSet& set) {
  if (!set.paper) return "—";
  if (set.solved.source == "paper_method") return "reached it";
  const SpreadSolution& p = set.solved.paper_method;
  return cell(p.geometry.describe()) + ", loss " + fmt(p.loss, 12) + " (+" + fmt(p.loss - set.solved.best.loss, 4) + ")";
}

// How a page that draws points names its solves (seeds: the definition's).
std::string drawn_optimum_text(bool paper, const std::string& seeds) {
  if (!paper) return "seeds " + seeds;
  return "the best known optimum: the lowest of the paper's method (SLSQP, best of seeds " + seeds +
         "), the default solve (RLBFGS with its restarts, seeds 0:4) and, where the split is predicted, a solve started from "
         "it (best of), with the paper's method's own result beside it";
}

// The points of one solution as drawn, each pushed outwards by its rank within its atom so that
// stacked points stay visible, with its class + 1 (its line type) last.
std::vector<std::vector<double>> drawn_points(const SpreadSolution& solution) {
  const Matrix& U = solution.points.points;
  std::map<std::pair<int, int>, int> rank;
  std::vector<std::vector<double>> drawn;
  for (Index i = 0; i < U.cols(); ++i) {
    const int y = solution.points.labels[static_cast<std::size_t>(i)];
    const double r = 1.0 + 0.035 * rank[{y, atom_of_point(solution, i)}]++;
    std::vector<double> row;
    for (Index k = 0; k < U.rows(); ++k) row.push_back(r * U(k, i));
    row.push_back(y + 1);
    drawn.push_back(row);
  }
  return drawn;
}

std::string point_sets(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const std::vector<SolvedSet>& sets = data.sets;
  const SpreadProblem& problem = sets.front().solved.best.problem;  // one K, n_y, d and tau for every alpha
  const int K = problem.K, ny = problem.ny, d = problem.d;
  const double tau = problem.tau;
  GnuplotFigure fig(420 * static_cast<int>(sets.size()), 480);
  fig.paper_sizes(true, 1.7);  // a row of spheres: not much higher than wide panels need
  const std::string fixed = "K = " + std::to_string(K) + ", n_y = " + std::to_string(ny) + ", d = " + std::to_string(d) + ", τ = " + fmt(tau);
  fig.line("set multiplot layout 1," + std::to_string(sets.size()) + " title " + GnuplotFigure::wrapped_text(def.title, fixed));
  fig.line("unset key; set border 0; unset xtics; unset ytics; unset ztics");
  // Class y is drawn in line type y + 1: the house palette (Okabe-Ito).
  std::ostringstream md;
  md << "| α | geometry | spread | loss | best of | the paper's method | prediction |\n|---|---|---|---|---|---|---|\n";
  int panel = 0;
  for (const auto& set : sets) {
    ++panel;
    fig.datablock("p" + std::to_string(panel), drawn_points(set.solved.best));
    const std::string caption = "α = " + fmt(set.alpha) + ": " + to_string(set.solved.best.geometry.kind);
    fig.line("set title " + GnuplotFigure::text(caption));
    if (d == 2) {
      fig.line("set size ratio -1; set xrange [-1.7:1.7]; set yrange [-1.7:1.7]");
      fig.line("set samples 361");
      fig.line("plot sample [t=0:2*pi] '+' using (cos($1)):(sin($1)) with lines lc 'gray60' notitle, "
               "$p" + std::to_string(panel) + " using 1:2:3 with points pt 7 ps 1.0 lc variable notitle");
    } else {
      // No hidden-line removal: points on the far side stay visible through the wireframe.
      fig.line("set view equal xyz; set view 60,30,1.7; set xrange [-1.3:1.3]; set yrange [-1.3:1.3]; set zrange [-1.3:1.3]");
      fig.line("set parametric; set urange [0:2*pi]; set vrange [-pi/2:pi/2]; set isosamples 13,9");
      fig.line("splot cos(u)*cos(v),sin(u)*cos(v),sin(v) with lines lc 'gray85' notitle, $p" + std::to_string(panel) +
               " using 1:2:3:4 with points pt 7 ps 1.0 lc variable notitle");
      fig.line("unset parametric");
    }
    const SweepPrediction pr = predict({K, ny, d, set.alpha, tau});
    const SpreadSolution& best = set.solved.best;
    md << "| " << fmt(set.alpha) << " | " << cell(best.geometry.describe()) << " | " << fmt(best.spread.mean, 8) << " | "
       << fmt(best.loss, 12) << " | " << set.solved.source << " | " << paper_method_cell(set) << " | " << pr.regime
       << (pr.spread ? " (spread " + fmt(*pr.spread, 8) + ")" : std::string()) << " |\n";
  }
  fig.line("unset multiplot");
  fig.render(stem, outputs);
  return header_lines(def.name, " · one colour per class; the points of one atom are drawn stacked outwards") + "K = " + std::to_string(K) +
         ", n_y = " + std::to_string(ny) + ", τ = " + fmt(tau) + ", " + drawn_optimum_text(sets.front().paper, data.seeds) +
         (sets.front().paper ? " (its points: the CSV's rows with solve = paper_method)" : "") + ":\n\n" + md.str();
}

// ---------------------------------------------------------------------------------------
std::string cosine_heatmap(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const SolvedSet& solved = data.sets.front();
  const SpreadSolution& s = solved.solved.best;
  const int K = s.problem.K, ny = s.problem.ny, d = s.problem.d;
  const double tau = s.problem.tau, alpha = s.problem.alpha;
  std::vector<std::vector<double>> rows;
  const Index N = data.matrix.rows();
  const double last = static_cast<double>(N) - 0.5;
  for (Index a = 0; a < N; ++a) {
    for (Index b = 0; b < N; ++b) rows.push_back({static_cast<double>(b), static_cast<double>(a), data.matrix(a, b)});
    rows.push_back({});
  }
  GnuplotFigure fig(620, 580);
  fig.paper_sizes();
  fig.datablock("m", rows);
  fig.line("set title " + GnuplotFigure::wrapped_text(def.title, "K = " + std::to_string(K) + ", n_y = " + std::to_string(ny) + ", d = " +
                                                                     std::to_string(d) + ", τ = " + fmt(tau) + ", α = " + fmt(alpha) + ": " +
                                                                     to_string(s.geometry.kind)));
  fig.line("set size ratio -1; set xrange [-0.5:" + fmt(last) + "]; set yrange [" + fmt(last) + ":-0.5]");
  fig.line("set xlabel 'point (sorted by class, then atom)'; set ylabel 'point'");
  fig.line("set cbrange [-1:1]; set cblabel 'cosine similarity'");
  fig.line("set palette defined (-1 '#2166ac', 0 '#f7f7f7', 1 '#b2182b')");
  for (int y = 1; y < K; ++y) {
    const double edge = y * ny - 0.5;
    fig.line("set arrow from " + fmt(edge) + ",-0.5 to " + fmt(edge) + "," + fmt(last) + " nohead front lc 'black'");
    fig.line("set arrow from -0.5," + fmt(edge) + " to " + fmt(last) + "," + fmt(edge) + " nohead front lc 'black'");
  }
  fig.line("plot $m using 1:2:3 with image notitle");
  fig.render(stem, outputs);
  return header_lines(def.name) + "K = " + std::to_string(K) + ", n_y = " + std::to_string(ny) + ", d = " + std::to_string(d) +
         ", τ = " + fmt(tau) + ", α = " + fmt(alpha) + ", " + drawn_optimum_text(solved.paper, data.seeds) + ": " +
         cell(s.geometry.describe()) + ", spread " + fmt(s.spread.mean, 6) + ", loss " + fmt(s.loss, 12) + " (best of: " +
         solved.solved.source + "; the paper's method: " + paper_method_cell(solved) + "). Black lines separate the classes.\n";
}

// ---------------------------------------------------------------------------------------
std::string phase_diagram(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const std::vector<SweepRow>& rows = data.rows;
  const std::vector<BestKnownRow>& best_known = data.best_known;
  const int K = rows.front().point.K, d = rows.front().point.d;
  // Where the paper's method found another geometry than the best known: ringed in the figure.
  std::vector<std::vector<double>> paper_differs;
  for (const auto& r : best_known) {
    if (category(r.paper_method) != category(r.best)) paper_differs.push_back({r.best.point.alpha, r.best.point.tau});
  }
  const std::vector<std::string> order{"collapsed", "two atoms", "several atoms", "continuous", "uniform-like"};
  std::map<std::string, std::vector<std::vector<double>>> by_category;
  std::map<std::string, int> counts;
  std::size_t agree = 0, predicted = 0;
  for (const auto& r : rows) {
    const std::string c = category(r);
    by_category[c].push_back({r.point.alpha, r.point.tau});
    ++counts[c];
    if (r.prediction.spread) {
      ++predicted;
      agree += agrees_with_theory(r) ? 1 : 0;
    }
  }
  const auto taus = parameter_numbers(data.parameters, "tau");
  std::vector<std::vector<double>> window;
  if (d >= K) {
    const SymmetricSplit split(K);
    for (double t = *std::min_element(taus.begin(), taus.end()); t <= *std::max_element(taus.begin(), taus.end()) + 1e-12;
         t += 0.01) {
      if (const auto end = split.exact_crossover(t, d)) window.push_back({*end, t});
    }
  }
  GnuplotFigure fig(900, 600);
  fig.paper_sizes(true, 3.8);  // its key goes under the plot in one column
  std::string plot = "plot ";
  // Okabe-Ito colours, and a marker of its own for each geometry (told apart without colour too).
  const std::map<std::string, std::string> colour{{"collapsed", "#000000"},
                                                  {"two atoms", "#0072b2"},
                                                  {"several atoms", "#cc79a7"},
                                                  {"continuous", "#009e73"},
                                                  {"uniform-like", "#e69f00"}};
  const std::map<std::string, int> marker{{"collapsed", 5}, {"two atoms", 7}, {"several atoms", 9}, {"continuous", 11}, {"uniform-like", 13}};
  int k = 0;
  for (const auto& name : order) {
    if (!by_category.count(name)) continue;
    fig.datablock("c" + std::to_string(++k), by_category[name]);
    plot += std::string(k > 1 ? ", " : "") + "$c" + std::to_string(k) + " using 1:2 with points pt " + std::to_string(marker.at(name)) +
            " ps 1.4 lc rgb '" + colour.at(name) + "' title '" + name + "'";
  }
  const double threshold = SymmetricSplit(K).threshold();
  fig.line("set title " + GnuplotFigure::wrapped_text(def.title, "K = " + std::to_string(K) + ", n_y = " +
                                                                     std::to_string(rows.front().point.ny) + ", d = " + std::to_string(d)));
  {
    const auto [a_lo, a_hi] = std::minmax_element(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) { return a.point.alpha < b.point.alpha; });
    const auto [t_lo, t_hi] = std::minmax_element(taus.begin(), taus.end());
    fig.tics("x", a_hi->point.alpha - a_lo->point.alpha, 0.55);
    fig.tics("y", *t_hi - *t_lo, 0.5);
  }
  fig.line("set xlabel 'α'; set ylabel 'τ'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out");
  fig.key("outside right top Left reverse samplen 3 width -6", 2);
  fig.line("set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05");
  fig.line("set arrow from " + fmt(threshold, 8) + ", graph 0 to " + fmt(threshold, 8) + ", graph 1 nohead lw 2 lc 'black'");
  if (!paper_differs.empty()) {
    fig.datablock("pm", paper_differs);
    plot += ", $pm using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb '#d55e00' title 'ringed: SLSQP (paper) differs'";
  }
  if (!window.empty()) {
    fig.datablock("w", window);
    plot += ", $w using 1:2 with lines lw 2 dt 2 lc 'black' title 'end of the split window (d = K)'";
  }
  fig.line(plot + ", NaN with lines lw 2 dt 1 lc 'black' title 'α = K/(2K-1)'");
  fig.render(stem, outputs);
  std::ostringstream md;
  md << header_lines(def.name) << "K = " << K << ", n_y = " << rows.front().point.ny << ", d = " << d << ", " << rows.size()
     << " grid points (seeds " << data.seeds << "): ";
  for (const auto& name : order) {
    if (counts.count(name)) md << name << " " << counts[name] << "; ";
  }
  md << "\n\nWhere the theory predicts a regime (collapse below K/(2K−1); for d = K the split inside its window and "
        "uniform beyond it), the optimizer agrees at "
     << agree << " of " << predicted << " points.\n";
  if (!best_known.empty()) md << "\n" << paper_method_summary(best_known, data.seeds);
  return md.str();
}

// ---------------------------------------------------------------------------------------
std::string onset_vs_d(const SimDefinition& def, const SimData& data, const std::string& stem, OutputTransaction& outputs) {
  const std::vector<SweepRow>& rows = data.rows;
  std::map<std::pair<int, double>, std::pair<double, double>> found;  // (d, tau) -> (onset, saturation)
  for (const auto& r : rows) {
    auto& f = found.try_emplace({r.point.d, r.point.tau}, std::make_pair(NAN, NAN)).first->second;
    if (std::isnan(f.first) && r.spread > kOnsetSpread) f.first = r.point.alpha;
    if (std::isnan(f.second) && r.spread >= kUniformSpread) f.second = r.point.alpha;
  }
  const int K = rows.front().point.K;
  const SymmetricSplit split(K);
  std::vector<std::vector<double>> onset, saturation, window;
  std::ostringstream md;
  md << "| d | τ | onset α (spread > 1e-3) | saturation α (spread ≥ 0.99) | theory: threshold | exact end of the split "
        "window |\n|---|---|---|---|---|---|\n";
  for (const auto& [key, f] : found) {
    const auto [d, tau] = key;
    if (!std::isnan(f.first)) onset.push_back({static_cast<double>(d), f.first});
    if (!std::isnan(f.second)) saturation.push_back({static_cast<double>(d), f.second});
    std::optional<double> end;
    if (d >= K) end = split.exact_crossover(tau, d);
    if (end) window.push_back({static_cast<double>(d), *end});
    md << "| " << d << " | " << fmt(tau) << " | " << (std::isnan(f.first) ? "none" : fmt(f.first)) << " | "
       << (std::isnan(f.second) ? "none in grid" : fmt(f.second)) << " | " << fmt(split.threshold()) << " | "
       << (end ? fmt(*end, 5) : "n/a") << " |\n";
  }
  GnuplotFigure fig(900, 560);
  fig.paper_sizes();
  std::string plot = "plot " + fmt(split.threshold(), 8) + " with lines dt 3 lc 'black' title 'K/(2K-1)'";
  const auto add = [&](const std::string& name, const std::vector<std::vector<double>>& block, const std::string& style) {
    if (block.empty()) return;  // gnuplot warns on an empty block
    fig.datablock(name, block);
    plot += ", $" + name + " using 1:2 " + style;
  };
  add("on", onset, "with linespoints lt 1 lw 2 title 'onset of spread (optimizer)'");
  add("sat", saturation, "with linespoints lt 2 lw 2 title 'saturation, spread ≥ 0.99 (optimizer)'");
  add("w", window, "with lines dt 2 lc 'gray30' title 'exact end of the split window'");
  fig.line("set title " + GnuplotFigure::wrapped_text(def.title, "K = " + std::to_string(K) + ", n_y = " +
                                                                     std::to_string(rows.front().point.ny) + ", τ = " + fmt(rows.front().point.tau)));
  {
    double lo = split.threshold(), hi = lo;
    for (const auto* block : {&onset, &saturation, &window}) {
      for (const auto& row : *block) lo = std::min(lo, row[1]), hi = std::max(hi, row[1]);
    }
    fig.tics("y", hi - lo, 0.5);
  }
  fig.line("set xlabel 'dimension d'; set ylabel 'α'; set grid lt 1 lc rgb '#dddddd' lw 0.5; set logscale x 2");
  fig.key("inside right center Left reverse samplen 2.5 box opaque");
  fig.line("set tics nomirror out; set border 3");
  fig.line(plot);
  fig.render(stem, outputs);
  return header_lines(def.name) + "K = " + std::to_string(K) + ", seeds " + data.seeds + ":\n\n" + md.str();
}

}  // namespace

// The drawings, one per simulation kind (experiments/sim_kinds.cpp), in its table's order.
const std::vector<SimFigure>& sim_figures() {
  static const std::vector<SimFigure> figures{
      {"alpha_spread", alpha_spread},   {"c_threshold", c_threshold_figure}, {"point_sets", point_sets},
      {"cosine_heatmap", cosine_heatmap}, {"phase_diagram", phase_diagram},  {"onset_vs_d", onset_vs_d},
  };
  return figures;
}

std::string draw_sim(const SimDefinition& def, const SimData& data, const std::string& out_dir, OutputTransaction& outputs) {
  const auto& figures = sim_figures();
  const auto it = std::find_if(figures.begin(), figures.end(), [&](const SimFigure& figure) { return figure.kind == def.kind; });
  if (it == figures.end()) throw std::logic_error("draw_sim: " + def.kind + " has no figure");
  const std::string stem = (std::filesystem::path(out_dir) / def.name).string();
  try {
    return it->draw(def, data, stem, outputs);
  } catch (...) {
    rethrow_naming_definition(def);
  }
}

}  // namespace geomsim

