#pragma once
// The experiment definitions of sims/: one JSON file each, read and checked here against the
// table of simulation kinds (sim_kinds.hpp), and the readers of a definition's parameters.
//
// A definition is a JSON file: a name, a title, a kind, the paper's claim, and the kind's
// parameters (with a reduced "smoke" variant for CI). The experiments layer runs a simulation
// kind's definition (sim_kinds.hpp: the solves, NAME.csv); the figures layer draws it
// (figures/sim_figures.hpp: NAME.png/.svg/.gp and the page's markdown).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/experiments/spread_problem.hpp"

namespace geomsim {

// The largest definition file read (sims/'s are under 10 kB): a bigger one is refused unread.
inline constexpr std::uint64_t kMaxSimDefinitionBytes = std::uint64_t{1} << 20;

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

// Reads and validates a definition. Its kind must be a simulation kind (simulation_kinds(),
// whose entry says which parameters it reads) or one of `other_kinds` (the training kinds, which
// geomsim-torch runs; their parameters are not checked here). Throws InvalidArgument("sim")
// naming the file and field, and for a file that is not a regular one (a FIFO), is larger than
// kMaxSimDefinitionBytes or nests its JSON more than kMaxJsonDepth levels deep.
SimDefinition load_sim_definition(const std::string& path, const std::vector<std::string>& other_kinds = {});

// The definition's parameters, with its smoke grid's overrides when `smoke`.
nlohmann::json sim_parameters(const SimDefinition& definition, bool smoke);

// Where the grid kinds (alpha_spread, phase_diagram, onset_vs_d) keep the points they have
// finished while they run: OUT/NAME.partial.csv, a sweep CSV rewritten atomically at most once a
// second. A later run of the same definition solves only the points missing there (rows solved
// with other seeds, solver, restarts or atom tolerance are ignored: the checkpoint of an edited
// definition is solved again). The caller removes it once the definition's files have landed.
inline constexpr const char* kSimCheckpointSuffix = ".partial.csv";
std::string sim_checkpoint_path(const std::string& out_dir, const SimDefinition& definition);

// Called inside a catch block while a definition runs or is drawn: rethrows the exception being
// handled as InvalidArgument("sim") naming the definition's file (and the definition, and the
// parameter where the error names one); errors of the output ("out") pass unchanged.
[[noreturn]] void rethrow_naming_definition(const SimDefinition& definition);

// ---- the readers of a definition's parameters ------------------------------------------------
// Each throws InvalidArgument("sim", "parameter 'KEY' ...") for a missing or malformed value.

// A parameter as list text: a number, an array of numbers, or a string ("0.5:0.9:0.1");
// `fallback` when it is missing (an error when the fallback is empty).
std::string parameter_list_text(const nlohmann::json& parameters, const std::string& key, const std::string& fallback = "");
// Its values in the list syntax of the command line (support/number_lists.hpp).
std::vector<double> parameter_numbers(const nlohmann::json& parameters, const std::string& key);
std::vector<int> parameter_integers(const nlohmann::json& parameters, const std::string& key, int lo);
// One value, refused when the parameter lists several.
int parameter_integer(const nlohmann::json& parameters, const std::string& key, int lo);
double parameter_real(const nlohmann::json& parameters, const std::string& key);
// A text parameter, or `fallback` when it is missing; `example` shows the form in the message.
std::string parameter_text(const nlohmann::json& parameters, const std::string& key, const std::string& fallback,
                           const std::string& example);
// "seeds" (default "0:4", its text kept in `seeds_text`), "solver" (default "auto") and "restarts".
SolveSettings parameter_solve_settings(const nlohmann::json& parameters, std::string& seeds_text);

}  // namespace geomsim
