#pragma once
// Seed 000, Appendix C.2: which of two strata z, z' appear in a subsample D_t of tN points
// drawn independently from P, where a point is in z with probability p and in z' with p'.
//   Pr(neither)  = (1 - p - p')^{tN}
//   Pr(only z)   = (1 - p')^{tN} - (1 - p - p')^{tN}
//   Pr(only z')  = (1 - p)^{tN} - (1 - p - p')^{tN}
//   Pr(both)     = 1 + (1 - p - p')^{tN} - (1 - p)^{tN} - (1 - p')^{tN}
// The powers are evaluated as exp(n log1p(-x)), accurate for tiny p and huge n.
namespace geomsim {

struct StrataAppearance {
  double both = 0.0;
  double only_z = 0.0;
  double only_z_prime = 0.0;
  double neither = 0.0;
};

// p, p' >= 0 with p + p' <= 1; draws = tN >= 0 (need not be whole: the formulas are smooth in it).
StrataAppearance strata_appearance(double p_z, double p_z_prime, double draws);

}  // namespace geomsim
