#include "geomsim/train_experiments/experiment_claims.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

#include "geomsim/support/errors.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

bool matches(const RunRow& row, const Selector& where) {
  for (const auto& [axis, value] : where) {
    if (row.text(axis).value_or("") != value) return false;
  }
  return true;
}

Selector selector(const json& object) {
  Selector out;
  if (!object.is_object()) throw std::logic_error("selector: not an object");
  for (const auto& [key, value] : object.items()) {
    out.emplace_back(key, value.is_string() ? value.get<std::string>() : value.dump());
  }
  return out;
}

Selector joined(Selector a, const Selector& b) {
  for (const auto& entry : b) {
    const auto same = std::find_if(a.begin(), a.end(), [&](const auto& e) { return e.first == entry.first; });
    if (same == a.end()) a.push_back(entry);
  }
  return a;
}

bool fixes(const Selector& s, const std::string& axis) {
  return std::any_of(s.begin(), s.end(), [&](const auto& e) { return e.first == axis; });
}

// Every combination of the values of the axes that not every term fixes: for each such axis,
// the values that every term's rows (within `scope`) have, so that a method trained only with
// augmentation does not make the "augmentation: false" cells of another go missing.
std::vector<Selector> free_combinations(const RunTable& table, const std::vector<Selector>& fixed, const Selector& scope) {
  std::vector<Selector> combinations{{}};
  for (const auto& axis : table.axes()) {
    if (fixes(scope, axis) || std::all_of(fixed.begin(), fixed.end(), [&](const Selector& s) { return fixes(s, axis); })) continue;
    std::vector<std::string> common;
    bool first = true;
    for (const auto& term : fixed) {
      const auto values = table.values(axis, joined(term, scope));
      if (first) {
        common = values;
        first = false;
      } else {
        common.erase(std::remove_if(common.begin(), common.end(),
                                    [&](const std::string& v) { return std::find(values.begin(), values.end(), v) == values.end(); }),
                     common.end());
      }
    }
    std::vector<Selector> next;
    for (const auto& value : common) {
      for (auto combination : combinations) {
        combination.emplace_back(axis, value);
        next.push_back(std::move(combination));
      }
    }
    combinations = std::move(next);
  }
  return combinations;
}

// A term of a contrast: a weight, the runs it selects and the metric it reads of them.
struct Term {
  double weight;
  Selector where;
  std::string metric;
};

// The contrast sum over combinations of (1/R) sum_k w_k cell_k, paired by seed (design_contrast:
// every run at one seed shares its data draw and test subset), or nullopt when a cell is missing
// (or no combination is left).
std::optional<Contrast> contrast(const RunTable& table, const std::vector<Term>& terms, const Selector& scope) {
  std::vector<Selector> fixed;
  for (const auto& term : terms) fixed.push_back(term.where);
  const auto combinations = free_combinations(table, fixed, scope);
  if (combinations.empty()) return std::nullopt;
  std::vector<std::pair<double, SeedValues>> cells;
  for (const auto& combination : combinations) {
    for (const auto& [weight, where, metric] : terms) {
      // A selector's own value wins over a free combination's (an axis fixed by another term only).
      const auto cell = table.seed_values(joined(joined(where, scope), combination), metric);
      if (!cell) return std::nullopt;
      cells.emplace_back(weight / static_cast<double>(combinations.size()), *cell);
    }
  }
  return design_contrast(cells);
}

std::string selector_text(const Selector& s) {
  std::string out;
  for (const auto& [axis, value] : s) out += (out.empty() ? "" : ", ") + axis + " " + value;
  return out;
}

std::string number_text(double value, int decimals, bool sign) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, sign ? "%+.*f" : "%.*f", decimals, value);
  return buffer;
}

const std::vector<std::string> kTests = {"greater", "best", "gain_larger", "at_least", "at_most", "steadier"};

