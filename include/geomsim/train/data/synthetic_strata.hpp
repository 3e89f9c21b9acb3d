#pragma once
// A synthetic dataset with known strata: each class y has S strata z, each an isotropic
// Gaussian N(mu_z, s^2 I) in R^D, drawn with probability p(z). Class centres are
// class_separation * e_y and stratum centres add stratum_separation * e_{K + y S + j}, so
//   |mu_y - mu_y'| = sqrt(2) class_separation,  |mu_z - mu_z'| = sqrt(2) stratum_separation
// (same class), and the input spread of Lemmas 1-3 is known in closed form:
//   sigma_z = E|x - x'| = 2 s Gamma((D+1)/2) / Gamma(D/2).
#include <cstdint>
#include <vector>

namespace geomsim::train {

struct StrataSpec {
  int classes = 2;
  int strata_per_class = 2;
  int dim = 8;  // >= classes * (1 + strata_per_class)
  std::vector<double> stratum_probability;  // p(z), classes * strata_per_class entries summing to 1; empty: uniform
  double class_separation = 4.0;
  double stratum_separation = 1.5;
  double stratum_std = 0.3;
};

struct StrataSample {
  int dim = 0;
  std::vector<float> x;  // n x dim, row-major
  std::vector<int> labels, strata;  // class y and stratum z = y * S + j of each row
};

// Throws InvalidArgument naming the field on a bad spec.
void validate(const StrataSpec& spec);
StrataSample sample_strata(const StrataSpec& spec, int n, std::uint64_t seed);
double stratum_sigma(const StrataSpec& spec);  // the closed form above

}  // namespace geomsim::train
