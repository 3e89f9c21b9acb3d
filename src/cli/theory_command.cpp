#include "theory_command.hpp"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/theory/symmetric_split.hpp"
#include "geomsim/theory/wiener_constant.hpp"

namespace geomsim::cli {
namespace {

using nlohmann::json;

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }
// The most rows one table holds: each costs a root-finding (the exact crossover), and 10^10
// rows (--tau 0.0015:100:0.001 --d 2:100000:1) would run for days.
constexpr double kMaxTheoryRows = 100000;

std::string optional_text(const std::optional<double>& v, const std::string& missing, int digits = 10) {
  return v ? fixed(*v, digits) : missing;
}

}  // namespace

void add_theory_options(CLI::App& command, TheoryOptions& o) {
  command.footer("The table has one row per (tau, d): at most " + std::to_string(static_cast<long>(kMaxTheoryRows)) + " rows.");
  command.add_option("--tau", o.tau, "temperature(s) tau >= 1/700 (the Bessel series' range): a value, a list 0.1,0.5 or a range 0.1:1:0.1")
      ->capture_default_str();
  command.add_option("--d", o.d, "dimension(s) d >= 2 of the ambient space (sphere S^{d-1}), e.g. 2,3,5,10,128")
      ->capture_default_str();
  o.alpha_option = command.add_option("--alpha", o.alpha, "also predict theta* and the spread at this alpha in [0, 1]");
  command.add_option("--K", o.K,
                     "number of classes K in [2, 10000]: K = 2 is Theorem 2; K > 2 is the symmetric split "
                     "(theory/general-k-symmetric-split.md), defined for d >= K")
      ->capture_default_str();
  command.add_option("--json", o.json_path, "write the table as one JSON object to FILE");
  command.add_flag("--quiet,-q", o.quiet, "print nothing on stdout (use with --json)");
}

