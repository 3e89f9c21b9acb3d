#pragma once
// Mean ± sd over seeds, and the verdict on a claim that compares seed means.
//
// A claim is a linear contrast of cells (a cell = one configuration's metric over its seeds):
//   C = sum_k w_k mean_k,  claimed C > 0,
// e.g. "A beats B": C = mean_A - mean_B; "the gain is larger on 2 classes than on 4":
// C = (mean_A2 - mean_B2) - (mean_A4 - mean_B4). The seeds of different cells are treated as
// independent, so C's standard error is
//   se(C) = sqrt( sum_k w_k^2 sd_k^2 / n_k ),
// with sd_k the sample standard deviation (n - 1 in the denominator) over cell k's seeds.
//
// The verdict (kWithinNoiseMultiple = 2):
//   holds          C > 2 se(C)
//   does not hold  C < -2 se(C)
//   within noise   |C| <= 2 se(C): the seeds do not separate the two sides
//   untestable     a cell has fewer than 2 seeds (no sd), so there is no noise estimate
// "Within 2 standard errors" is a rule of thumb, not a significance test: with 3 seeds per
// cell a t-test would need about 4.3 standard errors for 95% confidence.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace geomsim {

struct SeedSummary {
  std::size_t n = 0;
  double mean = 0.0;
  double sd = 0.0;  // sample standard deviation; 0 when n = 1
  double standard_error() const;  // sd / sqrt(n)
};

// Throws InvalidArgument("values") for an empty list or a non-finite value.
SeedSummary summarize(const std::vector<double>& values);

// "70.42 ± 0.31" (each value times `scale`, with `decimals` decimals); "70.42 (1 seed)" for n = 1.
std::string mean_sd_text(const SeedSummary& summary, double scale = 1.0, int decimals = 2);

inline constexpr double kWithinNoiseMultiple = 2.0;

struct Contrast {
  double value = 0.0;
  double standard_error = 0.0;
  std::size_t fewest_seeds = 0;  // the smallest n among the cells
};
// sum_k w_k mean_k and its standard error, from (w_k, cell_k) pairs. Throws InvalidArgument
// ("contrast") for no terms or an empty cell.
Contrast linear_contrast(const std::vector<std::pair<double, SeedSummary>>& terms);

enum class Verdict { holds, does_not_hold, within_noise, untestable };

// The verdict on "the contrast is positive".
Verdict judge_positive(const Contrast& contrast);
// All of several claims together ("A beats every other method"): does not hold if any does
// not; else untestable if any is; else within noise if any is; else holds.
Verdict all_of(const std::vector<Verdict>& verdicts);

// "holds", "does not hold", "within noise", "untestable".
std::string verdict_text(Verdict verdict);

// One sentence for pages: how "within noise" is decided.
std::string within_noise_rule();

}  // namespace geomsim
