#include "geomsim/experiments/seed_statistics.hpp"

#include <cmath>
#include <cstdio>

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

Contrast linear_contrast(const std::vector<std::pair<double, SeedSummary>>& terms) {
  if (terms.empty()) throw InvalidArgument("contrast", "needs at least one cell");
  Contrast c;
  double variance = 0.0;
  c.fewest_seeds = terms.front().second.n;
  for (const auto& [weight, cell] : terms) {
    if (cell.n == 0) throw InvalidArgument("contrast", "has a cell without seeds");
    c.value += weight * cell.mean;
    variance += weight * weight * cell.sd * cell.sd / static_cast<double>(cell.n);
    if (cell.n < c.fewest_seeds) c.fewest_seeds = cell.n;
  }
  c.standard_error = std::sqrt(variance);
  return c;
}

Verdict judge_positive(const Contrast& c) {
  if (c.fewest_seeds < 2) return Verdict::untestable;
  const double noise = kWithinNoiseMultiple * c.standard_error;
  if (c.value > noise) return Verdict::holds;
  if (c.value < -noise) return Verdict::does_not_hold;
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

std::string within_noise_rule() {
  return "A claim is a contrast C of seed means (e.g. mean_A − mean_B). Its standard error is √(Σ w²·sd²/n) over the "
         "cells (sd: the sample standard deviation over a cell's seeds, seeds of different cells taken as independent). "
         "It **holds** when C > 2·se, **does not hold** when C < −2·se, and is **within noise** when |C| ≤ 2·se. "
         "Two standard errors is a rule of thumb, not a significance test (with 3 seeds a t-test would ask for about 4.3).";
}

}  // namespace geomsim
