#include "theory_command.hpp"

#include <algorithm>
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
  command.footer("The table has one row per (K, alpha, tau, d): at most " + std::to_string(static_cast<long>(kMaxTheoryRows)) +
                 " rows. Every option takes a list: whole numbers (--K, --d) as " + integer_list_forms() +
                 "; real numbers (--tau, --alpha) as " + number_list_forms() + ".");
  command.add_option("--tau", o.tau, "temperature(s) tau >= 1/700 (the Bessel series' range): a value, a list 0.1,0.5 or a range 0.1:1:0.1")
      ->capture_default_str();
  command.add_option("--d", o.d, "dimension(s) d >= 2 of the ambient space (sphere S^{d-1}), e.g. 2,3,5,10,128 or 2:10")
      ->capture_default_str();
  command.add_option("--alpha", o.alpha, "also predict theta* and the spread at these alpha in [0, 1], e.g. 0.7 or 0.6:0.9:0.1");
  command.add_option("--K", o.K,
                     "numbers of classes K in [2, 10000], e.g. 2 or 2:5: K = 2 is Theorem 2; K > 2 is the symmetric split "
                     "(theory/general-k-symmetric-split.md), defined for d >= K")
      ->capture_default_str();
  command.add_option("--json", o.json_path, "write the table as one JSON object to FILE");
  command.add_flag("--quiet,-q", o.quiet, "print nothing on stdout (use with --json)");
}

