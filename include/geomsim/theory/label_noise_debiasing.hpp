#pragma once
// Seed 000's noise-aware contrastive losses (Appendix F.3.1), under its model of symmetric binary
// label noise: each noisy label is correct with probability p ("p̃ = Pr(noisy label is correct)"),
// independently. A pair of points is truly positive when both labels are correct or both wrong.
//
// Lemma A3: the triplet loss on noisy pairs is the clean one weighted by p^3 + (1 - p)^3 ("all
// three points are correct or all reversed"), plus three swapped-pair terms, each weighted by
// p (1 - p).
//
// Lemma A4: with w+ = (p^2 + (1-p)^2) / (2p - 1)^2, w- = 2p(1-p) / (2p - 1)^2,
// w1 = (p^2 + (1-p)^2) / (2p - 1)^2 and w2 = p(1-p) / (2p - 1)^2,
//   L~ = E[ -w+ s(x, x~1+) + w- s(x, x~1-) + w1 log(e^s(x,x~1+) + e^s(x,x~1-))
//          - w2 log((e^s(x,x~1+) + e^s(x,x~2+)) (e^s(x,x~1-) + e^s(x,x~2-))) ]
// has E[L~] = L_triplet, the clean triplet loss.
//
// Proposition A1: for L_attract with m = n + 1 terms in its denominator, the weights w_0..w_m of
//   L~_attract = E[ -w+ s(x, x~1+) + w- s(x, x~1-)
//                   + sum_k w_k log(sum_{i<=k} e^s(x,x~i+) + sum_{j<=m-k} e^s(x,x~j-)) ]
// solve P w = e_2 (the second basis vector), P_ij = p Q_ij + (1 - p) Q_{m-i,j}, where Q_ij is the
// chance that a denominator of j noisy positives and m - j noisy negatives holds i true positives
// when the anchor's label is correct: the law of Bin(j, p) + Bin(m - j, 1 - p) at i. The seed
// writes Q_ij as two binomial sums (j <= i and j > i); tests/theory/test_label_noise_debiasing.cpp
// holds them equal to the convolution computed here, and holds E[L~] = L by enumerating the
// noise. At m = 2, w = (-w2, w1, -w2): Lemma A4's triplet. p = 1/2 makes every pair equally likely
// positive or negative, and the weights do not exist (InvalidArgument).
//
// Seed 000 adds "a different form of E[L~_attract] must be computed for the multi-class case,
// which we do not present here" (Proposition A1) and, of its weights, "We found this de-noising
// algorithm very unstable as a result" (Observation A2).
#include <vector>

namespace geomsim {

inline constexpr int kMaxDebiasedDenominator = 16;  // m: the weights' (m+1) x (m+1) system

// Lemma A3's weights: the clean triplet loss's and each swapped-pair term's.
struct NoisyTripletMixture {
  double clean = 0.0;    // p^3 + (1 - p)^3
  double swapped = 0.0;  // p (1 - p), for each of the three other terms
};
NoisyTripletMixture noisy_triplet_mixture(double label_accuracy);

// Lemma A4's weights.
struct NoiseAwareTripletWeights {
  double positive = 0.0;  // w+
  double negative = 0.0;  // w-
  double mixed = 0.0;     // w1, on log(e^s1+ + e^s1-)
  double paired = 0.0;    // w2, on log((e^s1+ + e^s2+)(e^s1- + e^s2-))
};
// Throws InvalidArgument("label-accuracy") outside [0, 1] and at 1/2.
NoiseAwareTripletWeights noise_aware_triplet_weights(double label_accuracy);

// Q_ij of Proposition A1, i, j in 0..m: the law of Bin(j, p) + Bin(m - j, 1 - p) at i.
double noisy_denominator_probability(double label_accuracy, int m, int i, int j);
// ... and as the seed writes it, its two binomial sums.
double noisy_denominator_probability_as_printed(double label_accuracy, int m, int i, int j);

// Proposition A1's w_0..w_m (m + 1 values). Throws InvalidArgument naming "label-accuracy" (outside
// [0, 1], or 1/2) and "denominator-size" (m outside 2..kMaxDebiasedDenominator, or a singular
// system).
std::vector<double> noise_aware_attract_weights(double label_accuracy, int m);

}  // namespace geomsim
