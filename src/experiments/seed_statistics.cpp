#include "geomsim/experiments/seed_statistics.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "geomsim/support/errors.hpp"

namespace geomsim {

double SeedSummary::standard_error() const { return n == 0 ? 0.0 : sd / std::sqrt(static_cast<double>(n)); }

SeedSummary summarize(const std::vector<double>& values) {
  if (values.empty()) throw InvalidArgument("values", "must hold at least one seed's value");
  SeedSummary s;
  s.n = values.size();
  double sum = 0.0;
  for (double v : values) {
    if (!std::isfinite(v)) throw InvalidArgument("values", "must be finite, got " + format_number(v));
    sum += v;
  }
  s.mean = sum / static_cast<double>(s.n);
  if (s.n > 1) {
    double squares = 0.0;
    for (double v : values) squares += (v - s.mean) * (v - s.mean);
    s.sd = std::sqrt(squares / static_cast<double>(s.n - 1));
  }
  return s;
}

std::string mean_sd_text(const SeedSummary& s, double scale, int decimals) {
  char buffer[96];
  if (s.n < 2) {
    std::snprintf(buffer, sizeof buffer, "%.*f (1 seed)", decimals, s.mean * scale);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.*f ± %.*f", decimals, s.mean * scale, decimals, s.sd * scale);
  }
  return buffer;
}

double student_t_quantile(double p, double degrees_of_freedom) {
  if (!(p > 0.0 && p < 1.0)) throw InvalidArgument("quantile", "p must lie in (0, 1), got " + format_number(p));
  if (!(degrees_of_freedom > 0.0) || !std::isfinite(degrees_of_freedom)) {
    throw InvalidArgument("quantile", "the degrees of freedom must be a finite number > 0, got " + format_number(degrees_of_freedom));
  }
  return boost::math::quantile(boost::math::students_t_distribution<double>(degrees_of_freedom), p);
}

double Contrast::t_critical() const {
  if (!testable() || !(degrees_of_freedom > 0.0)) return 0.0;
  return student_t_quantile(0.5 + kVerdictConfidence / 2.0, degrees_of_freedom);
}

namespace {

bool has_duplicate_seed(const SeedValues& cell) {
  std::set<std::string> seen;
  for (const auto& entry : cell) {
    if (!seen.insert(entry.first).second) return true;
  }
  return false;
}

// The seeds every cell holds, in the first cell's order.
std::vector<std::string> common_seeds(const std::vector<std::pair<double, SeedValues>>& terms) {
  std::vector<std::string> out;
  for (const auto& entry : terms.front().second) {
    const bool everywhere = std::all_of(terms.begin(), terms.end(), [&](const auto& term) {
      return std::any_of(term.second.begin(), term.second.end(), [&](const auto& e) { return e.first == entry.first; });
    });
    if (everywhere && std::find(out.begin(), out.end(), entry.first) == out.end()) out.push_back(entry.first);
  }
  return out;
}

void check_terms(const std::vector<std::pair<double, SeedValues>>& terms) {
  if (terms.empty()) throw InvalidArgument("contrast", "needs at least one cell");
  for (const auto& [weight, cell] : terms) {
    if (cell.empty()) throw InvalidArgument("contrast", "has a cell without seeds");
    if (!std::isfinite(weight)) throw InvalidArgument("contrast", "has a non-finite weight");
    for (const auto& entry : cell) {
      if (!std::isfinite(entry.second)) throw InvalidArgument("contrast", "has a non-finite value at seed " + entry.first);
    }
  }
}

}  // namespace

Contrast paired_contrast(const std::vector<std::pair<double, SeedValues>>& terms) {
  check_terms(terms);
  for (const auto& term : terms) {
    if (has_duplicate_seed(term.second)) throw InvalidArgument("contrast", "has a cell holding one seed twice: it cannot be paired by seed");
  }
  std::vector<double> differences;
  for (const auto& seed : common_seeds(terms)) {
    double d = 0.0;
    for (const auto& [weight, cell] : terms) {
      d += weight * std::find_if(cell.begin(), cell.end(), [&](const auto& e) { return e.first == seed; })->second;
    }
    differences.push_back(d);
  }
  Contrast c;
  c.paired = true;
  c.n = differences.size();
  if (c.n == 0) return c;
  const SeedSummary s = summarize(differences);
  c.value = s.mean;
  c.standard_error = s.standard_error();
  c.degrees_of_freedom = c.n >= 2 ? static_cast<double>(c.n - 1) : 0.0;
  return c;
}

Contrast linear_contrast(const std::vector<std::pair<double, SeedSummary>>& terms) {
  if (terms.empty()) throw InvalidArgument("contrast", "needs at least one cell");
  Contrast c;
  c.paired = false;
  double variance = 0.0, welch_denominator = 0.0;
  c.n = terms.front().second.n;
  for (const auto& [weight, cell] : terms) {
    if (cell.n == 0) throw InvalidArgument("contrast", "has a cell without seeds");
    c.value += weight * cell.mean;
    const double part = weight * weight * cell.sd * cell.sd / static_cast<double>(cell.n);
    variance += part;
    if (cell.n > 1) welch_denominator += part * part / static_cast<double>(cell.n - 1);
    if (cell.n < c.n) c.n = cell.n;
  }
  c.standard_error = std::sqrt(variance);
  if (c.n >= 2) {
    // Welch–Satterthwaite; with no spread at all (se = 0) the degrees of the smallest cell.
    c.degrees_of_freedom = welch_denominator > 0.0 ? variance * variance / welch_denominator : static_cast<double>(c.n - 1);
  }
  return c;
}

Contrast design_contrast(const std::vector<std::pair<double, SeedValues>>& terms) {
  check_terms(terms);
  const bool pairable = std::none_of(terms.begin(), terms.end(), [](const auto& t) { return has_duplicate_seed(t.second); });
  if (pairable && common_seeds(terms).size() >= 2) return paired_contrast(terms);
  std::vector<std::pair<double, SeedSummary>> cells;
  for (const auto& [weight, cell] : terms) {
    std::vector<double> values;
    for (const auto& entry : cell) values.push_back(entry.second);
    cells.emplace_back(weight, summarize(values));
  }
  return linear_contrast(cells);
}

Verdict judge_positive(const Contrast& c) {
  if (!c.testable()) return Verdict::untestable;
  if (c.low() > 0.0) return Verdict::holds;
  if (c.high() < 0.0) return Verdict::does_not_hold;
  return Verdict::within_noise;
}

Verdict all_of(const std::vector<Verdict>& verdicts) {
  bool untestable = false, noise = false;
  for (Verdict v : verdicts) {
    if (v == Verdict::does_not_hold) return Verdict::does_not_hold;
    untestable = untestable || v == Verdict::untestable;
    noise = noise || v == Verdict::within_noise;
  }
  if (untestable) return Verdict::untestable;
  return noise ? Verdict::within_noise : Verdict::holds;
}

std::string verdict_text(Verdict v) {
  switch (v) {
    case Verdict::holds: return "holds";
    case Verdict::does_not_hold: return "does not hold";
    case Verdict::within_noise: return "within noise";
    case Verdict::untestable: return "untestable";
  }
  return "?";
}

namespace {
std::string number_text(double value, int decimals, bool sign) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, sign ? "%+.*f" : "%.*f", decimals, value);
  return buffer;
}
std::string t_text(const Contrast& c) {
  char buffer[64];
  if (c.paired) {
    std::snprintf(buffer, sizeof buffer, "t(%zu) = %.3f", c.n - 1, c.t_critical());
  } else {
    std::snprintf(buffer, sizeof buffer, "t(%.1f) = %.3f", c.degrees_of_freedom, c.t_critical());
  }
  return buffer;
}
}  // namespace

