#pragma once
// The experiment definitions of sims/ and the figures they make.
//
// A definition is a JSON file: a name, a title, a kind, the paper's claim, and the kind's
// parameters (with a reduced "smoke" variant for CI). Running one writes NAME.csv (the data),
// NAME.png/.svg/.gp (the figure) and returns a markdown section that sets what was measured
// beside the theory's prediction. Kinds:
//   alpha_spread    spread against alpha, one curve per d or per tau, theory overlaid (Figs. 6, 8)
//   c_threshold     c(tau, d) and the exact window end against d, one curve per tau (Fig. 5)
//   point_sets      the optimal points on S^1 or S^2 for several alpha, classes coloured (Figs. 4, 7)
//   cosine_heatmap  the cosine-similarity matrix sorted by class and atom (Fig. 2's insets)
//   phase_diagram   the geometry over the (alpha, tau) plane with the theory's boundaries
//   onset_vs_d      where spread starts and saturates in alpha, against d
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace geomsim {

// The largest definition file read (sims/'s are under 10 kB): a bigger one is refused unread.
inline constexpr std::uint64_t kMaxSimDefinitionBytes = std::uint64_t{1} << 20;

class OutputTransaction;

struct SimDefinition {
  std::string path;    // the file it came from
  std::string name;    // file stem of every output
  std::string title;
  std::string kind;
  std::string paper;   // what the paper says (or "beyond the paper")
  std::string notes;   // what we found, written after looking at the output
  std::string parameters_json;  // the kind's parameters
  std::string smoke_json;       // overrides for a tiny CI grid (may be "{}")
};

// The kinds run_sim runs (the simulations).
const std::vector<std::string>& simulation_kinds();

// Reads and validates a definition. Its kind must be a simulation kind or one of
// `other_kinds` (the training kinds, which geomsim-torch runs; their parameters are not
// checked here). Throws InvalidArgument("sim") naming the file and field, and for a file that is
// not a regular one (a FIFO), is larger than kMaxSimDefinitionBytes or nests its JSON more than
// kMaxJsonDepth levels deep.
SimDefinition load_sim_definition(const std::string& path, const std::vector<std::string>& other_kinds = {});

struct SimResult {
  std::string markdown;  // the report section (without the page title)
  double seconds = 0.0;
  // For the sweep kinds: the grid's points, and how many of them were read from the CSV that
  // the output already held (solved before with the same settings) instead of solved again.
  std::size_t sweep_points = 0, cached_points = 0;
  // The files of OUT those cached points were read from besides the checkpoint: "NAME.csv", or
  // for a page of the paper's method "NAME.paper-method.csv and NAME.default-solve.csv".
  std::string cache_files = "";
};

// Progress within a definition: called (serialised, from the thread that finished the point) once
// before any point is solved, with the points found in the checkpoint as `done`, then after each
// finished point, with the points done so far and the definition's total.
using SimProgress = std::function<void(std::size_t done, std::size_t total)>;

// Where the grid kinds (alpha_spread, phase_diagram, onset_vs_d) keep the points they have
// finished while they run: OUT/NAME.partial.csv, a sweep CSV rewritten atomically at most once a
// second. A later run of the same definition solves only the points missing there (rows solved
// with other seeds, solver, restarts or atom tolerance are ignored: the checkpoint of an edited
// definition is solved again). The caller removes it once the definition's files have landed.
std::string sim_checkpoint_path(const std::string& out_dir, const SimDefinition& definition);

// Runs the definition (with its smoke overrides when `smoke`) and stages NAME.csv, NAME.png,
// NAME.svg and NAME.gp in out_dir into `outputs`, for the caller to commit with its own files.
// Grid points run in parallel; the grid kinds resume from and write sim_checkpoint_path, and
// the grid kinds and point_sets (one point per alpha) report their points to `progress`;
// c_threshold and cosine_heatmap (seconds at most) do not.
SimResult run_sim(const SimDefinition& definition, const std::string& out_dir, bool smoke, OutputTransaction& outputs,
                  const SimProgress& progress = {});

}  // namespace geomsim