namespace {

// The table asked for: its lists, parsed and checked.
struct TheoryGrid {
  std::vector<double> taus, alphas;
  std::vector<int> dims, classes;
  bool with_alpha = false;
  bool one_K() const { return classes.size() == 1; }
  bool only_two() const { return std::all_of(classes.begin(), classes.end(), [](int K) { return K == 2; }); }
  bool alpha_column() const { return with_alpha && alphas.size() > 1; }
};

// Refuses (InvalidArgument naming the option) a bad value, and a table of more than
// kMaxTheoryRows rows, naming the first of its longest lists.
TheoryGrid plan_theory_table(const TheoryOptions& o) {
  TheoryGrid g;
  g.taus = parse_number_list(o.tau, "tau");
  g.dims = parse_integer_list(o.d, "d", 2, 1000000);
  g.classes = parse_integer_list(o.K, "K", 2, 10000);
  g.with_alpha = !o.alpha.empty();
  g.alphas = g.with_alpha ? parse_number_list(o.alpha, "alpha") : std::vector<double>{0.0};
  for (double tau : g.taus) {
    require_positive("tau", tau);
    if (tau < kMinWienerTemperature) throw InvalidArgument("tau", "must be >= 1/700 (the Bessel series' range), got " + format_number(tau));
  }
  for (double alpha : g.alphas) require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_distinct_files({{"json", o.json_path}});
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");

  // Each list is at most kMaxListValues long, so the product is exact in a double.
  const std::vector<std::pair<std::string, std::size_t>> sizes = {
      {"K", g.classes.size()}, {"alpha", g.with_alpha ? g.alphas.size() : 1}, {"tau", g.taus.size()}, {"d", g.dims.size()}};
  double rows_asked = 1.0;
  std::string product, names;
  std::pair<std::string, std::size_t> longest = {"tau", 0};  // the first of the longest lists is named
  for (const auto& [name, size] : sizes) {
    if (name == "alpha" && !g.with_alpha) continue;
    if ((name == "K" || name == "alpha") && size == 1) continue;  // a single K or alpha is no factor
    rows_asked *= static_cast<double>(size);
    product += (product.empty() ? "" : " x ") + std::to_string(size);
    names += (names.empty() ? "" : " x ") + name;
    if (size > longest.second) longest = {name, size};
  }
  if (rows_asked > kMaxTheoryRows) {
    throw InvalidArgument(longest.first, "makes a table of " + product + " = " + format_number(rows_asked) + " rows (" + names +
                                             "), more than the " + std::to_string(static_cast<long>(kMaxTheoryRows)) +
                                             " one table holds; use shorter lists");
  }
  return g;
}

// The predictions of one (K, alpha, tau, d): its JSON row and its cells of the printed table.
struct TheoryRow {
  json row;
  std::vector<std::string> cells;
};

// Where alpha lies, said in the row: theta* and the spread are the split's stationary point
// whether or not the split beats uniform there (K = 3, alpha = 0.7, d = 16 lies past c_K = 0.625),
// so a value alone would read as a prediction of the optimum. {cell, JSON region}.
std::pair<std::string, json> alpha_region(double alpha, double threshold, const std::optional<double>& c,
                                          const std::optional<double>& exact, double bound) {
  if (alpha <= threshold) return {"no: collapse", "collapse"};
  if (c && alpha < std::min(*c, bound)) return {"yes", "window"};
  if (exact && alpha < *exact && alpha < bound) return {"past c, before exact end", "past_relaxed_end"};
  return {"no: past the end", "past_exact_end"};
}

TheoryRow theory_row(const TheoryGrid& g, int K, double alpha, double tau, int d) {
  const SymmetricSplit shared(K, SplitDirections::shared);
  const SymmetricSplit orthogonal(K, SplitDirections::orthogonal);
  const double threshold = shared.threshold();
  const double log_w = log_wiener_constant(tau, d);
  const bool exists = d >= K;
  std::optional<double> c, exact;
  if (exists) {
    c = relaxed_window_end(K, tau, d);
    exact = shared.exact_crossover(tau, d);
  }
  const double bound = shared.existence_bound(tau);
  TheoryRow r;
  r.row = {{"K", K},
           {"tau", tau},
           {"d", d},
           {"W", std::exp(log_w)},
           {"log_W", log_w},
           {"c", optional_json(c)},
           {"exact_crossover", optional_json(exact)},
           {"theta_star_existence_bound", bound},
           {"threshold", threshold},
           {"window", {{"lower", threshold},
                       {"paper_upper", c ? json(std::min(*c, bound)) : json(nullptr)},
                       {"exact_upper", optional_json(exact)}}}};
  if (!g.one_K()) r.cells.push_back(std::to_string(K));
  if (g.alpha_column()) r.cells.push_back(fixed(alpha, 6));
  for (std::string cell : {fixed(tau, 6), std::to_string(d), fixed(std::exp(log_w), 12), fixed(log_w, 14),
                           optional_text(c, exists ? "undefined" : "n/a (d < K)"), optional_text(exact, exists ? "none" : "n/a"),
                           fixed(bound, 10)}) {
    r.cells.push_back(std::move(cell));
  }
  if (!g.with_alpha) return r;
  std::optional<double> theta, spread, min_loss;
  if (exists) {
    theta = shared.theta_star(alpha, tau);
    spread = shared.spread(alpha, tau);
    min_loss = shared.min_loss(alpha, tau);
  }
  r.row["alpha"] = alpha;
  r.row["theta_star"] = optional_json(theta);
  r.row["spread"] = optional_json(spread);
  r.row["min_loss"] = optional_json(min_loss);
  if (d >= min_dimension(K, SplitDirections::orthogonal)) {
    r.row["orthogonal_split"] = {{"theta_star", optional_json(orthogonal.theta_star(alpha, tau))},
                                 {"spread", optional_json(orthogonal.spread(alpha, tau))},
                                 {"min_loss", optional_json(orthogonal.min_loss(alpha, tau))}};
  }
  r.cells.push_back(optional_text(theta, exists ? "none (collapse or beyond)" : "n/a"));
  r.cells.push_back(optional_text(spread, ""));
  const auto [where, region] = exists ? alpha_region(alpha, threshold, c, exact, bound) : std::pair<std::string, json>{"n/a", nullptr};
  r.row["alpha_region"] = region;
  r.cells.push_back(where);
  return r;
}

std::vector<std::string> header_cells(const TheoryGrid& g) {
  std::vector<std::string> header;
  if (!g.one_K()) header.push_back("K");
  if (g.alpha_column()) header.push_back("alpha");
  for (const char* name : {"tau", "d", "W", "log W"}) header.emplace_back(name);
  header.push_back(g.only_two() ? "c(tau,d)" : "c_K(tau,d)");
  header.emplace_back("exact end");
  header.emplace_back("theta* bound");
  if (g.with_alpha) {
    header.push_back("theta*");
    header.push_back("spread");
    header.push_back("alpha in window");
  }
  return header;
}

// The table's cells as text: each column as wide as its widest cell and two spaces, so that no
// value runs into the next (d = 10^6, tau = 1000).
std::string aligned_table(const std::vector<std::vector<std::string>>& table) {
  std::vector<std::size_t> widths(table.front().size(), 0);
  for (const auto& cells : table) {
    for (std::size_t k = 0; k < cells.size(); ++k) widths[k] = std::max(widths[k], cells[k].size() + 2);
  }
  std::string text;
  for (const auto& cells : table) {
    std::string line;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      line += cells[k];
      if (k + 1 < cells.size()) line += std::string(widths[k] - cells[k].size(), ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    text += line + "\n";
  }
  return text;
}

std::string theory_title(const TheoryGrid& g) {
  std::ostringstream text;
  if (g.one_K() && g.classes.front() == 2) {
    text << "geomsim theory: seed 004, Theorem 2 and Corollary 1 (K = 2)\n\n";
  } else if (g.one_K()) {
    text << "geomsim theory: the symmetric split of K = " << g.classes.front() << " classes along a shared direction, d >= K\n"
         << "(Theorem 2 generalised; collapse below alpha = K/(2K-1) = "
         << fixed(SymmetricSplit(g.classes.front(), SplitDirections::shared).threshold(), 10) << ")\n\n";
  } else {
    text << "geomsim theory: Theorem 2 (K = 2) and the symmetric split of K classes along a shared direction, d >= K\n"
         << "(collapse below alpha = K/(2K-1)), one row per (K" << (g.alpha_column() ? ", alpha" : "") << ", tau, d)\n\n";
  }
  return text.str();
}

// What the columns mean, after the table.
std::string theory_explanation(const TheoryGrid& g, bool any_below_K, bool any_above_K) {
  std::ostringstream text;
  text << "\nThe window for theta* is (" << (g.only_two() ? "2/3" : "K/(2K-1)")
       << ", min(c, theta* bound)) as the relaxation gives it; its exact end is where the\n"
          "split's minimum equals L(sigma) (TOMS748). theta* needs alpha < theta* bound: ";
  if (g.only_two()) {
    text << "Theorem 2's statement omits it,\n"
            "the proof in Appendix C.1 states it. c lies below the bound for every tau in [0.01, 1000] and d <= 4096\n"
            "checked, so the window is (2/3, c).\n";
  } else {
    text << "the split's own condition\n(for K = 2, the proof of Theorem 2 in Appendix C.1 states it).\n";
  }
  if (g.with_alpha) {
    text << "alpha in window: yes inside (" << (g.only_two() ? "2/3" : "K/(2K-1)")
         << ", min(c, theta* bound)); 'past c, before exact end' where the split still beats\n"
            "sigma though the relaxation's c is passed; 'no' below (collapse) or past the exact end, where theta* and the\n"
            "spread are the split's stationary point but uniform has the lower loss: not a prediction of the optimum.\n";
  }
  if (any_below_K) text << "n/a: the split needs d >= K (the simplex spans K - 1 dimensions, the split one more).\n";
  if (any_above_K) {
    text << "For d > K the split is not the optimum: the classes spread into caps of the orthogonal complement\n"
            "(loss below the split's; the threshold is unchanged). See theory/general-k-symmetric-split.md.\n";
  }
  return text.str();
}

// The JSON of --json: one K (one alpha) keeps the scalar forms of the parameters, threshold and
// family; lists give lists.
json theory_json(const TheoryGrid& g, json rows) {
  json thresholds = json::array();
  for (int K : g.classes) thresholds.push_back(SymmetricSplit(K, SplitDirections::shared).threshold());
  json alpha_value = !g.with_alpha ? json(nullptr) : g.alphas.size() == 1 ? json(g.alphas.front()) : json(g.alphas);
  return {{"command", "theory"},
          {"parameters", {{"tau", g.taus}, {"d", g.dims}, {"K", g.one_K() ? json(g.classes.front()) : json(g.classes)}, {"alpha", alpha_value}}},
          {"family", g.one_K() && g.classes.front() == 2 ? "mu_theta (Theorem 2)"
                     : g.only_two() || g.one_K()        ? "symmetric split, shared direction"
                                                        : "mu_theta (Theorem 2) for K = 2, symmetric split, shared direction for K > 2"},
          {"threshold", g.one_K() ? thresholds.front() : thresholds},
          {"rows", std::move(rows)}};
}

}  // namespace

int run_theory(const TheoryOptions& o) {
  const TheoryGrid g = plan_theory_table(o);
  json rows = json::array();
  std::vector<std::vector<std::string>> table = {header_cells(g)};
  bool any_below_K = false, any_above_K = false;
  for (int K : g.classes) {
    for (double alpha : g.alphas) {
      for (double tau : g.taus) {
        for (int d : g.dims) {
          any_below_K = any_below_K || d < K;
          any_above_K = any_above_K || d > K;
          TheoryRow r = theory_row(g, K, alpha, tau, d);
          table.push_back(std::move(r.cells));
          rows.push_back(std::move(r.row));
        }
      }
    }
  }
  const std::string text = theory_title(g) + aligned_table(table) + theory_explanation(g, any_below_K, any_above_K);
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, theory_json(g, std::move(rows)).dump(2) + "\n", "json");
  outputs.commit();
  if (!o.quiet) std::cout << text << std::flush;
  return 0;
}

}  // namespace geomsim::cli
