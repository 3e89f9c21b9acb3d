#pragma once
// The figures and pages of the sims/ definitions that geomsim solves: what a simulation kind's run
// computed (experiments/sim_kinds.hpp, which also stages NAME.csv) drawn as NAME.png/.svg/.gp,
// with the markdown section that sets what was measured beside the theory's prediction. One
// drawing per kind of the experiments layer's table, in a table of its own keyed by the kind's name.
#include <string>
#include <vector>

#include "geomsim/experiments/sim_kinds.hpp"

namespace geomsim {

class OutputTransaction;

// Draws `data` into stem's NAME.png/.svg/.gp (staged into `outputs`) and returns the page's
// section (markdown, without the page title).
using SimDraw = std::string (*)(const SimDefinition& definition, const SimData& data, const std::string& stem,
                                OutputTransaction& outputs);

struct SimFigure {
  std::string kind;  // a name of simulation_kinds()
  SimDraw draw;
};

// One drawing for every simulation kind, in the order of simulation_kinds().
const std::vector<SimFigure>& sim_figures();

// Draws what run_sim computed for `definition` into out_dir and returns the page's section.
// Errors name the definition (rethrow_naming_definition).
std::string draw_sim(const SimDefinition& definition, const SimData& data, const std::string& out_dir, OutputTransaction& outputs);

}  // namespace geomsim
