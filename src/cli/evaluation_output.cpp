#include "evaluation_output.hpp"

#include <sched.h>

#include <sstream>
#include <thread>

#include "cli_support.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::cli {

using nlohmann::json;

json geometry_json(const train::EmbeddingGeometry& g) {
  const auto optional = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  json out = {{"spread", g.spread},
              {"subclass_sigma", g.subclass_sigma},
              {"sigma_over_spread", optional(g.sigma_over_spread)},
              {"gamma", g.gamma},
              {"subclass_pairs", g.pairs},
              {"margin_error", g.margin_error},
              {"theorem3_bounded_pairs", g.bounded_pairs},
              {"theorem3_bound", nullptr},
              {"theorem3_bound_holds", g.bound_holds}};
  if (g.theorem3_bound) out["theorem3_bound"] = *g.theorem3_bound;
  out["class_spread"] = g.class_spread;
  json subclasses = json::array();
  for (const auto& s : g.subclasses) {
    subclasses.push_back({{"subclass", s.subclass}, {"class", s.label}, {"count", s.count}, {"sigma", s.sigma},
                          {"sigma_over_spread", optional(s.sigma_over_spread)}});
  }
  out["subclasses"] = subclasses;
  json pairs = json::array();
  for (const auto& p : g.pair_details) {
    pairs.push_back({{"z", p.z}, {"z_prime", p.z_prime}, {"margin_error", p.margin_error}, {"r", p.r},
                     {"theorem3_bound", p.bound ? json(*p.bound) : json(nullptr)}});
  }
  out["pairs"] = pairs;
  return out;
}

json evaluation_json(const train::TransferEvaluation& e) {
  json out = {{"coarse_accuracy_linear_probe", e.coarse_accuracy},
              {"fine_accuracy_linear_probe", e.fine_accuracy_probe},
              {"fine_accuracy_mean_classifier", e.fine_accuracy_mean},
              {"subgroup_recovery_f1", e.subgroup_f1}};
  out.update(geometry_json(e.geometry));
  return out;
}

std::string evaluation_text(const json& e) {
  static const std::pair<const char*, const char*> rows[] = {
      {"coarse_accuracy_linear_probe", "coarse accuracy (linear probe)"},
      {"fine_accuracy_linear_probe", "coarse-to-fine accuracy (linear probe)"},
      {"fine_accuracy_mean_classifier", "coarse-to-fine accuracy (mean classif.)"},
      {"spread", "spread s_f(y)"},
      {"subclass_sigma", "subclass sigma_f(z)"},
      {"sigma_over_spread", "sigma_f(z) / s_f(y)"},
      {"margin_error", "gamma-margin error L_gamma (mean clf.)"},
      {"subgroup_recovery_f1", "subgroup recovery (k-means macro F1)"}};
  std::ostringstream text;
  const auto line = [&](const std::string& name, const std::string& value) {
    text << "  " << name << std::string(name.size() < 40 ? 40 - name.size() : 1, ' ') << value << "\n";
  };
  for (const auto& [key, name] : rows) {
    if (!e.contains(key)) continue;
    // The one value that can be undefined: sigma_f(z) / s_f(y) when every class is one point.
    line(name, e[key].is_null() ? std::string("n/a (every class is collapsed to a point: s_f(y) = 0)") : fixed(e[key].get<double>(), 4));
  }
  if (e.contains("theorem3_bound")) {
    const std::string pairs = std::to_string(e["theorem3_bounded_pairs"].get<int>()) + " of " +
                              std::to_string(e["subclass_pairs"].get<int>()) + " pairs";
    line("Theorem 3 bound, gamma " + format_number(e["gamma"].get<double>()),
         e["theorem3_bound"].is_null() ? "vacuous for all " + std::to_string(e["subclass_pairs"].get<int>()) + " pairs"
                                       : fixed(e["theorem3_bound"].get<double>(), 4) + " (mean over " + pairs + "; holds for " +
                                             std::to_string(e["theorem3_bound_holds"].get<int>()) + ")");
  }
  return text.str();
}

void set_torch_threads(int threads) {
  // More threads than cores never speeds up this CPU work, and libtorch would start every one
  // (--threads 100000 did not come back).
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  const int cores = sched_getaffinity(0, sizeof allowed, &allowed) == 0
                        ? CPU_COUNT(&allowed)
                        : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (threads < 0 || threads > cores) {
    throw InvalidArgument("threads", "must be in [0, " + std::to_string(cores) + "] (0: all " + std::to_string(cores) +
                                         " cores this process may use), got " + std::to_string(threads));
  }
  torch::set_num_threads(threads > 0 ? threads : cores);
}

}  // namespace geomsim::cli
