#pragma once
// The table of simulation kinds: the one place that names each kind of sims/ definition that
// geomsim solves (the training kinds are geomsim-torch's, train_experiments/experiment_kinds.hpp),
// with a line on what it shows, the parameters it reads, and the function that runs it. Loading
// a definition (sim_definition.hpp), run_sim and the figures layer's drawing
// (figures/sim_figures.hpp, a table of its own keyed by these names) all read it.
//
// A kind's run solves what its figure shows and stages NAME.csv (the data); the figures layer
// then draws the SimData it returns (NAME.png/.svg/.gp and the page's markdown).
#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/experiments/best_known.hpp"
#include "geomsim/experiments/sim_definition.hpp"
#include "geomsim/experiments/sweep.hpp"

namespace geomsim {

class OutputTransaction;

// One problem solved for a page that draws its points (point_sets, cosine_heatmap): where the
// definition pins the paper's method, the best known optimum (best_known_solution), with the
// paper's method kept beside it; else the definition's own solve.
struct SolvedSet {
  double alpha;
  BestKnownSolution solved;  // solved.best is drawn
  bool paper = false;        // whether the definition pins the paper's method (solved.paper_method)
};

// One row of c_threshold's table: Theorem 2's threshold and the exact window end at (tau, d).
struct ThresholdRow {
  double tau = 0.0;
  int d = 0;
  double log_w = 0.0;                  // log W_{1/2tau}(S^{d-1})
  std::optional<double> c, exact;      // c(tau, d), the exact crossover; empty where undefined
};

// What a kind's run computed, for its figure and its page. A kind fills the parts it solves.
struct SimData {
  nlohmann::json parameters;  // the definition's, with its smoke grid's overrides when run so
  std::string seeds;          // the seeds as the definition wrote them ("0:4" when it does not)
  // The grid kinds: one row per grid point, the best known optimum where the definition pins the
  // paper's method (best_known then holds both solves of each point), else its own solve.
  std::vector<SweepRow> rows;
  std::vector<BestKnownRow> best_known;
  // The grid's points, and how many of them were read from the CSV that the output already held
  // (solved before with the same settings) instead of solved again; cache_files: the files of
  // OUT they were read from besides the checkpoint ("NAME.csv", or for a page of the paper's
  // method "NAME.paper-method.csv and NAME.default-solve.csv").
  std::size_t sweep_points = 0, cached_points = 0;
  std::string cache_files = "";
  std::vector<SolvedSet> sets;             // the kinds that draw points: one per alpha
  Matrix matrix;                           // cosine_heatmap: the cosine similarities, sorted by class, then atom
  std::vector<ThresholdRow> thresholds;    // c_threshold: per tau, per d
};

// The atom (into its class's atoms, GeometrySummary) of the solution's point i.
int atom_of_point(const SpreadSolution& solution, Index i);

// Progress within a definition: called (serialised, from the thread that finished the point) once
// before any point is solved, with the points found in the checkpoint as `done`, then after each
// finished point, with the points done so far and the definition's total.
using SimProgress = std::function<void(std::size_t done, std::size_t total)>;

// A kind's run: solves for `data.parameters` and fills `data`, staging NAME.csv (stem + ".csv")
// and any cache files of its own into `outputs`.
using SimRun = void (*)(SimData& data, const std::string& stem, OutputTransaction& outputs, const SimProgress& progress);

// Beyond SimKind::lists, the parameters a definition may list several values of, read from the
// definition itself (alpha_spread: the one its curves and its panels are by), and the hint a
// refusal of a list gives for `key` (empty: the generic "in KIND only ... may list several").
struct SimListRule {
  std::vector<std::string> lists;
  std::function<std::string(const std::string& key)> hint;
};

struct SimKind {
  std::string name;
  std::string description;           // one line: what its figure shows
  std::vector<std::string> keys;     // the parameters it reads: any other is refused
  std::vector<std::string> lists;    // of those, the ones that may list several values
  std::vector<std::string> texts;    // of those, the text ones (a string, not a number list)
  SimRun run;
  // Checks the definition's parameters beyond the table's (throwing InvalidArgument("sim",
  // where + ...)) and returns its further lists; null when it has none.
  SimListRule (*list_rule)(const nlohmann::json& parameters, const std::string& where) = nullptr;
};

// Every simulation kind, in the order the documentation lists them.
const std::vector<SimKind>& simulation_kinds();
// The kind of that name, or null.
const SimKind* find_simulation_kind(const std::string& name);

// Runs the definition's kind (with its smoke overrides when `smoke`), staging NAME.csv (and a
// page of the paper's method's cache files) in out_dir into `outputs`, for the caller to commit
// with its own files; the figures layer draws the result (draw_sim). Grid points run in parallel;
// the grid kinds resume from and write sim_checkpoint_path, and the grid kinds and point_sets (one
// point per alpha) report their points to `progress`; c_threshold and cosine_heatmap (seconds at
// most) do not. Errors name the definition (rethrow_naming_definition).
SimData run_sim(const SimDefinition& definition, const std::string& out_dir, bool smoke, OutputTransaction& outputs,
                const SimProgress& progress = {});

}  // namespace geomsim
