// The tables of simulation kinds (experiments/sim_kinds.hpp) and of their drawings
// (figures/sim_figures.hpp): one drawing per kind, in the same order, and nothing else naming
// the kinds; a definition is checked against its kind's line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <set>

#include "geomsim/experiments/sim_kinds.hpp"
#include "geomsim/figures/sim_figures.hpp"
#include "scratch_folder.hpp"

using namespace geomsim;
using geomsim::testing::refusal;
using geomsim::testing::ScratchFolder;

TEST_CASE("Every simulation kind has one drawing, in the order of the table of kinds", "[figures][sims]") {
  const auto& kinds = simulation_kinds();
  const auto& figures = sim_figures();
  REQUIRE(kinds.size() == figures.size());
  std::set<std::string> names;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    CAPTURE(kinds[i].name);
    CHECK(figures[i].kind == kinds[i].name);
    CHECK(names.insert(kinds[i].name).second);  // each name once
    CHECK(find_simulation_kind(kinds[i].name) == &kinds[i]);
    CHECK(kinds[i].run != nullptr);
    CHECK(figures[i].draw != nullptr);
    CHECK_FALSE(kinds[i].description.empty());
    // The lists and the text parameters are parameters the kind reads.
    for (const auto* part : {&kinds[i].lists, &kinds[i].texts}) {
      for (const auto& key : *part) CHECK(std::count(kinds[i].keys.begin(), kinds[i].keys.end(), key) == 1);
    }
  }
  CHECK(find_simulation_kind("transfer") == nullptr);  // a training kind: geomsim-torch's table
}

TEST_CASE("A definition is checked against its kind's line of the table", "[figures][sims]") {
  ScratchFolder dir("definition-kinds");
  std::ofstream(dir("u.json")) << R"({"name": "u", "title": "t", "kind": "no_such_kind", "parameters": {}})";
  CHECK(refusal([&] { load_sim_definition(dir("u.json")); }) == "--sim " + dir("u.json") + ": unknown kind \"no_such_kind\"");
  CHECK(refusal([&] { load_sim_definition(dir("u.json"), {"no_such_kind"}); }).empty());  // another program's kind
  std::ofstream(dir("c.json")) << R"({"name": "c", "title": "t", "kind": "c_threshold", "parameters": {"tau": [0.5], "d": [2], "K": 2}})";
  CHECK(refusal([&] { load_sim_definition(dir("c.json")); }) ==
        "--sim " + dir("c.json") + ": definition 'c' (c_threshold): parameter 'K' is not one that c_threshold reads (\"tau\", \"d\")");
}
