#include "geomsim/theory/label_noise_debiasing.hpp"

#include <cmath>
#include <string>

#include <Eigen/Dense>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

void check_accuracy(double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw InvalidArgument("label-accuracy", "must be in [0, 1], got " + format_number(p));
  if (p == 0.5) {
    throw InvalidArgument("label-accuracy", "must not be 1/2: every noisy pair is then as likely negative as positive, and "
                                            "no weights undo the noise");
  }
}

void check_m(int m) {
  if (m < 2 || m > kMaxDebiasedDenominator) {
    throw InvalidArgument("denominator-size", "must be a whole number in [2, " + std::to_string(kMaxDebiasedDenominator) +
                                                  "], got " + std::to_string(m));
  }
}

double binomial(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double c = 1.0;
  for (int t = 1; t <= k; ++t) c = c * static_cast<double>(n - k + t) / static_cast<double>(t);
  return c;
}

double binomial_pmf(int n, double p, int k) {
  if (k < 0 || k > n) return 0.0;
  return binomial(n, k) * std::pow(p, k) * std::pow(1.0 - p, n - k);
}

}  // namespace

NoisyTripletMixture noisy_triplet_mixture(double p) {
  if (!(p >= 0.0 && p <= 1.0)) throw InvalidArgument("label-accuracy", "must be in [0, 1], got " + format_number(p));
  return {p * p * p + (1 - p) * (1 - p) * (1 - p), p * (1 - p)};
}

NoiseAwareTripletWeights noise_aware_triplet_weights(double p) {
  check_accuracy(p);
  const double same = p * p + (1 - p) * (1 - p), d = (2 * p - 1) * (2 * p - 1);
  return {same / d, 2 * p * (1 - p) / d, same / d, p * (1 - p) / d};
}

double noisy_denominator_probability(double p, int m, int i, int j) {
  if (i < 0 || i > m || j < 0 || j > m) return 0.0;
  double total = 0.0;  // a true positives among the j noisy ones, i - a among the m - j noisy negatives
  for (int a = 0; a <= j; ++a) total += binomial_pmf(j, p, a) * binomial_pmf(m - j, 1.0 - p, i - a);
  return total;
}

double noisy_denominator_probability_as_printed(double p, int m, int i, int j) {
  double total = 0.0;
  if (j <= i) {
    for (int k = 0; k <= std::min(j, m - i); ++k) {
      total += binomial(j, k) * binomial(m - j, i - j + k) * std::pow(1 - p, i - j + 2 * k) * std::pow(p, m + j - i - 2 * k);
    }
  } else {
    for (int k = 0; k <= std::min(i, m - j); ++k) {
      total += binomial(m - j, k) * binomial(j, j - i + k) * std::pow(1 - p, j - i + 2 * k) * std::pow(p, m - j + i - 2 * k);
    }
  }
  return total;
}

std::vector<double> noise_aware_attract_weights(double p, int m) {
  check_accuracy(p);
  check_m(m);
  Eigen::MatrixXd P(m + 1, m + 1);
  for (int i = 0; i <= m; ++i) {
    for (int j = 0; j <= m; ++j) {
      P(i, j) = p * noisy_denominator_probability(p, m, i, j) + (1 - p) * noisy_denominator_probability(p, m, m - i, j);
    }
  }
  const Eigen::FullPivLU<Eigen::MatrixXd> lu(P);
  if (!lu.isInvertible()) {
    throw InvalidArgument("denominator-size", "gives a singular system at label-accuracy " + format_number(p) + " and m = " +
                                                  std::to_string(m));
  }
  Eigen::VectorXd e2 = Eigen::VectorXd::Zero(m + 1);
  e2(1) = 1.0;
  const Eigen::VectorXd w = lu.solve(e2);
  return std::vector<double>(w.data(), w.data() + w.size());
}

}  // namespace geomsim
