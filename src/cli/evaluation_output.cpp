#include "evaluation_output.hpp"

#include <map>
#include <sstream>

#include "cli_support.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::cli {

using nlohmann::json;

std::string evaluation_text(const json& e) {
  static const std::pair<const char*, const char*> rows[] = {
      {"coarse_accuracy_linear_probe", "coarse accuracy (linear probe)"},
      {"coarse_accuracy_head", "coarse accuracy (cross-entropy head)"},
      {"fine_accuracy_linear_probe", "coarse-to-fine accuracy (linear probe)"},
      {"fine_accuracy_mean_classifier", "coarse-to-fine accuracy (mean classif.)"},
      {"spread", "spread s_f(y)"},
      {"subclass_sigma", "subclass sigma_f(z)"},
      {"sigma_over_spread", "sigma_f(z) / s_f(y)"},
      {"margin_error", "gamma-margin error L_gamma (mean clf.)"},
      {"subgroup_recovery_f1", "subgroup recovery (k-means macro F1)"},
      {"uniformity", "uniformity L_unif (t = 2)"},
      {"alignment_same_class", "alignment, same-class pairs"},
      {"nc4_agreement", "NC4: nearest class mean = prediction"}};
  std::ostringstream text;
  const auto line = [&](const std::string& name, const std::string& value) {
    text << "  " << name << std::string(name.size() < 40 ? 40 - name.size() : 1, ' ') << value << "\n";
  };
  for (const auto& [key, name] : rows) {
    if (!e.contains(key)) continue;
    if (e[key].is_number()) {
      line(name, fixed(e[key].get<double>(), 4));
    } else if (std::string(key) == "sigma_over_spread" && e[key].is_null()) {  // the one ratio that can be 0/0
      line(name, "n/a (every class is collapsed to a point: s_f(y) = 0)");
    }
  }
  for (const char* key : {"neural_collapse_classes", "neural_collapse_subclasses"}) {
    if (!e.contains(key) || e[key].is_null()) continue;
    const auto& nc = e[key];
    const auto value = [&](const char* k) { return nc[k].is_null() ? std::string("n/a") : fixed(nc[k].get<double>(), 4); };
    line(std::string("NC1 / NC2 equinorm, angle (") + (key[16] == 'c' ? "classes" : "subclasses") + ")",
         value("nc1") + " / " + value("nc2_equinorm") + ", " + value("nc2_equiangularity"));
  }
  if (e.contains("corruption")) {  // --corruptions: the fine probe under corruption, by severity 1..5
    const auto& c = e["corruption"];
    const auto by_severity = [&](const char* key) {
      std::string out;
      for (const auto& v : c[key]) out += (out.empty() ? "" : " / ") + fixed(v.get<double>(), 4);
      return out;
    };
    line("corrupted accuracy, severity 1..5", by_severity("accuracy_by_severity") + " (clean " + fixed(c["clean_accuracy"].get<double>(), 4) + ")");
    line("ECE (15 bins), severity 1..5", by_severity("ece_by_severity") + " (clean " + fixed(c["clean_ece"].get<double>(), 4) + ")");
    line("mean corruption error", fixed(c["mean_error"].get<double>(), 4));
  }
  if (e.contains("sigma_over_spread_max") && e["sigma_over_spread_max"].is_number()) line("sigma_f(z) / s_f(y), max over subclasses", fixed(e["sigma_over_spread_max"].get<double>(), 4));
  if (e.contains("theorem3_bound")) {
    const int pairs = e["subclass_pairs"].get<int>();
    const std::string counted = std::to_string(e["theorem3_bounded_pairs"].get<int>()) + " of " + std::to_string(pairs) + " pairs";
    std::string value;
    if (pairs == 0) {
      value = "not applicable: no class has exactly two subclasses";
    } else if (e["theorem3_bound"].is_null()) {
      value = "vacuous for all " + std::to_string(pairs) + " pairs";
    } else {
      value = fixed(e["theorem3_bound"].get<double>(), 4) + " (mean over " + counted + "; holds for " +
              std::to_string(e["theorem3_bound_holds"].get<int>()) + ")";
    }
    line("Theorem 3 bound, gamma " + format_number(e["gamma"].get<double>()), value);
    if (e.contains("theorem3_classes")) {
      std::map<std::string, std::string> classes_by_reason;  // one line per reason
      for (const auto& c : e["theorem3_classes"]) {
        if (c["theorem3_applies"].get<bool>()) continue;
        auto& classes = classes_by_reason[c["reason"].get<std::string>()];
        classes += (classes.empty() ? "" : ", ") + std::to_string(c["class"].get<int>());
      }
      for (const auto& [reason, classes] : classes_by_reason) text << "    not for class " << classes << ": " << reason << "\n";
    }
  }
  if (e.contains("theorem3_boundary_holds")) {
    line("Theorem 3 boundary condition (delta " + format_number(e["theorem3_delta"].get<double>()) + ")",
         "in force for " + std::to_string(e["theorem3_boundary_holds"].get<int>()) + " of " +
             std::to_string(e["subclass_pairs"].get<int>()) + " pairs");
  }
  if (e.contains("strata_lemmas")) {
    const auto& s = e["strata_lemmas"];
    const auto lambda = [&](const char* k) { return s[k].is_null() ? std::string("none") : fixed(s[k].get<double>(), 4); };
    line("mean classifier loss, z / y", fixed(s["transfer_loss"].get<double>(), 4) + " / " +
                                                                        fixed(s["original_loss"].get<double>(), 4));
    if (s.contains("transfer_best_loss")) {
      line("at its best scale lambda, z / y", fixed(s["transfer_best_loss"].get<double>(), 4) + " / " +
                                                  fixed(s["original_best_loss"].get<double>(), 4) + " (lambda " +
                                                  fixed(s["transfer_best_scale"].get<double>(), 4) + " / " +
                                                  fixed(s["original_best_scale"].get<double>(), 4) + ")");
    }
    line("seed 000 Lemma 1 / 2 lambda", lambda("lemma1_lambda") + " / " + lambda("lemma2_lambda") + " (as printed: " +
                                                       lambda("lemma1_lambda_printed") + " / " + lambda("lemma2_lambda_printed") +
                                                       "; E_z |m_z|^2 " + fixed(s["mean_norm_squared"].get<double>(), 4) + ")");
  }
  return text.str();
}

}  // namespace geomsim::cli
