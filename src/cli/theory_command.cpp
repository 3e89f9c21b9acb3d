#include "theory_command.hpp"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "geomsim/atomic_output.hpp"
#include "geomsim/errors.hpp"
#include "geomsim/two_class_theory.hpp"
#include "geomsim/wiener_constant.hpp"

namespace geomsim::cli {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
std::string optional_text(const std::optional<double>& v, const std::string& missing, int digits = 10) {
  return v ? fixed(*v, digits) : missing;
}

}  // namespace

void add_theory_options(CLI::App& command, TheoryOptions& o) {
  command.add_option("--tau", o.tau, "temperature(s) tau > 0: a value, a list 0.1,0.5 or a range 0.1:1:0.1")
      ->capture_default_str();
  command.add_option("--d", o.d, "dimension(s) d >= 2 of the ambient space (sphere S^{d-1}), e.g. 2,3,5,10,128")
      ->capture_default_str();
  o.alpha_option = command.add_option("--alpha", o.alpha, "also predict theta* and the spread at this alpha in [0, 1]");
  command.add_option("--K", o.K, "number of classes; the predictions are Theorem 2's, for K = 2")
      ->capture_default_str();
  command.add_option("--json", o.json_path, "write the table as one JSON object to FILE");
  command.add_flag("--quiet,-q", o.quiet, "print nothing on stdout (use with --json)");
}

int run_theory(const TheoryOptions& o) {
  const std::vector<double> taus = parse_number_list(o.tau, "tau");
  std::vector<int> dims;
  for (double v : parse_number_list(o.d, "d")) {
    if (v != std::floor(v) || v < 2 || v > 1e6) throw InvalidArgument("d", "must be whole numbers in [2, 1000000], got " + format_number(v));
    dims.push_back(static_cast<int>(v));
  }
  for (double tau : taus) {
    require_positive("tau", tau);
    if (tau < 1.0 / 700.0) throw InvalidArgument("tau", "must be >= 1/700 (the Bessel series' range), got " + format_number(tau));
  }
  const bool with_alpha = o.alpha_option != nullptr && o.alpha_option->count() > 0;
  if (with_alpha) require_in_closed_range("alpha", o.alpha, 0.0, 1.0);
  if (o.K != 2) {
    throw InvalidArgument("K", "must be 2: the theory predictions implemented so far are Theorem 2's (K = 2); got " +
                                   std::to_string(o.K));
  }
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");

  json rows = json::array();
  std::ostringstream text;
  text << "geomsim theory: seed 004, Theorem 2 and Corollary 1 (K = 2)\n\n";
  text << std::left << std::setw(8) << "tau" << std::setw(7) << "d" << std::setw(20) << "W" << std::setw(20) << "log W"
       << std::setw(15) << "c(tau,d)" << std::setw(15) << "exact end" << std::setw(15) << "theta* bound";
  if (with_alpha) text << std::setw(15) << "theta*" << "spread";
  text << "\n";
  for (double tau : taus) {
    for (int d : dims) {
      const double log_w = log_wiener_constant(tau, d);
      const auto c = c_threshold(tau, d);
      const auto exact = exact_crossover(tau, d);
      const double bound = theta_star_existence_bound(tau);
      json row = {{"tau", tau},
                  {"d", d},
                  {"W", std::exp(log_w)},
                  {"log_W", log_w},
                  {"c", optional_json(c)},
                  {"exact_crossover", optional_json(exact)},
                  {"theta_star_existence_bound", bound},
                  {"window", {{"lower", 2.0 / 3.0},
                              {"paper_upper", c ? json(std::min(*c, bound)) : json(nullptr)},
                              {"exact_upper", optional_json(exact)}}}};
      text << std::left << std::setw(8) << fixed(tau, 6) << std::setw(7) << d << std::setw(20) << fixed(std::exp(log_w), 12)
           << std::setw(20) << fixed(log_w, 14) << std::setw(15) << optional_text(c, "undefined") << std::setw(15)
           << optional_text(exact, "none") << std::setw(15) << fixed(bound, 10);
      if (with_alpha) {
        const auto theta = theta_star(o.alpha, tau);
        const auto spread = spread_star(o.alpha, tau);
        row["alpha"] = o.alpha;
        row["theta_star"] = optional_json(theta);
        row["spread"] = optional_json(spread);
        text << std::setw(15) << optional_text(theta, "none (collapse or beyond)") << optional_text(spread, "");
      }
      text << "\n";
      rows.push_back(row);
    }
  }
  text << "\nThe window for theta* is (2/3, min(c, theta* bound)) as the theorem states it; its exact end is\n"
          "where L(mu_theta*) = L(sigma) (TOMS748). theta* needs alpha < theta* bound, which the paper omits.\n";

  OutputTransaction outputs;
  if (!o.json_path.empty()) {
    json out = {{"command", "theory"},
                {"parameters", {{"tau", taus}, {"d", dims}, {"K", o.K}, {"alpha", with_alpha ? json(o.alpha) : json(nullptr)}}},
                {"rows", rows}};
    outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  }
  outputs.commit();
  if (!o.quiet) std::cout << text.str() << std::flush;
  return 0;
}

}  // namespace geomsim::cli
