#include "geomsim/theory/strata_subsampling.hpp"

#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim {

StrataAppearance strata_appearance(double p_z, double p_z_prime, double draws) {
  require_in_closed_range("p_z", p_z, 0.0, 1.0);
  require_in_closed_range("p_z_prime", p_z_prime, 0.0, 1.0);
  if (!(p_z + p_z_prime <= 1.0)) {
    throw InvalidArgument("p_z_prime", "must satisfy p_z + p_z_prime <= 1, got " + format_number(p_z + p_z_prime));
  }
  require_non_negative("draws", draws);
  // (1 - x)^n, and 1 - (1 - x)^n without cancellation.
  const auto miss = [&](double x) { return x >= 1.0 ? (draws == 0.0 ? 1.0 : 0.0) : std::exp(draws * std::log1p(-x)); };
  const auto hit = [&](double x) { return x >= 1.0 ? (draws == 0.0 ? 0.0 : 1.0) : -std::expm1(draws * std::log1p(-x)); };
  StrataAppearance a;
  a.neither = miss(p_z + p_z_prime);
  // only z: (1-p')^n - (1-p-p')^n = (1-p')^n (1 - (1 - p/(1-p'))^n).
  a.only_z = p_z_prime >= 1.0 ? 0.0 : miss(p_z_prime) * hit(p_z / (1.0 - p_z_prime));
  a.only_z_prime = p_z >= 1.0 ? 0.0 : miss(p_z) * hit(p_z_prime / (1.0 - p_z));
  a.both = 1.0 - a.neither - a.only_z - a.only_z_prime;
  return a;
}

}  // namespace geomsim
