#pragma once
// Mean ± sd over seeds, and the verdict on a claim that compares seed means.
//
// A claim is a linear contrast of cells (a cell = one configuration's metric over its seeds):
//   C = sum_k w_k mean_k,  claimed C > 0,
// e.g. "A beats B": C = mean_A - mean_B; "the gain is larger on 2 classes than on 4":
// C = (mean_A2 - mean_B2) - (mean_A4 - mean_B4).
//
// Paired by seed (paired_contrast; the design of every training experiment): every
// configuration at one seed trains on the same data draw and is tested on the same test subset
// (the robustness runs share the data seed too), so the cells' values at one seed are not
// independent. For each seed s that every cell holds, D_s = sum_k w_k x_{k,s}; then
//   C = mean_s D_s,  se(C) = sd(D) / sqrt(n),  n = the number of paired seeds,
// with n - 1 degrees of freedom. Seeds that some cell lacks are left out of the contrast.
//
// Unpaired (linear_contrast): only where the cells share fewer than 2 seeds (no pairing in the
// design: different seeds per cell), the cells are taken as independent,
//   se(C) = sqrt( sum_k w_k^2 sd_k^2 / n_k ),
// with the Welch–Satterthwaite degrees of freedom.
//
// The verdict (judge_positive), from the 95% interval C ± t·se with t the 97.5% quantile of
// Student's t for the contrast's degrees of freedom:
//   holds          the interval lies above 0 (C - t se > 0)
//   does not hold  it lies below 0 (C + t se < 0)
//   within noise   it holds 0: the seeds do not separate the two sides
//   untestable     fewer than 2 seeds (n < 2 paired, or a cell with 1 seed): no noise estimate
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

// The p-quantile of Student's t with `degrees_of_freedom` (> 0, may be fractional), p in (0, 1)
// (Boost.Math). Throws InvalidArgument("quantile") outside those ranges.
double student_t_quantile(double p, double degrees_of_freedom);

// The two-sided confidence of the verdicts' intervals.
inline constexpr double kVerdictConfidence = 0.95;

struct Contrast {
  double value = 0.0;
  double standard_error = 0.0;
  std::size_t n = 0;                 // paired: the number of paired seeds; unpaired: the fewest seeds of a cell
  bool paired = true;
  double degrees_of_freedom = 0.0;   // paired: n - 1; unpaired: Welch–Satterthwaite; 0 when untestable
  // The 97.5% t value for degrees_of_freedom (0 when untestable), and the interval value ± t se.
  double t_critical() const;
  double low() const { return value - t_critical() * standard_error; }
  double high() const { return value + t_critical() * standard_error; }
  bool testable() const { return n >= 2; }
};

// One cell's values by seed: (seed as the run table writes it, value), one entry per run.
using SeedValues = std::vector<std::pair<std::string, double>>;

// The paired contrast from (w_k, cell_k) pairs: see above. Throws InvalidArgument("contrast")
// for no terms, an empty cell, a non-finite value or a cell holding one seed twice. n may be 0
// or 1 (then untestable).
Contrast paired_contrast(const std::vector<std::pair<double, SeedValues>>& terms);

// The unpaired contrast sum_k w_k mean_k, from (w_k, cell_k) pairs. Throws InvalidArgument
// ("contrast") for no terms or an empty cell.
Contrast linear_contrast(const std::vector<std::pair<double, SeedSummary>>& terms);

// Paired when the cells share at least 2 seeds and no cell holds a seed twice; else unpaired
// (each cell summarized over its own seeds).
Contrast design_contrast(const std::vector<std::pair<double, SeedValues>>& terms);

enum class Verdict { holds, does_not_hold, within_noise, untestable };

// The verdict on "the contrast is positive".
Verdict judge_positive(const Contrast& contrast);
// All of several claims together ("A beats every other method"): does not hold if any does
// not; else untestable if any is; else within noise if any is; else holds.
Verdict all_of(const std::vector<Verdict>& verdicts);

// "holds", "does not hold", "within noise", "untestable".
std::string verdict_text(Verdict verdict);

// "+0.62 points, 95% CI [−0.55, +1.79] (paired, n = 3 seeds, se 0.27, t(2) = 4.303)" with the
// contrast scaled; "1 seed: no noise estimate" where untestable.
std::string contrast_text(const Contrast& contrast, double scale, const std::string& unit, int decimals);

// The paragraph for pages: how a verdict is decided, naming the pairing, and each (pairing, n,
// t value) that the page's contrasts use.
std::string verdict_rule(const std::vector<Contrast>& contrasts);

}  // namespace geomsim