// The steadier test: for each seed, the range (largest minus smallest) of the metric over the
// values of `axis` that the selector's runs take, averaged over the combinations of the axes
// that neither side fixes. Returns the cells by seed, or nullopt when a cell is missing or the
// axis takes fewer than two values.
std::optional<SeedValues> seed_ranges(const RunTable& table, const Selector& side, const std::string& axis,
                                      const std::vector<Selector>& combinations, const Selector& scope,
                                      const std::string& metric) {
  std::map<std::string, double> total;
  std::map<std::string, int> counted;
  for (const auto& combination : combinations) {
    const Selector where = joined(joined(side, scope), combination);
    const auto values = table.values(axis, where);
    if (values.size() < 2) return std::nullopt;
    std::map<std::string, std::pair<double, double>> extremes;  // seed -> (min, max)
    std::map<std::string, std::size_t> seen;
    for (const auto& value : values) {
      const auto cell = table.seed_values(joined(where, {{axis, value}}), metric);
      if (!cell) return std::nullopt;
      for (const auto& [seed, v] : *cell) {
        auto [it, fresh] = extremes.emplace(seed, std::make_pair(v, v));
        if (!fresh) it->second = {std::min(it->second.first, v), std::max(it->second.second, v)};
        ++seen[seed];
      }
    }
    for (const auto& [seed, range] : extremes) {
      if (seen[seed] != values.size()) continue;  // a seed without every value has no range
      total[seed] += range.second - range.first;
      ++counted[seed];
    }
  }
  SeedValues out;
  for (const auto& [seed, sum] : total) {
    if (counted[seed] == static_cast<int>(combinations.size())) out.emplace_back(seed, sum / static_cast<double>(combinations.size()));
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// A side of a claim: one selector, or a list of them averaged with equal weights.
std::vector<Selector> side(const json& value) {
  std::vector<Selector> out;
  if (value.is_array()) {
    for (const auto& s : value) out.push_back(selector(s));
  } else {
    out.push_back(selector(value));
  }
  return out;
}

void add_side(std::vector<Term>& terms, const std::vector<Selector>& selectors, double weight, const std::string& metric,
              const Selector& extra = {}) {
  for (const auto& s : selectors) terms.push_back({weight / static_cast<double>(selectors.size()), joined(s, extra), metric});
}

// A reference {verdict K [VALUE]} or {measured K [VALUE]} of a definition's notes.
struct ClaimReference {
  std::size_t begin = 0, end = 0;  // the braces' span in the notes
  bool verdict = true;
  std::size_t claim = 0;           // from 1
  std::string scope;               // empty: none given
};

// Every reference of `notes`, checked against the number of claims. Throws
// InvalidArgument("definition") for a {...} that is not a reference or names no claim.
std::vector<ClaimReference> claim_references(const std::string& notes, std::size_t claims) {
  std::vector<ClaimReference> out;
  std::size_t at = 0;
  while (true) {
    const std::size_t open = notes.find('{', at);
    if (open == std::string::npos) break;
    const std::size_t close = notes.find('}', open);
    if (close == std::string::npos) {
      throw InvalidArgument("definition", "\"notes\": a '{' at character " + std::to_string(open + 1) +
                                              " is never closed (a reference reads {verdict K} or {measured K})");
    }
    const std::string inner = notes.substr(open + 1, close - open - 1);
    std::vector<std::string> words;
    for (std::size_t p = 0; p <= inner.size();) {
      const std::size_t space = std::min(inner.find(' ', p), inner.size());
      if (space > p) words.push_back(inner.substr(p, space - p));
      p = space + 1;
    }
    const auto refuse = [&](const std::string& why) {
      throw InvalidArgument("definition", "\"notes\": {" + inner + "} " + why +
                                              " (a reference reads {verdict K} or {measured K}, with K a claim's number from 1, and the "
                                              "scope's value when the claims are shown per scope: {verdict K VALUE})");
    };
    if (words.empty() || (words[0] != "verdict" && words[0] != "measured")) refuse("is not a claim reference");
    if (words.size() < 2 || words.size() > 3) refuse("needs a claim's number and at most one scope value");
    std::size_t k = 0;
    if (std::all_of(words[1].begin(), words[1].end(), [](char c) { return c >= '0' && c <= '9'; }) && words[1].size() < 6) {
      k = static_cast<std::size_t>(std::stoul(words[1]));
    }
    if (k < 1 || k > claims) refuse("names no claim: the definition has " + std::to_string(claims));
    out.push_back({open, close + 1, words[0] == "verdict", k, words.size() == 3 ? words[2] : std::string()});
    at = close + 1;
  }
  return out;
}

}  // namespace

RunTable::RunTable(std::vector<RunRow> rows, std::vector<std::string> axes) : rows_(std::move(rows)), axes_(std::move(axes)) {}

std::vector<std::string> RunTable::values(const std::string& axis, const Selector& where) const {
  std::vector<std::string> out;
  for (const auto& row : rows_) {
    if (!matches(row, where)) continue;
    const std::string v = row.text(axis).value_or("");
    if (std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  }
  return out;
}

std::vector<RunRow> RunTable::matching(const Selector& where) const {
  std::vector<RunRow> out;
  for (const auto& row : rows_) {
    if (matches(row, where)) out.push_back(row);
  }
  return out;
}

std::optional<SeedValues> RunTable::seed_values(const Selector& where, const std::string& metric) const {
  SeedValues values;
  for (const auto& axis : axes_) {
    if (!fixes(where, axis) && this->values(axis, where).size() > 1) {
      throw std::logic_error("RunTable::cell: the selector leaves the axis " + axis + " free");
    }
  }
  for (const auto& row : rows_) {
    if (!matches(row, where)) continue;
    if (const auto v = row.number(metric)) values.emplace_back(row.text("seed").value_or(""), *v);
  }
  if (values.empty()) return std::nullopt;
  return values;
}

std::optional<SeedSummary> RunTable::cell(const Selector& where, const std::string& metric) const {
  const auto by_seed = seed_values(where, metric);
  if (!by_seed) return std::nullopt;
  std::vector<double> values;
  for (const auto& entry : *by_seed) values.push_back(entry.second);
  return summarize(values);
}

void validate_claims(const json& definition, const std::vector<std::string>& axes) {
  if (definition.contains("notes") && definition.at("notes").is_string()) {
    (void)claim_references(definition.at("notes").get<std::string>(), definition.contains("claims") && definition.at("claims").is_array()
                                                                           ? definition.at("claims").size()
                                                                           : 0);
  }
  if (!definition.contains("claims")) return;
  const json& claims = definition.at("claims");
  if (!claims.is_array()) throw InvalidArgument("definition", "\"claims\" must be a list");
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const json& c = claims[i];
    const std::string where = "claim " + std::to_string(i + 1);
    if (!c.is_object()) throw InvalidArgument("definition", where + " must be an object");
    for (const char* key : {"claim", "source", "metric", "test"}) {
      if (!c.contains(key) || !c.at(key).is_string()) throw InvalidArgument("definition", where + " needs a string \"" + key + "\"");
    }
    for (const char* key : {"quote", "paper", "unit", "axis", "metric_b"}) {
      if (c.contains(key) && !c.at(key).is_string()) throw InvalidArgument("definition", where + ": \"" + key + "\" must be a string");
    }
    if (c.contains("scale") && !c.at("scale").is_number()) throw InvalidArgument("definition", where + ": \"scale\" must be a number");
    if (c.contains("decimals") && (!c.at("decimals").is_number_integer() || c.at("decimals").get<int>() < 0 || c.at("decimals").get<int>() > 8)) {
      throw InvalidArgument("definition", where + ": \"decimals\" must be a whole number in [0, 8]");
    }
    const std::string test = c.at("test").get<std::string>();
    if (std::find(kTests.begin(), kTests.end(), test) == kTests.end()) {
      throw InvalidArgument("definition", where + ": \"test\" must be greater, best, gain_larger, at_least, at_most or steadier; got '" + test + "'");
    }
    std::vector<const char*> selectors{"a"};
    if (test == "greater" || test == "steadier") selectors = {"a", "b"};
    if (test == "gain_larger") selectors = {"a", "b", "in", "than"};
    if (c.contains("metric_b") && selectors.size() == 1) {
      throw InvalidArgument("definition", where + ": \"metric_b\" scores a claim's side \"b\", which a \"" + test + "\" claim does not have");
    }
    if ((test == "at_least" || test == "at_most") && (!c.contains("value") || !c.at("value").is_number())) {
      throw InvalidArgument("definition", where + ": an \"" + test + "\" claim needs a number \"value\"");
    }
    for (const char* key : selectors) {
      const bool list_allowed = std::string(key) == "a" || std::string(key) == "b";
      if (!c.contains(key)) throw InvalidArgument("definition", where + " needs a selector \"" + key + "\" (an object of axis: value)");
      const json& given = c.at(key);
      const json objects = given.is_array() && list_allowed ? given : json::array({given});
      if (objects.empty()) throw InvalidArgument("definition", where + ": \"" + key + "\" is an empty list");
      for (const auto& object : objects) {
      if (!object.is_object() || object.empty()) {
        throw InvalidArgument("definition", where + " needs a selector \"" + key + "\" (an object of axis: value" +
                                                (list_allowed ? ", or a list of them" : "") + ")");
      }
      for (const auto& [axis, value] : object.items()) {
        if (std::find(axes.begin(), axes.end(), axis) == axes.end()) {
          throw InvalidArgument("definition", where + ": selector \"" + key + "\" names \"" + axis + "\", which is not an axis of this kind");
        }
        if (value.is_object() || value.is_array() || value.is_null()) {
          throw InvalidArgument("definition", where + ": selector \"" + key + "\" must give one value for " + axis);
        }
      }
      }
    }
    if (test == "best" || test == "steadier") {
      if (!c.contains("axis") || std::find(axes.begin(), axes.end(), c.at("axis").get<std::string>()) == axes.end()) {
        throw InvalidArgument("definition", where + ": a \"" + test + "\" claim needs \"axis\", one of the kind's axes");
      }
      if (c.contains("others") && !c.at("others").is_array()) throw InvalidArgument("definition", where + ": \"others\" must be a list");
    }
    if (test == "steadier") {
      const std::string axis = c.at("axis").get<std::string>();
      for (const char* key : {"a", "b"}) {
        if (!c.at(key).is_object()) throw InvalidArgument("definition", where + ": a \"steadier\" claim's \"" + std::string(key) + "\" is one selector, not a list");
        if (c.at(key).contains(axis)) {
          throw InvalidArgument("definition", where + ": a \"steadier\" claim's \"" + std::string(key) + "\" fixes " + axis +
                                                  ", the axis it varies over");
        }
      }
    }
  }
}

ClaimOutcome evaluate_claim(const json& c, const RunTable& table, const Selector& scope) {
  ClaimOutcome out;
  out.statement = c.at("claim").get<std::string>() + (scope.empty() ? "" : " [" + selector_text(scope) + "]");
  out.source = c.at("source").get<std::string>();
  out.quote = c.value("quote", std::string());
  out.paper = c.value("paper", std::string());
  const std::string metric = c.at("metric").get<std::string>();
  const std::string metric_b = c.value("metric_b", metric);  // side b's, where the sides are scored differently
  const double scale = c.value("scale", 1.0);
  const std::string unit = c.value("unit", std::string());
  const int decimals = c.value("decimals", 2);
  const std::string test = c.at("test").get<std::string>();
  const auto missing = [&](ClaimOutcome o) {
    o.measured = "runs missing";
    o.verdict = Verdict::untestable;
    return o;
  };
  if (test == "greater" || test == "gain_larger") {
    std::vector<Term> terms;
    const auto a_side = side(c.at("a")), b_side = side(c.at("b"));
    if (test == "greater") {
      add_side(terms, a_side, 1.0, metric);
      add_side(terms, b_side, -1.0, metric_b);
    } else {
      const Selector in = selector(c.at("in")), than = selector(c.at("than"));
      add_side(terms, a_side, 1.0, metric, in);
      add_side(terms, b_side, -1.0, metric_b, in);
      add_side(terms, a_side, -1.0, metric, than);
      add_side(terms, b_side, 1.0, metric_b, than);
    }
    const auto result = contrast(table, terms, scope);
    if (!result) return missing(out);
    out.measured = contrast_text(*result, scale, unit, decimals);
    out.verdict = judge_positive(*result);
    out.contrasts = {*result};
    return out;
  }
  if (test == "steadier") {
    const std::string axis = c.at("axis").get<std::string>();
    const Selector a = selector(c.at("a")), b = selector(c.at("b"));
    // The other free axes' combinations, each side's range taken within each.
    std::vector<Selector> combinations;
    for (auto combination : free_combinations(table, {a, b}, scope)) {
      combination.erase(std::remove_if(combination.begin(), combination.end(), [&](const auto& e) { return e.first == axis; }),
                        combination.end());
      if (std::find(combinations.begin(), combinations.end(), combination) == combinations.end()) combinations.push_back(combination);
    }
    const auto range_a = seed_ranges(table, a, axis, combinations, scope, metric);
    const auto range_b = seed_ranges(table, b, axis, combinations, scope, metric_b);
    if (combinations.empty() || !range_a || !range_b) return missing(out);
    const Contrast result = design_contrast({{1.0, *range_b}, {-1.0, *range_a}});
    // Whole on its own (a claims table's cell) and after a note's "Over the learning rates, ":
    // the contrast is b's range minus a's, the claim's first side named first.
    out.measured = "the first's range over " + axis + " below the second's by " + contrast_text(result, scale, unit, decimals);
    out.verdict = judge_positive(result);
    out.contrasts = {result};
    return out;
  }
  if (test == "at_least" || test == "at_most") {
    const double sign = test == "at_least" ? 1.0 : -1.0;
    std::vector<Term> terms;
    add_side(terms, side(c.at("a")), sign, metric);
    auto result = contrast(table, terms, scope);
    if (!result) return missing(out);
    const double value = c.at("value").get<double>();
    result->value -= sign * value;
    out.measured = std::string(sign > 0 ? "above " : "below ") + number_text(value * scale, decimals, false) + " by " +
                   contrast_text(*result, scale, unit, decimals);
    out.verdict = judge_positive(*result);
    out.contrasts = {*result};
    return out;
  }
  // best: a against every other value of the axis.
  const Selector a = selector(c.at("a"));
  const std::string axis = c.at("axis").get<std::string>();
  const std::string own = std::find_if(a.begin(), a.end(), [&](const auto& e) { return e.first == axis; }) != a.end()
                              ? std::find_if(a.begin(), a.end(), [&](const auto& e) { return e.first == axis; })->second
                              : std::string();
  std::vector<std::string> others;
  if (c.contains("others")) {
    for (const auto& o : c.at("others")) others.push_back(o.is_string() ? o.get<std::string>() : o.dump());
  } else {
    for (const auto& v : table.values(axis, scope)) {
      if (v != own) others.push_back(v);
    }
  }
  if (others.empty()) return missing(out);
  std::vector<Verdict> verdicts;
  std::optional<Contrast> closest;
  std::string runner_up;
  for (const auto& other : others) {
    Selector b = a;
    for (auto& e : b) {
      if (e.first == axis) e.second = other;
    }
    const auto result = contrast(table, {{1.0, a, metric}, {-1.0, b, metric}}, scope);
    if (!result) return missing(out);
    verdicts.push_back(judge_positive(*result));
    out.contrasts.push_back(*result);
    if (!closest || result->value < closest->value) {
      closest = result;
      runner_up = other;
    }
  }
  out.measured = contrast_text(*closest, scale, unit, decimals) + " over the closest, " + runner_up;
  out.verdict = all_of(verdicts);
  return out;
}

std::string expand_claim_references(const std::string& notes, const std::vector<ClaimOutcome>& outcomes, std::size_t claims,
                                    const std::vector<Selector>& scopes) {
  std::string out;
  std::size_t at = 0;
  for (const auto& r : claim_references(notes, claims)) {
    out += notes.substr(at, r.begin - at);
    const std::string inner = notes.substr(r.begin + 1, r.end - r.begin - 2);
    std::size_t scope = scopes.size();
    if (!r.scope.empty()) {
      for (std::size_t i = 0; i < scopes.size(); ++i) {
        if (std::any_of(scopes[i].begin(), scopes[i].end(), [&](const auto& e) { return e.second == r.scope; })) scope = i;
      }
      if (scope == scopes.size()) throw InvalidArgument("definition", "\"notes\": {" + inner + "} names no scope of this page");
    } else if (scopes.size() == 1) {
      scope = 0;
    } else {
      throw InvalidArgument("definition", "\"notes\": {" + inner + "} needs the scope's value: this page shows the claims in " +
                                              std::to_string(scopes.size()) + " scopes ({verdict K VALUE})");
    }
    const ClaimOutcome& o = outcomes.at(scope * claims + (r.claim - 1));
    out += r.verdict ? verdict_text(o.verdict) : o.measured;
    at = r.end;
  }
  return out + notes.substr(at);
}

}  // namespace geomsim::train_experiments
