#include "geomsim/experiments/sim_definition.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "geomsim/experiments/sim_kinds.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/support/plain_text.hpp"

namespace geomsim {

using nlohmann::json;

std::string parameter_list_text(const json& params, const std::string& key, const std::string& fallback) {
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

std::vector<double> parameter_numbers(const json& p, const std::string& key) {
  return parse_number_list(parameter_list_text(p, key), key);
}

std::vector<int> parameter_integers(const json& p, const std::string& key, int lo) {
  return parse_integer_list(parameter_list_text(p, key), key, lo, 1000000);
}

int parameter_integer(const json& p, const std::string& key, int lo) {
  const auto v = parameter_integers(p, key, lo);
  if (v.size() != 1) throw InvalidArgument("sim", "parameter '" + key + "' must be one value");
  return v.front();
}

double parameter_real(const json& p, const std::string& key) {
  const auto v = parameter_numbers(p, key);
  if (v.size() != 1) throw InvalidArgument("sim", "parameter '" + key + "' must be one value");
  return v.front();
}

std::string parameter_text(const json& p, const std::string& key, const std::string& fallback, const std::string& example) {
  if (!p.contains(key)) return fallback;
  if (!p.at(key).is_string()) {
    throw InvalidArgument("sim", "parameter '" + key + "' must be a string such as \"" + example + "\", got " + json_excerpt(p.at(key)));
  }
  return p.at(key).get<std::string>();
}

SolveSettings parameter_solve_settings(const json& p, std::string& seeds_text) {
  SolveSettings s;
  seeds_text = parameter_text(p, "seeds", "0:4", "0:4");
  s.seeds = parse_seed_list(seeds_text, "seeds");
  s.solver = parameter_text(p, "solver", "auto", "auto");
  if (p.contains("restarts")) s.restarts = parameter_integer(p, "restarts", 0);  // missing: the solve's default
  return s;
}

namespace {

std::string quoted_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "\"" : ", \"") + n + "\"";
  return out;
}

bool lists_name(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// Refuses, naming the file, the definition and the key, a parameter the kind does not read, a
// list where one value is expected, and what the kind's own rule refuses (SimKind::list_rule).
void check_parameters(const SimDefinition& def, const SimKind& kind, const json& p, const std::string& which) {
  const std::string where = def.path + ": definition '" + def.name + "' (" + def.kind + ")" + which + ": ";
  for (const auto& [key, value] : p.items()) {
    if (!lists_name(kind.keys, key)) {
      throw InvalidArgument("sim", where + "parameter '" + key + "' is not one that " + def.kind + " reads (" + quoted_names(kind.keys) + ")");
    }
  }
  std::vector<std::string> lists = kind.lists;
  SimListRule rule;
  if (kind.list_rule) {
    rule = kind.list_rule(p, where);
    lists.insert(lists.end(), rule.lists.begin(), rule.lists.end());
  }
  for (const auto& key : kind.keys) {
    if (!p.contains(key) || lists_name(kind.texts, key) || lists_name(lists, key)) continue;
    std::size_t count = 0;
    try {
      count = parameter_numbers(p, key).size();
    } catch (const InvalidArgument& error) {
      const std::string said = error.argument() == "sim" ? error.requirement() : "parameter '" + key + "' " + error.requirement();
      throw InvalidArgument("sim", where + said);
    }
    if (count == 1) continue;
    std::string hint = rule.hint ? rule.hint(key) : std::string();
    if (hint.empty()) hint = "; in " + def.kind + " only " + (lists.empty() ? std::string("none") : quoted_names(lists)) + " may list several";
    throw InvalidArgument("sim", where + "parameter '" + key + "' lists " + std::to_string(count) + " values (" +
                                     parameter_list_text(p, key) + ") where one is expected" + hint);
  }
}

}  // namespace

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
  const SimKind* kind = find_simulation_kind(def.kind);
  if (!kind && !lists_name(other_kinds, def.kind)) throw InvalidArgument("sim", path + ": unknown kind \"" + def.kind + "\"");
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
  if (kind) {
    json parameters = j.value("parameters", json::object());
    check_parameters(def, *kind, parameters, "");
    parameters.update(j.value("smoke", json::object()));
    check_parameters(def, *kind, parameters, " with its smoke grid");
  }
  return def;
}

json sim_parameters(const SimDefinition& def, bool smoke) {
  json p = json::parse(def.parameters_json);
  if (smoke) p.update(json::parse(def.smoke_json));
  return p;
}

std::string sim_checkpoint_path(const std::string& out_dir, const SimDefinition& def) {
  return (std::filesystem::path(out_dir) / (def.name + kSimCheckpointSuffix)).string();
}

void rethrow_naming_definition(const SimDefinition& def) {
  try {
    throw;
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
}

}  // namespace geomsim
