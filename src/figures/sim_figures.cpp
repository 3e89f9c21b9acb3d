#include "geomsim/figures/sim_figures.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>

#include "geomsim/experiments/best_known.hpp"
#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/experiments/sweep.hpp"
#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/plain_text.hpp"
#include "geomsim/figures/table_plot.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/support/text_csv.hpp"
#include "geomsim/theory/symmetric_split.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "geomsim/theory/wiener_constant.hpp"

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

// A parameter as list text: numbers, arrays of numbers, or strings ("0.5:0.9:0.1").
std::string list_text(const json& params, const std::string& key, const std::string& fallback = "") {
  if (!params.contains(key)) {
    if (fallback.empty()) throw InvalidArgument("sim", "parameter '" + key + "' is missing");
    return fallback;
  }
  const json& v = params.at(key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number()) return format_number(v.get<double>());
  if (v.is_array()) {
    std::string out;
    for (const auto& x : v) {
      if (!x.is_number()) throw InvalidArgument("sim", "parameter '" + key + "' must list numbers");
      out += (out.empty() ? "" : ",") + format_number(x.get<double>());
    }
    return out;
  }
  throw InvalidArgument("sim", "parameter '" + key + "' must be a number, a list or a range string");
}

std::vector<double> numbers(const json& p, const std::string& key) { return parse_number_list(list_text(p, key), key); }
std::vector<int> integers(const json& p, const std::string& key, int lo) {
  return parse_integer_list(list_text(p, key), key, lo, 1000000);
}
int integer(const json& p, const std::string& key, int lo) {
  const auto v = integers(p, key, lo);
  if (v.size() != 1) throw InvalidArgument("sim", "parameter '" + key + "' must be one value");
  return v.front();
}
double real(const json& p, const std::string& key) {
  const auto v = numbers(p, key);
  if (v.size() != 1) throw InvalidArgument("sim", "parameter '" + key + "' must be one value");
  return v.front();
}

// A text parameter, or `fallback` when it is missing.
std::string text_parameter(const json& p, const std::string& key, const std::string& fallback, const std::string& example) {
  if (!p.contains(key)) return fallback;
  if (!p.at(key).is_string()) {
    throw InvalidArgument("sim", "parameter '" + key + "' must be a string such as \"" + example + "\", got " + json_excerpt(p.at(key)));
  }
  return p.at(key).get<std::string>();
}

SolveSettings settings_from(const json& p, std::string& seeds_text) {
  SolveSettings s;
  seeds_text = text_parameter(p, "seeds", "0:4", "0:4");
  s.seeds = parse_seed_list(seeds_text, "seeds");
  s.solver = text_parameter(p, "solver", "auto", "auto");
  if (p.contains("restarts")) s.restarts = integer(p, "restarts", 0);  // missing: the solve's default
  return s;
}


// The file of a grid's finished points while it runs, beside its NAME.csv (sim_checkpoint_path).
constexpr const char* kCheckpointSuffix = ".partial.csv";

// One sweep of `points` under `settings`. Rows of it already solved with the same settings are
// not solved again (they would come out the same: every point is reproducible): those of the
// files in `caches`, in order (a page redraws from its committed CSVs in seconds), and those of
// the checkpoint (sim_checkpoint_path: the points an interrupted report had finished), which
// holds `kept` (another sweep's rows of this page) beside this sweep's. Files that cannot be
// read, or rows of other settings, are ignored. `progress` gets the rows done so far.
std::vector<SweepRow> cached_sweep(const std::vector<SweepPoint>& points, const SolveSettings& settings, const std::string& seeds_text,
                                   const std::vector<std::string>& caches, const std::string& checkpoint,
                                   const std::vector<SweepRow>& kept, std::size_t& cached,
                                   const std::function<void(std::size_t)>& progress) {
  std::set<std::string> keys;
  for (const auto& point : points) keys.insert(point.key());
  std::vector<SweepRow> done;
  std::vector<std::string> paths = caches;
  paths.push_back(checkpoint);
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) continue;
    std::vector<SweepRow> usable;
    try {
      for (const auto& row : read_sweep_csv(path, "out")) {
        if (!keys.count(row.point.key())) continue;
        try {
          require_same_settings({row}, settings, seeds_text, path, "out");
          usable.push_back(row);
        } catch (const InvalidArgument&) {  // other settings: solved again
        }
      }
    } catch (const InvalidArgument&) {
      usable.clear();
    }
    for (auto& row : usable) {
      if (keys.erase(row.point.key())) done.push_back(std::move(row));  // each point once
    }
  }
  cached = done.size();
  if (progress) progress(done.size());
  std::vector<SweepRow> saved = kept;
  saved.insert(saved.end(), done.begin(), done.end());
  auto last_save = std::chrono::steady_clock::now();
  const auto on_row = [&](const SweepRow& row, std::size_t completed, std::size_t total) {
    saved.push_back(row);
    const auto now = std::chrono::steady_clock::now();
    // At most once a second (a grid of fast points would spend its time writing), atomically:
    // an interrupted report leaves a whole checkpoint.
    if (now - last_save > std::chrono::seconds(1) && completed < total) {
      OutputTransaction partial;
      partial.stage(checkpoint, sweep_csv(saved), "out");
      partial.commit();
      last_save = now;
    }
    if (progress) progress(done.size() + completed);
  };
  return run_sweep(points, settings, seeds_text, done, on_row);
}

