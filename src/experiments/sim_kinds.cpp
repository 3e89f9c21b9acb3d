#include "geomsim/experiments/sim_kinds.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/theory/two_class_theory.hpp"
#include "geomsim/theory/wiener_constant.hpp"

namespace geomsim {
namespace {

using nlohmann::json;

// ---- the grid kinds: a sweep of the definition's grid, resumable -----------------------------

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

// alpha_spread, phase_diagram, onset_vs_d: the definition's grid, solved with its settings,
// NAME.csv staged with every row. A definition that pins the paper's method (is_paper_method) is
// solved twice, by the paper's method and by the default solve (RLBFGS with its restarts, seeds
// 0-4, as `geomsim sweep` without --solver), each cached in its own file (NAME.paper-method.csv,
// NAME.default-solve.csv; a NAME.csv of the paper's method alone, as written before issue 29, is
// read as the former), and a solve from the predicted configuration is added where the theory
// predicts the split (best_known_rows): the rows, and NAME.csv's loss, spread and geometry, are
// the best known optimum, with the paper's method in columns of its own (best_known_csv), and
// data.best_known receives both.
void solve_grid(SimData& data, const std::string& stem, OutputTransaction& outputs, const SimProgress& progress) {
  const json& p = data.parameters;
  SweepGrid grid;
  grid.K = parameter_integers(p, "K", 2);
  grid.ny = parameter_integers(p, "ny", 1);
  grid.d = parameter_integers(p, "d", 2);
  grid.tau = parameter_numbers(p, "tau");
  grid.alpha = parameter_numbers(p, "alpha");
  const SolveSettings settings = parameter_solve_settings(p, data.seeds);
  const auto points = sweep_points(grid);
  const std::string csv_path = stem + ".csv";
  const std::string checkpoint = stem + kSimCheckpointSuffix;
  const bool paper = is_paper_method(settings);
  const std::size_t total = points.size() * (paper ? 2 : 1);
  std::size_t cached = 0;
  const auto first = cached_sweep(points, settings, data.seeds, paper ? std::vector<std::string>{stem + kPaperMethodSuffix, csv_path} : std::vector<std::string>{csv_path},
                                  checkpoint, {}, cached, [&](std::size_t done) { if (progress) progress(done, total); });
  data.sweep_points = total;
  data.cached_points = cached;
  const std::string name = std::filesystem::path(stem).filename().string();
  data.cache_files = paper ? name + kPaperMethodSuffix + " and " + name + kDefaultSolveSuffix : name + ".csv";
  if (!paper) {
    outputs.stage(csv_path, sweep_csv(first), "out");
    data.rows = first;
    return;
  }
  const SolveSettings defaults;  // the default solve: seeds 0-4, auto (RLBFGS), its restarts
  const std::string default_seeds = "0:4";
  const auto second = cached_sweep(points, defaults, default_seeds, {stem + kDefaultSolveSuffix}, checkpoint, first, cached,
                                   [&](std::size_t done) { if (progress) progress(points.size() + done, total); });
  data.cached_points += cached;
  outputs.stage(stem + kPaperMethodSuffix, sweep_csv(first), "out");
  outputs.stage(stem + kDefaultSolveSuffix, sweep_csv(second), "out");
  data.best_known = best_known_rows(first, second, true);
  outputs.stage(csv_path, best_known_csv(data.best_known), "out");
  data.rows = best_rows(data.best_known);
}

// ---- the kinds that draw points: one problem per alpha --------------------------------------

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

// The CSV rows of one solution's points: alpha, class, atom, coordinates, solve.
void point_rows(const SpreadSolution& solution, double alpha, const std::string& solve, std::string& csv) {
  const Matrix& U = solution.points.points;
  for (Index i = 0; i < U.cols(); ++i) {
    const int y = solution.points.labels[static_cast<std::size_t>(i)];
    csv += format_number(alpha) + "," + std::to_string(y) + "," + std::to_string(atom_of_point(solution, i));
    for (Index k = 0; k < U.rows(); ++k) csv += "," + format_number(U(k, i));
    csv += "," + solve + "\n";
  }
}

// point_sets: the optimum on S^1 or S^2 for each alpha. NAME.csv's solve column: "best_known"
// (drawn) and, where the definition pins it, "paper_method".
void solve_point_sets(SimData& data, const std::string& stem, OutputTransaction& outputs, const SimProgress& progress) {
  const json& p = data.parameters;
  const int K = parameter_integer(p, "K", 2), ny = parameter_integer(p, "ny", 1), d = parameter_integer(p, "d", 2);
  if (d != 2 && d != 3) throw InvalidArgument("sim", "point_sets draws S^1 or S^2: 'd' must be 2 or 3");
  const double tau = parameter_real(p, "tau");
  const auto alphas = parameter_numbers(p, "alpha");
  const SolveSettings settings = parameter_solve_settings(p, data.seeds);
  if (progress) progress(0, alphas.size());
  for (double a : alphas) {
    data.sets.push_back(solved_set({K, ny, d, a, tau}, settings));
    if (progress) progress(data.sets.size(), alphas.size());
  }
  std::string csv = "alpha,class,atom,x,y" + std::string(d == 3 ? ",z" : "") + ",solve\n";
  for (const auto& set : data.sets) {
    point_rows(set.solved.best, set.alpha, "best_known", csv);
    if (set.paper) point_rows(set.solved.paper_method, set.alpha, "paper_method", csv);
  }
  outputs.stage(stem + ".csv", csv, "out");
}

// cosine_heatmap: one optimum's cosine-similarity matrix, sorted by class, then atom (the
// paper's insets sort by subclass), as NAME.csv.
void solve_cosine_heatmap(SimData& data, const std::string& stem, OutputTransaction& outputs, const SimProgress&) {
  // seconds at most: the report's line per definition says when it is done
  const json& p = data.parameters;
  const int K = parameter_integer(p, "K", 2), ny = parameter_integer(p, "ny", 1), d = parameter_integer(p, "d", 2);
  const double tau = parameter_real(p, "tau"), alpha = parameter_real(p, "alpha");
  data.sets.push_back(solved_set({K, ny, d, alpha, tau}, parameter_solve_settings(p, data.seeds)));
  const SpreadSolution& s = data.sets.front().solved.best;
  PointSet set = s.points;
  set.subclass_labels.resize(set.labels.size());  // subclass = atom
  for (std::size_t i = 0; i < set.labels.size(); ++i) set.subclass_labels[i] = atom_of_point(s, static_cast<Index>(i));
  data.matrix = cosine_similarity_by_class(set).matrix;
  std::string csv;
  for (Index a = 0; a < data.matrix.rows(); ++a) {
    for (Index b = 0; b < data.matrix.cols(); ++b) csv += (b ? "," : "") + format_number(data.matrix(a, b));
    csv += "\n";
  }
  outputs.stage(stem + ".csv", csv, "out");
}

// ---- c_threshold: Theorem 2's closed forms, no solve ----------------------------------------

void threshold_table(SimData& data, const std::string& stem, OutputTransaction& outputs, const SimProgress&) {
  // seconds at most: the report's line per definition says when it is done
  const auto taus = parameter_numbers(data.parameters, "tau");
  const auto ds = parameter_integers(data.parameters, "d", 2);
  std::string csv = "tau,d,log_W,c,exact_crossover\n";
  for (double tau : taus) {
    for (int d : ds) {
      const ThresholdRow row{tau, d, log_wiener_constant(tau, d), c_threshold(tau, d), exact_crossover(tau, d)};
      csv += format_number(tau) + "," + std::to_string(d) + "," + format_number(row.log_w) + "," + (row.c ? format_number(*row.c) : "") +
             "," + (row.exact ? format_number(*row.exact) : "") + "\n";
      data.thresholds.push_back(row);
    }
  }
  outputs.stage(stem + ".csv", csv, "out");
}

// ---- alpha_spread's curves and panels --------------------------------------------------------

// The parameters that alpha_spread may draw one curve (or one panel) per value of.
const std::vector<std::string> kCurveParameters{"d", "tau", "K", "ny"};

std::string quoted_curve_parameters() {
  std::string out;
  for (const auto& n : kCurveParameters) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

// "curves" and "facets" must name a curve parameter, and differ; the parameters they name may
// list several values.
SimListRule curve_rule(const json& p, const std::string& where) {
  std::string curves, facets;
  for (const char* key : {"curves", "facets"}) {
    if (!p.contains(key)) continue;
    const json& v = p.at(key);
    const std::string text = v.is_string() ? v.get<std::string>() : std::string();
    if (std::find(kCurveParameters.begin(), kCurveParameters.end(), text) == kCurveParameters.end()) {
      throw InvalidArgument("sim", where + "parameter '" + key + "' must be one of " + quoted_curve_parameters() + ", got " + json_excerpt(v));
    }
    (std::string(key) == "curves" ? curves : facets) = text;
  }
  if (curves.empty()) curves = "d";
  if (curves == facets) throw InvalidArgument("sim", where + "parameters 'curves' and 'facets' must differ, both are \"" + curves + "\"");
  SimListRule rule;
  rule.lists.push_back(curves);
  if (!facets.empty()) rule.lists.push_back(facets);
  rule.hint = [curves, facets](const std::string& key) -> std::string {
    if (std::find(kCurveParameters.begin(), kCurveParameters.end(), key) == kCurveParameters.end()) return "";
    return "; the curves are by \"" + curves + "\"" + (facets.empty() ? std::string() : " and the panels by \"" + facets + "\"") +
           ": draw one curve per " + key + " with \"curves\": \"" + key + "\"" +
           (facets.empty() ? ", or one panel per " + key + " with \"facets\": \"" + key + "\"" : std::string());
  };
  return rule;
}

std::vector<std::string> joined(std::vector<std::string> names, std::initializer_list<const char*> more) {
  names.insert(names.end(), more.begin(), more.end());
  return names;
}

}  // namespace

int atom_of_point(const SpreadSolution& solution, Index i) {
  const int y = solution.points.labels[static_cast<std::size_t>(i)];
  return solution.geometry.classes[static_cast<std::size_t>(y)].atom_of_point[static_cast<std::size_t>(i % solution.problem.ny)];
}

// The table. A new kind: its run above (or one of theirs), its line here, its drawing and line in
// figures/sim_figures.cpp, and a definition in sims/ (its smoke test); see docs/design.md.
const std::vector<SimKind>& simulation_kinds() {
  static const std::vector<std::string> solve{"K", "ny", "d", "tau", "alpha", "seeds", "solver", "restarts"};
  static const std::vector<std::string> solve_texts{"seeds", "solver"};
  static const std::vector<SimKind> kinds{
      {"alpha_spread", "spread against alpha, one curve per d or per tau, theory overlaid (Figs. 6, 8)",
       joined(solve, {"curves", "facets"}), {"alpha"}, joined(solve_texts, {"curves", "facets"}), solve_grid, curve_rule},
      {"c_threshold", "c(tau, d) and the exact window end against d, one curve per tau (Fig. 5)", {"tau", "d"}, {"tau", "d"}, {},
       threshold_table},
      {"point_sets", "the optimal points on S^1 or S^2 for several alpha, classes coloured (Figs. 4, 7)", solve, {"alpha"},
       solve_texts, solve_point_sets},
      {"cosine_heatmap", "the cosine-similarity matrix sorted by class and atom (Fig. 2's insets)", solve, {}, solve_texts,
       solve_cosine_heatmap},
      {"phase_diagram", "the geometry over the (alpha, tau) plane with the theory's boundaries", solve, {"alpha", "tau"},
       solve_texts, solve_grid},
      {"onset_vs_d", "where spread starts and saturates in alpha, against d", solve, {"alpha", "d"}, solve_texts, solve_grid},
  };
  return kinds;
}

const SimKind* find_simulation_kind(const std::string& name) {
  const auto& kinds = simulation_kinds();
  const auto it = std::find_if(kinds.begin(), kinds.end(), [&](const SimKind& kind) { return kind.name == name; });
  return it == kinds.end() ? nullptr : &*it;
}

SimData run_sim(const SimDefinition& def, const std::string& out_dir, bool smoke, OutputTransaction& outputs,
                const SimProgress& progress) {
  const SimKind* kind = find_simulation_kind(def.kind);
  if (!kind) throw std::logic_error("run_sim: " + def.kind + " is not a simulation kind");
  SimData data;
  data.parameters = sim_parameters(def, smoke);
  const std::string stem = (std::filesystem::path(out_dir) / def.name).string();
  try {
    kind->run(data, stem, outputs, progress);
  } catch (...) {
    rethrow_naming_definition(def);
  }
  return data;
}

}  // namespace geomsim