std::string contrast_text(const Contrast& c, double scale, const std::string& unit, int decimals) {
  const std::string u = unit.empty() ? "" : " " + unit;
  if (!c.testable()) {
    if (c.paired && c.n == 0) return "no seed common to every cell: no noise estimate";
    return number_text(c.value * scale, decimals, true) + u + (c.paired ? " (1 paired seed)" : " (a cell has 1 seed)") + ": no noise estimate";
  }
  return number_text(c.value * scale, decimals, true) + u + ", 95% CI [" + number_text(c.low() * scale, decimals, true) + ", " +
         number_text(c.high() * scale, decimals, true) + "] (" + (c.paired ? "paired" : "unpaired") + ", n = " + std::to_string(c.n) +
         " seeds, se " + number_text(c.standard_error * scale, decimals, false) + ", " + t_text(c) + ")";
}

std::string verdict_rule(const std::vector<Contrast>& contrasts) {
  std::string text =
      "Each claim is a contrast C of seed means (e.g. mean_A − mean_B), **paired by seed**: every configuration at one seed "
      "trains on the same data draw and is tested on the same test subset (the robustness runs share the data seed), so for "
      "each seed s that every cell of the contrast holds, D_s = Σ_k w_k·x_{k,s}, C = mean(D) and se = sd(D)/√n, with n the "
      "number of paired seeds. A claim **holds** when its 95% interval C ± t·se (t: the 97.5% quantile of Student's t with "
      "n − 1 degrees of freedom) lies above 0, **does not hold** when it lies below 0, is **within noise** when it contains 0, "
      "and is **untestable** with fewer than 2 seeds.";
  // The (n, t) of this page's paired contrasts, and how many claims use each.
  std::map<std::size_t, std::size_t> paired;
  std::size_t unpaired = 0, untestable = 0;
  for (const auto& c : contrasts) {
    if (!c.testable()) {
      ++untestable;
    } else if (c.paired) {
      ++paired[c.n];
    } else {
      ++unpaired;
    }
  }
  std::string used;
  for (auto it = paired.rbegin(); it != paired.rend(); ++it) {
    Contrast c;
    c.n = it->first;
    c.degrees_of_freedom = static_cast<double>(c.n - 1);
    used += (used.empty() ? "" : "; ") + std::string("n = ") + std::to_string(c.n) + " paired seeds, " + t_text(c) + " (" +
            std::to_string(it->second) + (it->second == 1 ? " contrast" : " contrasts") + ")";
  }
  if (!used.empty()) text += " Here: " + used + ".";
  if (unpaired > 0) {
    text += " " + std::to_string(unpaired) + (unpaired == 1 ? " contrast's cells share" : " contrasts' cells share") +
            " fewer than 2 seeds, so the design does not pair them: there the cells are taken as independent, se = "
            "√(Σ w²·sd²/n) over each cell's own seeds, with the Welch–Satterthwaite degrees of freedom (printed with each).";
  }
  if (untestable > 0) text += " " + std::to_string(untestable) + (untestable == 1 ? " contrast has" : " contrasts have") + " fewer than 2 seeds.";
  return text;
}

}  // namespace geomsim