// Whether the settings are the paper's method: SLSQP, best of the seeds, no restarts.
bool is_paper_method(const SolveSettings& s) { return s.solver == "slsqp" && s.restarts == 0; }

// File names of a page's sweeps beside its NAME.csv: the paper's method's rows and the default
// solve's, each in `geomsim sweep`'s format.
constexpr const char* kPaperMethodSuffix = ".paper-method.csv";
constexpr const char* kDefaultSolveSuffix = ".default-solve.csv";

// The definition's grid, solved with its settings, NAME.csv staged with every row. A definition
// that pins the paper's method (is_paper_method) is solved twice, by the paper's method and by
// the default solve (RLBFGS with its restarts, seeds 0-4, as `geomsim sweep` without --solver),
// each cached in its own file (NAME.paper-method.csv, NAME.default-solve.csv; a NAME.csv of the
// paper's method alone, as written before issue 29, is read as the former), and a solve from the
// predicted configuration is added where the theory predicts the split (best_known_rows): the
// rows returned, and NAME.csv's loss, spread and geometry, are the best known optimum, with the
// paper's method in columns of its own (best_known_csv), and `best_known` receives both.
std::vector<SweepRow> sweep(const json& p, const std::string& stem, std::string& seeds_text, OutputTransaction& outputs,
                            SimResult& result, const SimProgress& progress, std::vector<BestKnownRow>* best_known = nullptr) {
  SweepGrid grid;
  grid.K = integers(p, "K", 2);
  grid.ny = integers(p, "ny", 1);
  grid.d = integers(p, "d", 2);
  grid.tau = numbers(p, "tau");
  grid.alpha = numbers(p, "alpha");
  const SolveSettings settings = settings_from(p, seeds_text);
  const auto points = sweep_points(grid);
  const std::string csv_path = stem + ".csv";
  const std::string checkpoint = stem + kCheckpointSuffix;
  const bool paper = is_paper_method(settings);
  const std::size_t total = points.size() * (paper ? 2 : 1);
  std::size_t cached = 0;
  const auto first = cached_sweep(points, settings, seeds_text, paper ? std::vector<std::string>{stem + kPaperMethodSuffix, csv_path} : std::vector<std::string>{csv_path},
                                  checkpoint, {}, cached, [&](std::size_t done) { if (progress) progress(done, total); });
  result.sweep_points = total;
  result.cached_points = cached;
  const std::string name = std::filesystem::path(stem).filename().string();
  result.cache_files = paper ? name + kPaperMethodSuffix + " and " + name + kDefaultSolveSuffix : name + ".csv";
  if (!paper) {
    outputs.stage(csv_path, sweep_csv(first), "out");
    return first;
  }
  const SolveSettings defaults;  // the default solve: seeds 0-4, auto (RLBFGS), its restarts
  const std::string default_seeds = "0:4";
  const auto second = cached_sweep(points, defaults, default_seeds, {stem + kDefaultSolveSuffix}, checkpoint, first, cached,
                                   [&](std::size_t done) { if (progress) progress(points.size() + done, total); });
  result.cached_points += cached;
  outputs.stage(stem + kPaperMethodSuffix, sweep_csv(first), "out");
  outputs.stage(stem + kDefaultSolveSuffix, sweep_csv(second), "out");
  auto joined = best_known_rows(first, second, true);
  outputs.stage(csv_path, best_known_csv(joined), "out");
  auto rows = best_rows(joined);
  if (best_known) *best_known = std::move(joined);
  return rows;
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

SimResult alpha_spread(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                       const SimProgress& progress) {
  std::string seeds;
  SimResult result;
  std::vector<BestKnownRow> best_known;
  const auto rows = sweep(p, stem, seeds, outputs, result, progress, &best_known);
  std::map<std::string, const BestKnownRow*> known;
  for (const auto& r : best_known) known.emplace(r.best.point.key(), &r);
  // "curves" and "facets" were checked with the definition (check_parameters).
  const std::string by = text_parameter(p, "curves", "d", "d");
  const std::string facets = text_parameter(p, "facets", "", "K");
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
  result.markdown = header_lines(def.name) + "Spread of the optimum (seeds " + seeds + ") and its geometry; ✓ where the theory predicts it (collapse, the "
                                 "split at its spread to 1e-4, or uniform), otherwise the prediction in brackets; no mark where the theory has none" +
                    (best_known.empty() ? std::string() : "; [paper's method: …] where the paper's method ended higher, with its spread, geometry and excess loss") +
                    ":\n\n" + md.str() + (best_known.empty() ? std::string() : "\n" + paper_method_summary(best_known, seeds));
  return result;
}

// ---------------------------------------------------------------------------------------
SimResult c_threshold_figure(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                                 const SimProgress& progress) {
  (void)progress;  // seconds at most: the report's line per definition says when it is done
  const auto taus = numbers(p, "tau");
  const auto ds = integers(p, "d", 2);
  GnuplotFigure fig(900, 560);
  fig.paper_sizes(true, 3.6);  // its seven key entries go under the plot in one column
  std::string csv = "tau,d,log_W,c,exact_crossover\n";
  std::string plot = "plot ";
  std::ostringstream md;
  md << "| τ | c(τ,d) > 2/3 for all d | c at d = " << ds.front() << " | c at d = " << ds.back()
     << " | exact end − c at d = " << ds.front() << " |\n|---|---|---|---|---|\n";
  int k = 0;
  bool any_exact = false;
  for (double tau : taus) {
    ++k;
    std::vector<std::vector<double>> c_rows, exact_rows;
    bool all_above = true;
    for (int d : ds) {
      const auto c = c_threshold(tau, d);
      const auto exact = exact_crossover(tau, d);
      csv += format_number(tau) + "," + std::to_string(d) + "," + format_number(log_wiener_constant(tau, d)) + "," +
             (c ? format_number(*c) : "") + "," + (exact ? format_number(*exact) : "") + "\n";
      if (c) c_rows.push_back({static_cast<double>(d), *c});
      if (exact) exact_rows.push_back({static_cast<double>(d), *exact});
      all_above = all_above && c && *c > 2.0 / 3.0;
    }
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
    const auto c0 = c_threshold(tau, ds.front()), c1 = c_threshold(tau, ds.back());
    const auto x0 = exact_crossover(tau, ds.front());
    md << "| " << fmt(tau) << " | " << (all_above ? "yes" : "**no**") << " | " << (c0 ? fmt(*c0, 7) : "undefined")
       << " | " << (c1 ? fmt(*c1, 7) : "undefined") << " | " << (c0 && x0 ? fmt(*x0 - *c0, 3) : "") << " |\n";
  }
  outputs.stage(stem + ".csv", csv, "out");
  fig.line("set title " + GnuplotFigure::wrapped_text(def.title));
  fig.line("set xlabel 'dimension d (log scale)'");
  fig.line("set ylabel 'upper end of the α window'");
  fig.line("set logscale x 2");
  {
    double lo = 2.0 / 3.0, hi = lo;
    for (double tau : taus) {
      for (int d : ds) {
        if (const auto c = c_threshold(tau, d)) lo = std::min(lo, *c), hi = std::max(hi, *c);
      }
    }
    fig.tics("y", hi - lo, 0.5);
  }
  fig.key("inside top right Left reverse samplen 2.5", 2);  // the curves fall away from that corner
  fig.line("set grid lt 1 lc rgb '#dddddd' lw 0.5; set tics nomirror out; set border 3");
  if (any_exact) plot += ", NaN with lines lw 1 dt 1 lc rgb '#444444' title 'thin: exact end, L(µ_θ*) = L(σ)'";
  fig.line(plot + ", 2.0/3 with lines lc 'black' dt 3 title 'α = 2/3'");
  fig.render(stem, outputs);
  return {header_lines(def.name, " · thick: c(τ,d) as Theorem 2 states it; thin: the exact end, L(µθ*) = L(σ)") +
                  md.str(),
          0.0};
}

// ---------------------------------------------------------------------------------------
// The optimum of one problem, sorted into atoms; each point is drawn pushed outwards by its
// rank within its atom so that stacked points stay visible.
struct SolvedSet {
  double alpha;
  BestKnownSolution solved;  // solved.best is drawn
  bool paper = false;        // whether the definition pins the paper's method (solved.paper_method)
};

// The optimum a page that draws points shows: where the definition pins the paper's method, the
// best known optimum (best_known_solution), with the paper's method kept beside it; else the
// definition's own solve.
SolvedSet solved_set(const SpreadProblem& problem, const SolveSettings& settings) {
  SolvedSet out{problem.alpha, {}, is_paper_method(settings)};
  if (out.paper) {
    out.solved = best_known_solution(problem, settings);
  } else {
    out.solved.best = solve_spread_problem(problem, settings);
    out.solved.source = "definition";
  }
  return out;
}

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

// The CSV rows of one solution's points (alpha, class, atom, coordinates, solve); `drawn` gets
// each point pushed outwards by its rank within its atom, so that stacked points stay visible.
void point_rows(const SpreadSolution& solution, double alpha, const std::string& solve, std::string& csv,
                std::vector<std::vector<double>>* drawn) {
  const Matrix& U = solution.points.points;
  const auto& labels = solution.points.labels;
  const int ny = solution.problem.ny;
  std::map<std::pair<int, int>, int> rank;
  for (Index i = 0; i < U.cols(); ++i) {
    const int y = labels[static_cast<std::size_t>(i)];
    const auto& cls = solution.geometry.classes[static_cast<std::size_t>(y)];
    const int atom = cls.atom_of_point[static_cast<std::size_t>(i % ny)];
    const double r = 1.0 + 0.035 * rank[{y, atom}]++;
    csv += format_number(alpha) + "," + std::to_string(y) + "," + std::to_string(atom);
    std::vector<double> row;
    for (Index k = 0; k < U.rows(); ++k) {
      csv += "," + format_number(U(k, i));
      row.push_back(r * U(k, i));
    }
    csv += "," + solve + "\n";
    row.push_back(y + 1);
    if (drawn) drawn->push_back(row);
  }
}

SimResult point_sets(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                         const SimProgress& progress) {
  const int K = integer(p, "K", 2), ny = integer(p, "ny", 1), d = integer(p, "d", 2);
  if (d != 2 && d != 3) throw InvalidArgument("sim", "point_sets draws S^1 or S^2: 'd' must be 2 or 3");
  const double tau = real(p, "tau");
  const auto alphas = numbers(p, "alpha");
  std::string seeds;
  const SolveSettings settings = settings_from(p, seeds);
  std::vector<SolvedSet> sets;
  if (progress) progress(0, alphas.size());
  for (double a : alphas) {
    sets.push_back(solved_set({K, ny, d, a, tau}, settings));
    if (progress) progress(sets.size(), alphas.size());
  }

  // solve: "best_known" (drawn) and, where the definition pins it, "paper_method".
  std::string csv = "alpha,class,atom,x,y" + std::string(d == 3 ? ",z" : "") + ",solve\n";
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
    std::vector<std::vector<double>> rows;
    point_rows(set.solved.best, set.alpha, "best_known", csv, &rows);
    if (set.paper) point_rows(set.solved.paper_method, set.alpha, "paper_method", csv, nullptr);
    fig.datablock("p" + std::to_string(panel), rows);
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
  outputs.stage(stem + ".csv", csv, "out");
  fig.render(stem, outputs);
  return {header_lines(def.name, " · one colour per class; the points of one atom are drawn stacked outwards") + "K = " + std::to_string(K) +
                  ", n_y = " + std::to_string(ny) + ", τ = " + fmt(tau) + ", " + drawn_optimum_text(sets.front().paper, seeds) +
                  (sets.front().paper ? " (its points: the CSV's rows with solve = paper_method)" : "") + ":\n\n" + md.str(),
          0.0};
}

// ---------------------------------------------------------------------------------------
SimResult cosine_heatmap(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                             const SimProgress& progress) {
  (void)progress;  // seconds at most: the report's line per definition says when it is done
  const int K = integer(p, "K", 2), ny = integer(p, "ny", 1), d = integer(p, "d", 2);
  const double tau = real(p, "tau"), alpha = real(p, "alpha");
  std::string seeds;
  const SolvedSet solved = solved_set({K, ny, d, alpha, tau}, settings_from(p, seeds));
  const SpreadSolution& s = solved.solved.best;
  PointSet set = s.points;
  // Subclass = atom: sort by class, then atom, as the paper's insets sort by subclass.
  set.subclass_labels.resize(set.labels.size());
  for (std::size_t i = 0; i < set.labels.size(); ++i) {
    set.subclass_labels[i] = s.geometry.classes[static_cast<std::size_t>(set.labels[i])].atom_of_point[i % static_cast<std::size_t>(ny)];
  }
  const auto sorted = cosine_similarity_by_class(set);
  std::vector<std::vector<double>> rows;
  std::string csv;
  const Index N = sorted.matrix.rows();
  const double last = static_cast<double>(N) - 0.5;
  for (Index a = 0; a < N; ++a) {
    for (Index b = 0; b < N; ++b) {
      rows.push_back({static_cast<double>(b), static_cast<double>(a), sorted.matrix(a, b)});
      csv += (b ? "," : "") + format_number(sorted.matrix(a, b));
    }
    rows.push_back({});
    csv += "\n";
  }
  outputs.stage(stem + ".csv", csv, "out");
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
  return {header_lines(def.name) + "K = " + std::to_string(K) + ", n_y = " + std::to_string(ny) + ", d = " +
                  std::to_string(d) + ", τ = " + fmt(tau) + ", α = " + fmt(alpha) + ", " + drawn_optimum_text(solved.paper, seeds) +
                  ": " + cell(s.geometry.describe()) + ", spread " + fmt(s.spread.mean, 6) + ", loss " + fmt(s.loss, 12) + " (best of: " +
                  solved.solved.source + "; the paper's method: " + paper_method_cell(solved) + "). Black lines separate the classes.\n",
          0.0};
}

// ---------------------------------------------------------------------------------------
SimResult phase_diagram(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                            const SimProgress& progress) {
  std::string seeds;
  SimResult result;
  std::vector<BestKnownRow> best_known;
  const auto rows = sweep(p, stem, seeds, outputs, result, progress, &best_known);
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
  const auto taus = numbers(p, "tau");
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
     << " grid points (seeds " << seeds << "): ";
  for (const auto& name : order) {
    if (counts.count(name)) md << name << " " << counts[name] << "; ";
  }
  md << "\n\nWhere the theory predicts a regime (collapse below K/(2K−1); for d = K the split inside its window and "
        "uniform beyond it), the optimizer agrees at "
     << agree << " of " << predicted << " points.\n";
  if (!best_known.empty()) md << "\n" << paper_method_summary(best_known, seeds);
  result.markdown = md.str();
  return result;
}

// ---------------------------------------------------------------------------------------
SimResult onset_vs_d(const SimDefinition& def, const json& p, const std::string& stem, OutputTransaction& outputs,
                         const SimProgress& progress) {
  std::string seeds;
  SimResult result;
  const auto rows = sweep(p, stem, seeds, outputs, result, progress);
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
  result.markdown = header_lines(def.name) + "K = " + std::to_string(K) + ", seeds " + seeds + ":\n\n" + md.str();
  return result;
}

// ---------------------------------------------------------------------------------------
// The parameters each kind reads, and those of them that may list several values: every other
// one must hold one value, or the figure would silently join several into one curve.
struct KindParameters {
  std::vector<std::string> keys, lists;
};

const KindParameters& kind_parameters(const std::string& kind) {
  static const std::vector<std::string> solve{"K", "ny", "d", "tau", "alpha", "seeds", "solver", "restarts"};
  const auto with = [](std::vector<std::string> keys, std::initializer_list<const char*> more) {
    keys.insert(keys.end(), more.begin(), more.end());
    return keys;
  };
  static const std::map<std::string, KindParameters> kinds{
      {"alpha_spread", {with(solve, {"curves", "facets"}), {"alpha"}}},  // and the curves' and facets' parameter
      {"c_threshold", {{"tau", "d"}, {"tau", "d"}}},
      {"point_sets", {solve, {"alpha"}}},
      {"cosine_heatmap", {solve, {}}},
      {"phase_diagram", {solve, {"alpha", "tau"}}},
      {"onset_vs_d", {solve, {"alpha", "d"}}},
  };
  return kinds.at(kind);
}

// The parameters that alpha_spread may draw one curve (or one panel) per value of.
const std::vector<std::string> kCurveParameters{"d", "tau", "K", "ny"};

std::string quoted_list(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

// Refuses, naming the file, the definition and the key, a parameter the kind does not read, a
// list where one value is expected, and for alpha_spread a "curves" or "facets" it cannot draw.
void check_parameters(const SimDefinition& def, const json& p, const std::string& which) {
  const std::string where = def.path + ": definition '" + def.name + "' (" + def.kind + ")" + which + ": ";
  const KindParameters& kind = kind_parameters(def.kind);
  for (const auto& [key, value] : p.items()) {
    if (std::find(kind.keys.begin(), kind.keys.end(), key) == kind.keys.end()) {
      throw InvalidArgument("sim", where + "parameter '" + key + "' is not one that " + def.kind + " reads (" + quoted_list(kind.keys) + ")");
    }
  }
  std::vector<std::string> lists = kind.lists;
  std::string curves, facets;
  if (def.kind == "alpha_spread") {
    for (const char* key : {"curves", "facets"}) {
      if (!p.contains(key)) continue;
      const json& v = p.at(key);
      const std::string text = v.is_string() ? v.get<std::string>() : std::string();
      if (std::find(kCurveParameters.begin(), kCurveParameters.end(), text) == kCurveParameters.end()) {
        throw InvalidArgument("sim", where + "parameter '" + key + "' must be one of " + quoted_list(kCurveParameters) + ", got " +
                                         json_excerpt(v));
      }
      (std::string(key) == "curves" ? curves : facets) = text;
    }
    if (curves.empty()) curves = "d";
    if (curves == facets) throw InvalidArgument("sim", where + "parameters 'curves' and 'facets' must differ, both are \"" + curves + "\"");
    lists.push_back(curves);
    if (!facets.empty()) lists.push_back(facets);
  }
  for (const auto& key : kind.keys) {
    if (!p.contains(key) || key == "curves" || key == "facets" || key == "seeds" || key == "solver") continue;
    if (std::find(lists.begin(), lists.end(), key) != lists.end()) continue;
    std::size_t count = 0;
    try {
      count = numbers(p, key).size();
    } catch (const InvalidArgument& error) {
      const std::string said = error.argument() == "sim" ? error.requirement() : "parameter '" + key + "' " + error.requirement();
      throw InvalidArgument("sim", where + said);
    }
    if (count == 1) continue;
    std::string hint;
    if (def.kind == "alpha_spread" && std::find(kCurveParameters.begin(), kCurveParameters.end(), key) != kCurveParameters.end()) {
      hint = "; the curves are by \"" + curves + "\"" + (facets.empty() ? std::string() : " and the panels by \"" + facets + "\"") +
             ": draw one curve per " + key + " with \"curves\": \"" + key + "\"" +
             (facets.empty() ? ", or one panel per " + key + " with \"facets\": \"" + key + "\"" : std::string());
    } else {
      hint = "; in " + def.kind + " only " + (lists.empty() ? std::string("none") : quoted_list(lists)) + " may list several";
    }
    throw InvalidArgument("sim", where + "parameter '" + key + "' lists " + std::to_string(count) + " values (" + list_text(p, key) +
                                     ") where one is expected" + hint);
  }
}

}  // namespace

const std::vector<std::string>& simulation_kinds() {
  static const std::vector<std::string> kinds{"alpha_spread",   "c_threshold",   "point_sets",
                                              "cosine_heatmap", "phase_diagram", "onset_vs_d"};
  return kinds;
}

SimDefinition load_sim_definition(const std::string& path, const std::vector<std::string>& other_kinds) {
  // A regular file only (a FIFO would block), of a definition's size, its nesting bounded.
  const json j = read_json_file(path, "sim", kMaxSimDefinitionBytes, "sims definition");
  SimDefinition def;
  def.path = path;
  const auto field = [&](const char* key, bool required) {
    if (!j.contains(key)) {
      if (required) throw InvalidArgument("sim", path + " has no \"" + key + "\"");
      return std::string();
    }
    if (!j.at(key).is_string()) throw InvalidArgument("sim", path + ": \"" + key + "\" must be a string");
    return j.at(key).get<std::string>();
  };
  def.name = field("name", true);
  def.title = field("title", true);
  def.kind = field("kind", true);
  def.paper = field("paper", false);
  def.notes = field("notes", false);
  const auto& kinds = simulation_kinds();
  if (std::find(kinds.begin(), kinds.end(), def.kind) == kinds.end() &&
      std::find(other_kinds.begin(), other_kinds.end(), def.kind) == other_kinds.end()) {
    throw InvalidArgument("sim", path + ": unknown kind \"" + def.kind + "\"");
  }
  // The name is the stem of every file the definition writes, its figure's among them: a control
  // character (a line break would end gnuplot's `set output '...'`) is refused with the rest.
  if (def.name.empty() || def.name.find_first_of("/\\ ") != std::string::npos || has_control_character(def.name)) {
    throw InvalidArgument("sim", path + ": \"name\" must be a plain file stem (no '/', '\\', space or control character)");
  }
  // geomsim report writes its index, README.md, beside the pages (NAME.md): a definition named
  // README (in any case: one file on a case-insensitive file system) would overwrite it.
  std::string lower = def.name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (lower == "readme") {
    throw InvalidArgument("sim", path + ": \"name\" must not be " + def.name +
                                     ": geomsim report writes its index to README.md beside the pages (NAME.md), which this "
                                     "page would overwrite; rename the definition");
  }
  for (const char* key : {"parameters", "smoke"}) {
    if (j.contains(key) && !j.at(key).is_object()) throw InvalidArgument("sim", path + ": \"" + std::string(key) + "\" must be an object");
  }
  def.parameters_json = j.value("parameters", json::object()).dump();
  def.smoke_json = j.value("smoke", json::object()).dump();
  // A simulation's parameters are checked now, before any definition runs: the smoke grid too.
  if (std::find(kinds.begin(), kinds.end(), def.kind) != kinds.end()) {
    json parameters = j.value("parameters", json::object());
    check_parameters(def, parameters, "");
    parameters.update(j.value("smoke", json::object()));
    check_parameters(def, parameters, " with its smoke grid");
  }
  return def;
}

std::string sim_checkpoint_path(const std::string& out_dir, const SimDefinition& def) {
  return (std::filesystem::path(out_dir) / (def.name + kCheckpointSuffix)).string();
}

SimResult run_sim(const SimDefinition& def, const std::string& out_dir, bool smoke, OutputTransaction& outputs,
                  const SimProgress& progress) {
  const auto start = std::chrono::steady_clock::now();
  json p = json::parse(def.parameters_json);
  if (smoke) p.update(json::parse(def.smoke_json));
  const std::string stem = (std::filesystem::path(out_dir) / def.name).string();
  SimResult result;
  try {
    if (def.kind == "alpha_spread") result = alpha_spread(def, p, stem, outputs, progress);
    else if (def.kind == "c_threshold") result = c_threshold_figure(def, p, stem, outputs, progress);
    else if (def.kind == "point_sets") result = point_sets(def, p, stem, outputs, progress);
    else if (def.kind == "cosine_heatmap") result = cosine_heatmap(def, p, stem, outputs, progress);
    else if (def.kind == "phase_diagram") result = phase_diagram(def, p, stem, outputs, progress);
    else if (def.kind == "onset_vs_d") result = onset_vs_d(def, p, stem, outputs, progress);
    else throw std::logic_error("run_sim: " + def.kind + " is not a simulation kind");
  } catch (const json::exception& error) {  // a parameter of the wrong JSON type
    throw InvalidArgument("sim", def.path + ": " + error.what());
  } catch (const InvalidArgument& error) {  // name the file and definition the parameter came from
    if (error.argument() == "out") throw;
    const std::string where = def.path + ": definition '" + def.name + "': ";
    if (error.argument() == "sim") {
      if (error.requirement().rfind(def.path, 0) == 0) throw;
      throw InvalidArgument("sim", where + error.requirement());
    }
    if (dynamic_cast<const InvalidEnvironment*>(&error) != nullptr) {  // not a parameter: OMP_NUM_THREADS's threads
      throw InvalidArgument("sim", where + error.what());
    }
    throw InvalidArgument("sim", where + "parameter '" + error.argument() + "' " + error.requirement());
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace geomsim
