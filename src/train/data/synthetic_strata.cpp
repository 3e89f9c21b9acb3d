#include "geomsim/train/data/synthetic_strata.hpp"

#include <cmath>
#include <numeric>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim::train {

void validate(const StrataSpec& s) {
  require_at_least("classes", s.classes, 2);
  require_at_least("strata_per_class", s.strata_per_class, 1);
  require_at_least("dim", s.dim, static_cast<std::int64_t>(s.classes) * (1 + s.strata_per_class));
  require_non_negative("class_separation", s.class_separation);
  require_non_negative("stratum_separation", s.stratum_separation);
  require_positive("stratum_std", s.stratum_std);
  if (!s.stratum_probability.empty()) {
    const auto count = static_cast<std::size_t>(s.classes * s.strata_per_class);
    if (s.stratum_probability.size() != count) {
      throw InvalidArgument("stratum_probability", "must have classes * strata_per_class = " + std::to_string(count) + " entries");
    }
    double total = 0.0;
    for (double p : s.stratum_probability) {
      require_non_negative("stratum_probability", p);
      total += p;
    }
    if (std::abs(total - 1.0) > 1e-9) throw InvalidArgument("stratum_probability", "must sum to 1, got " + format_number(total));
  }
}

StrataSample sample_strata(const StrataSpec& s, int n, std::uint64_t seed) {
  validate(s);
  require_at_least("n", n, 1);
  const int Z = s.classes * s.strata_per_class;
  std::vector<double> cumulative(static_cast<std::size_t>(Z));
  for (int z = 0; z < Z; ++z) {
    const double p = s.stratum_probability.empty() ? 1.0 / Z : s.stratum_probability[static_cast<std::size_t>(z)];
    cumulative[static_cast<std::size_t>(z)] = (z ? cumulative[static_cast<std::size_t>(z - 1)] : 0.0) + p;
  }
  Rng rng(seed);
  StrataSample out;
  out.dim = s.dim;
  out.x.resize(static_cast<std::size_t>(n) * static_cast<std::size_t>(s.dim));
  for (int i = 0; i < n; ++i) {
    const double u = rng.uniform() * cumulative.back();
    int z = 0;
    while (z + 1 < Z && u >= cumulative[static_cast<std::size_t>(z)]) ++z;
    const int y = z / s.strata_per_class, j = z % s.strata_per_class;
    float* row = &out.x[static_cast<std::size_t>(i) * static_cast<std::size_t>(s.dim)];
    for (int k = 0; k < s.dim; ++k) row[k] = static_cast<float>(s.stratum_std * rng.normal());
    row[y] += static_cast<float>(s.class_separation);
    row[s.classes + y * s.strata_per_class + j] += static_cast<float>(s.stratum_separation);
    out.labels.push_back(y);
    out.strata.push_back(z);
  }
  return out;
}

double stratum_sigma(const StrataSpec& s) {
  validate(s);
  const double D = s.dim;
  return 2.0 * s.stratum_std * std::exp(std::lgamma((D + 1.0) / 2.0) - std::lgamma(D / 2.0));
}

}  // namespace geomsim::train
