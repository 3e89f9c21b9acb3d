#pragma once
// The training losses' fused CUDA kernels given tensors: the streaming engine's two passes
// (contrastive_cuda_kernel.hpp; streamed_contrastive_loss.cpp chooses them by ContrastivePath) and
// the simulator objective's element-wise passes (spread_objective_cuda_kernel.hpp;
// tensor_spread_objective.cpp, when asked). cuda_kernels.cpp where the build has them (nvcc and a
// CUDA libtorch), cuda_kernels_absent.cpp elsewhere.
#include <torch/torch.h>

namespace geomsim::train::detail {

// Whether this build compiled the kernels.
bool cuda_kernels_built();

// The forward pass's statistics (N x kContrastiveStatistics float64, z's row order) of z (float or
// double, on a CUDA device) by the kernels; L_sup's sums when sup_terms.
torch::Tensor cuda_kernel_statistics(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                     bool sup_terms, double tau);
// sum_j (C_ij + C_ji) z_j / tau for the statistics and the row weights (N x kRowWeights float64).
torch::Tensor cuda_kernel_gradient(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                   const torch::Tensor& statistics, const torch::Tensor& weights, double tau);

// The spread objective's pass 1 over a tile Z (rows x columns, float64, contiguous rows, on CUDA)
// whose rows and columns have the classes row_class and column_class (int64): per row the
// negatives' largest exponent and their sum of e^{z - max}, and the positives' sum of e^z.
struct SpreadTileSums {
  torch::Tensor negative_max, negative_sum, positive_sum;
};
SpreadTileSums spread_tile_sums(const torch::Tensor& Z, const torch::Tensor& row_class, const torch::Tensor& column_class);
// Pass 2: Z becomes S_ij = C_ij + C_ji in place (spread_objective_cuda_kernel.hpp), from the rows'
// and the columns' a, b and m.
void spread_tile_coefficients(torch::Tensor& Z, const torch::Tensor& row_class, const torch::Tensor& column_class,
                              const torch::Tensor& row_a, const torch::Tensor& row_b, const torch::Tensor& row_m,
                              const torch::Tensor& column_a, const torch::Tensor& column_b, const torch::Tensor& column_m);

}  // namespace geomsim::train::detail
