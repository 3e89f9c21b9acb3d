#pragma once
// Seed 002's Conditional Contrastive Learning with Kernel (CCL-K), and seed 000's names for
// seed 004's two terms.
//
// CCL-K. For a batch of b pairs (x_i, y_i) (two views) with conditioning values z_i:
//   K_XY[i][j] = exp(x_i . y_j / tau),   K_Z = a kernel on the z_i (b x b),
//   W = (K_Z + lambda I)^{-1} K_Z        (the kernel conditional embedding; no gradient),
//   K_{X _||_ Y | Z} = K_XY W            (estimated scores of conditionally sampled pairs).
// Minimised (the negatives of eqs. 7-9):
//   WeaklySup: -mean_i log( [K_XY W]_ii / ([K_XY W]_ii + sum_{j != i} K_XY[i][j]) )
//   Fair:      -mean_i log( K_XY[i][i] / (K_XY[i][i] + (b - 1) [K_XY W]_ii) )
//   HardNeg:   Fair's formula with K_Z built from the (detached) embeddings themselves.
// The released code (CCLK-release a5b4136, ConditionalSampling.py; details with line numbers in
// docs/reference/losses.md, "The public code's conventions") differs: its weac-infonce (the same
// branch as hardnegatives, line 96; here Fair) and cl-infonce (WeaklySup) add within-view
// negatives (K_XX W, and for cl-infonce K_XX's row sum and within-view positives), average the
// losses of both views' anchors, clamp denominators to [1e-7, 1e20], and form W in float32 with
// its diagonal zeroed and entries below 1e-6 dropped (lines 140-164); cl-infonce counts exp(s_ii)
// among the negatives (Kxy.sum(1), line 118). Here: view 1's anchors; W solved in float64, cast to z's dtype.
// The released conventions are offered as their own losses, cclk_fair_released_loss (the loss
// cclk-fair-released) and cclk_weakly_supervised_released_loss (cclk-weak-released), below.
// With the delta kernel (K_Z[i][j] = 1 when z_i = z_j) and a group of size m,
// [K_XY W]_ii = m/(m + lambda) x the mean of K_XY[i][j] over j with z_j = z_i.
// All are computed in log space from the similarities, without forming exp(x.y/tau), on the
// inputs' device without reading values back (a non-positive conditional score is refused in
// host memory only; see contrastive_losses.hpp, Device).
//
// Seed 000 defines L_spread = alpha L_attract + (1 - alpha) L_repel, where L_attract is seed
// 004's L_sup and L_repel its L_cNCE: alpha weights the attracting term, the reverse of 004.
#include <torch/torch.h>

namespace geomsim::train {

// K_Z[i][j] = 1 if labels_i = labels_j, else 0 (float64, b x b).
torch::Tensor delta_kernel(const torch::Tensor& labels);
// K_Z = exp(-|u_i - u_j|^2 / (2 bandwidth^2)) for rows u_i of `values` (b x k), float64, with
// |u_i - u_j| in cdist's matrix-product form (torch::cdist's bits for b > 25, within rounding below).
torch::Tensor gaussian_kernel(const torch::Tensor& values, double bandwidth);

// W = (K_Z + lambda I)^{-1} K_Z, by a Cholesky solve (K_Z + lambda I is positive definite for a
// positive semi-definite kernel and lambda > 0; a kernel that is not is refused in host memory).
torch::Tensor conditional_embedding_weights(const torch::Tensor& kernel, double lambda);

// Which W the losses use: exact, W itself; nonnegative, W with its negative entries set to 0
// (W+), as CCLK-release does ("clamp negative weight to avoid negative loss", ConditionalSampling.py
// compute_weight, which also drops entries below 1e-6 and the diagonal; here only the negative
// ones). W's diagonal is positive for a kernel with a positive diagonal (W_ii = 1 - lambda
// [(K_Z + lambda I)^-1]_ii > 0), so with W+ every conditional score [K_XY W+]_ii is positive: a
// kernel that takes negative values (linear or cosine on signed attributes) gives a usable loss.
// The delta kernel's W has no negative entry in exact arithmetic (its Cholesky solve leaves
// entries of order 1e-17 of either sign where W is 0). The registry's cclk-weak and cclk-fair use
// nonnegative, except on the labels with the cosine or linear kernel (the delta kernel), where
// they use exact, as before the kernels were added (loss_registry.cpp).
enum class ConditionalWeights { exact, nonnegative };

torch::Tensor cclk_weakly_supervised_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel,
                                          double lambda, double tau, ConditionalWeights weights = ConditionalWeights::exact);
torch::Tensor cclk_fair_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel, double lambda,
                             double tau, ConditionalWeights weights = ConditionalWeights::exact);
torch::Tensor cclk_hard_negative_loss(const torch::Tensor& x, const torch::Tensor& y, double bandwidth, double lambda,
                                      double tau);

// CCLK-release's conventions (a5b4136, ConditionalSampling.py:46-164, critic.py:21-33). With
// s12 = x y^T / tau, s11 = x x^T / tau, s22 = y y^T / tau, K12 = exp(s12), K11 = exp(s11) and
// K22 = exp(s22) with zero diagonals (the critic's -inf), [K V]_ii = sum_j K_ij V_ji, and
// clamp = clamp to [1e-7, 1e20] (its value and gradient):
//   V = released_conditional_weights(kernel, lambda): (K_Z + lambda I)^{-1} cast to float32,
//       times K_Z in float32, diagonal set to 0, entries below 1e-6 set to 0 (negative ones
//       too), then cast to x's dtype (lines 140-164);
//   cclk_fair_released_loss (weac-infonce, lines 96-113), anchors of view 1 then of view 2:
//     L_x = mean_i log clamp(e^{s12_ii} + (b - 1) ([K12 V]_ii + [K11 V]_ii)) - s12_ii
//     L_y = mean_i log clamp(e^{s12_ii} + (b - 1) ([K12^T V]_ii + [K22 V]_ii)) - s12_ii
//   cclk_weakly_supervised_released_loss (cl-infonce, lines 115-127):
//     P_x = clamp([K11 V]_ii + [K12 V]_ii),  L_x = mean_i log clamp(P_x + sum_j K12_ij + sum_j K11_ij) - log P_x
//     P_y = clamp([K22 V]_ii + [K12^T V]_ii), L_y = mean_i log clamp(P_y + sum_j K12_ji + sum_j K22_ij) - log P_y
//     (sum_j K12_ij holds j = i: exp(s_ii) is counted among the negatives);
//   the loss is (L_x + L_y) / 2. Like the released code these form exp(s), not logs of sums: a
//   score above the clamp's 1e20 is clamped (and has no gradient), as there.
torch::Tensor released_conditional_weights(const torch::Tensor& kernel, double lambda);
torch::Tensor cclk_fair_released_loss(const torch::Tensor& x, const torch::Tensor& y, const torch::Tensor& kernel,
                                      double lambda, double tau);
torch::Tensor cclk_weakly_supervised_released_loss(const torch::Tensor& x, const torch::Tensor& y,
                                                   const torch::Tensor& kernel, double lambda, double tau);

// Seed 000's terms and its weighting.
torch::Tensor attract_loss(const torch::Tensor& z, const torch::Tensor& labels, double tau);
torch::Tensor repel_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau);
torch::Tensor spread_loss_seed000(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                  double tau, double alpha);

}  // namespace geomsim::train
