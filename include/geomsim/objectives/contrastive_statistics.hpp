#pragma once
// The columns of the streaming engine's per-row statistics and weights (contrastive_tiles.hpp):
// alone, with no Eigen, so that the engine's CUDA kernels (nvcc) read the same numbering.

namespace geomsim {

// The statistics of a row, in this order (columns of the N x kRowStatistics row-major array).
enum ContrastiveStatistic : int {
  kLseNegatives = 0,  // log sum_{N(i)} e^{s_ij}; -inf when N(i) is empty
  kLsePositives,      // over P(i)
  kLseDenominator,    // over D(i)
  kSumPositives,      // sum_{P(i)} s_ij
  kPartnerSimilarity, // s_i,a(i); 0 without a partner
  kSoftplusSum,       // sum_{P(i)} softplus(lse_N(i) - s_ij)   (only with sup_terms)
  kSigmoidSum,        // sum_{P(i)} sigmoid(lse_N(i) - s_ij)
  kPositives,         // |P(i)|
  kRowStatistics
};

// Row i's coefficient of s_ij is
//   j in N(i):  negatives * e^{s_ij - lse_N(i)}
//   j in P(i):  positives * e^{s_ij - lse_P(i)} + denominator * e^{s_ij - lse_D(i)} [j in D(i)]
//               + sigmoid * sigmoid(lse_N(i) - s_ij) + constant
//   j = a(i):   + partner
// (columns of the N x kRowWeights row-major array, in this order).
enum ContrastiveWeight : int { kWeightNegatives = 0, kWeightPositives, kWeightDenominator, kWeightSigmoid,
                               kWeightConstant, kWeightPartner, kRowWeights };

}  // namespace geomsim