int run_theory(const TheoryOptions& o) {
  const std::vector<double> taus = parse_number_list(o.tau, "tau");
  const std::vector<int> dims = parse_integer_list(o.d, "d", 2, 1000000);
  for (double tau : taus) {
    require_positive("tau", tau);
    if (tau < kMinWienerTemperature) throw InvalidArgument("tau", "must be >= 1/700 (the Bessel series' range), got " + format_number(tau));
  }
  const bool with_alpha = o.alpha_option != nullptr && o.alpha_option->count() > 0;
  if (with_alpha) require_in_closed_range("alpha", o.alpha, 0.0, 1.0);
  if (o.K < 2 || o.K > 10000) throw InvalidArgument("K", "must be in [2, 10000], got " + std::to_string(o.K));
  require_distinct_files({{"json", o.json_path}});
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");

  const double rows_asked = static_cast<double>(taus.size()) * static_cast<double>(dims.size());
  if (rows_asked > kMaxTheoryRows) {
    throw InvalidArgument(taus.size() >= dims.size() ? "tau" : "d",
                          "makes a table of " + std::to_string(taus.size()) + " x " + std::to_string(dims.size()) + " = " +
                              format_number(rows_asked) + " rows (tau x d), more than the " + std::to_string(static_cast<long>(kMaxTheoryRows)) +
                              " one table holds; use shorter lists");
  }

  const SymmetricSplit shared(o.K, SplitDirections::shared);
  const SymmetricSplit orthogonal(o.K, SplitDirections::orthogonal);
  const double threshold = shared.threshold();
  json rows = json::array();
  std::ostringstream text;
  if (o.K == 2) {
    text << "geomsim theory: seed 004, Theorem 2 and Corollary 1 (K = 2)\n\n";
  } else {
    text << "geomsim theory: the symmetric split of K = " << o.K << " classes along a shared direction, d >= K\n"
         << "(Theorem 2 generalised; collapse below alpha = K/(2K-1) = " << fixed(threshold, 10) << ")\n\n";
  }
  // The table as cells first: each column is as wide as its widest cell and two spaces, so that
  // no value runs into the next (d = 10^6, tau = 1000).
  std::vector<std::vector<std::string>> table;
  table.push_back({"tau", "d", "W", "log W", o.K == 2 ? "c(tau,d)" : "c_K(tau,d)", "exact end", "theta* bound"});
  if (with_alpha) {
    table.back().push_back("theta*");
    table.back().push_back("spread");
  }
  bool any_below_K = false, any_above_K = false;
  for (double tau : taus) {
    for (int d : dims) {
      const double log_w = log_wiener_constant(tau, d);
      const bool exists = d >= o.K;
      any_below_K = any_below_K || !exists;
      any_above_K = any_above_K || d > o.K;
      std::optional<double> c, exact;
      if (exists) {
        c = relaxed_window_end(o.K, tau, d);
        exact = shared.exact_crossover(tau, d);
      }
      const double bound = shared.existence_bound(tau);
      json row = {{"tau", tau},
                  {"d", d},
                  {"W", std::exp(log_w)},
                  {"log_W", log_w},
                  {"c", optional_json(c)},
                  {"exact_crossover", optional_json(exact)},
                  {"theta_star_existence_bound", bound},
                  {"window", {{"lower", threshold},
                              {"paper_upper", c ? json(std::min(*c, bound)) : json(nullptr)},
                              {"exact_upper", optional_json(exact)}}}};
      std::vector<std::string> cells = {fixed(tau, 6),
                                        std::to_string(d),
                                        fixed(std::exp(log_w), 12),
                                        fixed(log_w, 14),
                                        optional_text(c, exists ? "undefined" : "n/a (d < K)"),
                                        optional_text(exact, exists ? "none" : "n/a"),
                                        fixed(bound, 10)};
      if (with_alpha) {
        std::optional<double> theta, spread, min_loss;
        if (exists) {
          theta = shared.theta_star(o.alpha, tau);
          spread = shared.spread(o.alpha, tau);
          min_loss = shared.min_loss(o.alpha, tau);
        }
        row["alpha"] = o.alpha;
        row["theta_star"] = optional_json(theta);
        row["spread"] = optional_json(spread);
        row["min_loss"] = optional_json(min_loss);
        if (d >= min_dimension(o.K, SplitDirections::orthogonal)) {
          row["orthogonal_split"] = {{"theta_star", optional_json(orthogonal.theta_star(o.alpha, tau))},
                                     {"spread", optional_json(orthogonal.spread(o.alpha, tau))},
                                     {"min_loss", optional_json(orthogonal.min_loss(o.alpha, tau))}};
        }
        cells.push_back(optional_text(theta, exists ? "none (collapse or beyond)" : "n/a"));
        cells.push_back(optional_text(spread, ""));
      }
      table.push_back(std::move(cells));
      rows.push_back(row);
    }
  }
  std::vector<std::size_t> widths(table.front().size(), 0);
  for (const auto& cells : table) {
    for (std::size_t k = 0; k < cells.size(); ++k) widths[k] = std::max(widths[k], cells[k].size() + 2);
  }
  for (const auto& cells : table) {
    std::string line;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      line += cells[k];
      if (k + 1 < cells.size()) line += std::string(widths[k] - cells[k].size(), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text << line << "\n";
  }
  text << "\nThe window for theta* is (" << (o.K == 2 ? "2/3" : "K/(2K-1)")
       << ", min(c, theta* bound)) as the relaxation gives it; its exact end is where the\n"
          "split's minimum equals L(sigma) (TOMS748). theta* needs alpha < theta* bound, which the paper omits.\n";
  if (any_below_K) text << "n/a: the split needs d >= K (the simplex spans K - 1 dimensions, the split one more).\n";
  if (any_above_K) {
    text << "For d > K the split is not the optimum: the classes spread into caps of the orthogonal complement\n"
            "(loss below the split's; the threshold is unchanged). See theory/general-k-symmetric-split.md.\n";
  }

  OutputTransaction outputs;
  if (!o.json_path.empty()) {
    json out = {{"command", "theory"},
                {"parameters", {{"tau", taus}, {"d", dims}, {"K", o.K}, {"alpha", with_alpha ? json(o.alpha) : json(nullptr)}}},
                {"family", o.K == 2 ? "mu_theta (Theorem 2)" : "symmetric split, shared direction"},
                {"threshold", threshold},
                {"rows", rows}};
    outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  }
  outputs.commit();
  if (!o.quiet) std::cout << text.str() << std::flush;
  return 0;
}

}  // namespace geomsim::cli
