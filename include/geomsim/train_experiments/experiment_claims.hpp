#pragma once
// The claims of a training experiment's definition, tested on its run table (torch-free, so
// every experiment kind can use it).
//
// A run table groups the runs by their axes (method, hierarchy, encoder, alpha, ...; the seed
// is not an axis): each cell is one configuration over its seeds. A selector fixes some axes,
// e.g. {"method": "thanos"}. A definition's "claims" is a list of objects:
//   {"claim": "THANOS has the best coarse-to-fine accuracy",   the claim as tested
//    "source": "seed 004, §5 and Table 3",                      where the paper makes it
//    "quote": "...",                                            the paper's words
//    "paper": "best in 4 of 5 columns",                         the paper's number(s)
//    "metric": "fine_probe", "scale": 100, "unit": "points",    what is compared (scale: for display)
//    "metric_b": "head_accuracy",                               side b's metric, where the seed scores
//                                                               the sides differently (seed 001: SupCon
//                                                               by a linear probe, cross-entropy by its
//                                                               own softmax head); default "metric";
//                                                               greater, gain_larger, steadier only
//    "test": ...}
// with one of the tests
//   "greater"      "a" > "b" (selectors, or lists of selectors averaged with equal weights)
//   "best"         "a" > every other value of "axis" (or those in "others"), each as "greater"
//   "gain_larger"  the gain "a" - "b" is larger under "in" than under "than" (selectors)
//   "at_least"     "a" > "value" (a number in the metric's units); "at_most": "a" < "value"
//   "steadier"     "a" varies less than "b" over the values of "axis" (which neither fixes):
//                  each seed's range (largest minus smallest) of the metric over those values,
//                  b's minus a's, paired by seed (seed 001's hyperparameter stability, Fig. 4);
//                  measured as "the first's range over AXIS below the second's by C", a the first
// Each contrast averages, with equal weights, over the axes that not every selector fixes
// (nor the scope, e.g. the encoder of the table the claim is shown for), taking the values
// that every term's runs have (a method trained only with augmentations is compared on
// those). A term with no run in such a combination makes the claim untestable rather than
// silently smaller. The contrast is paired by seed (the runs' "seed" cells; design_contrast) and
// the verdict is seed_statistics.hpp's 95% t interval.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/experiments/run_cache.hpp"
#include "geomsim/experiments/seed_statistics.hpp"

namespace geomsim::train_experiments {

using Selector = std::vector<std::pair<std::string, std::string>>;

class RunTable {
 public:
  RunTable(std::vector<RunRow> rows, std::vector<std::string> axes);
  const std::vector<std::string>& axes() const { return axes_; }
  const std::vector<RunRow>& rows() const { return rows_; }
  // The values an axis takes among the rows matching `where`, in first-seen order.
  std::vector<std::string> values(const std::string& axis, const Selector& where = {}) const;
  // The rows matching every (axis, value) of `where`.
  std::vector<RunRow> matching(const Selector& where) const;
  // The seed summary of `metric` over the rows matching `where`, which must fix every axis;
  // nullopt when no row matches or none has the metric. Throws std::logic_error when `where`
  // leaves an axis free and the rows differ in it (they would not be one cell).
  std::optional<SeedSummary> cell(const Selector& where, const std::string& metric) const;
  // The same cell's values by seed (the rows' "seed" cells), in row order; nullopt likewise.
  std::optional<SeedValues> seed_values(const Selector& where, const std::string& metric) const;

 private:
  std::vector<RunRow> rows_;
  std::vector<std::string> axes_;
};

// Checks a definition's "claims" (a list; may be absent) before any training: every field of
// the right type, a known test, selectors naming only `axes`, and the references of its "notes"
// to the claims (expand_claim_references). Throws InvalidArgument("definition").
void validate_claims(const nlohmann::json& definition, const std::vector<std::string>& axes);

// A definition's "notes" with its references to the claims' outcomes replaced, so that no
// verdict or contrast is typed by hand: {verdict K} is claim K's verdict ("holds", ...),
// {measured K} its contrast text (K from 1, in the definition's order); where the claims are
// shown in several scopes (a data set, an encoder), {verdict K VALUE} names the scope by its
// value. `outcomes` holds the claims of scopes[0], then of scopes[1], ... validate_claims refuses
// (before any training) a {...} that is not a reference or names no claim; this throws
// InvalidArgument("definition") for a scope the page lacks, or a missing one where it has several.
std::string expand_claim_references(const std::string& notes, const std::vector<ClaimOutcome>& outcomes, std::size_t claims,
                                    const std::vector<Selector>& scopes);

// The outcome of one claim within `scope` (e.g. {{"encoder", "cnn"}}, which is added to every
// selector). The statement gets the scope appended in brackets when it is not empty.
ClaimOutcome evaluate_claim(const nlohmann::json& claim, const RunTable& table, const Selector& scope);

}  // namespace geomsim::train_experiments
