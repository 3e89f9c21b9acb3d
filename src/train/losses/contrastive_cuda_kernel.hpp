#pragma once
// The streaming engine's two passes (geomsim/objectives/contrastive_tiles.hpp) as fused CUDA
// kernels, on raw device pointers: no torch header, so that nvcc compiles the kernels alone
// (contrastive_cuda_kernel.cu) and cuda_kernels.cpp gives them tensors.
//
// The rows are in class order (row i's class is the rows [first[i], last[i])), on the device,
// z row-major n x d. Each block of 256 threads owns 64 rows and walks every tile of columns:
// one register-tiled product per tile (s_ij = z_i . z_j / tau, in T), then, in the same pass,
// per row online log-sum-exps over N(i), P(i) and D(i), the sum over P(i) and s_i,a(i), all in
// double; the 16 threads that share a row combine their partial states by a fixed shuffle tree.
// So a launch gives the same bits every time. L_sup's pass walks only the columns of the
// block's classes. The gradient pass recomputes each tile and, for the block's rows i against
// the tile's columns j, forms C_ij + C_ji at once (s_ij = s_ji: each ordered pair is the row
// side of one block, the column side of another), then adds (C + C^T) z into the rows' registers:
// no atomics, no N x N matrix; memory beyond the inputs is the statistics and the gradient.
#include <cstdint>

namespace geomsim::train::cuda_kernel {

struct Rows {
  std::int64_t n = 0, dim = 0;
  double inv_tau = 1.0;
  const std::int64_t* first = nullptr;    // device, n
  const std::int64_t* last = nullptr;     // device, n
  const std::int64_t* partner = nullptr;  // device, n, or nullptr: no row has one
};

// statistics: device, n x 8 float64 (contrastive_tiles.hpp's ContrastiveStatistic columns),
// every row's (anchors are chosen by the weights). L_sup's two sums only when sup_terms.
// stream: a cudaStream_t. Throws std::runtime_error naming the CUDA error of a failed launch.
void statistics(const float* z, const Rows& rows, bool sup_terms, double* statistics, void* stream);
void statistics(const double* z, const Rows& rows, bool sup_terms, double* statistics, void* stream);

// gradient (device, n x dim) = sum_j (C_ij + C_ji) z_j / tau, C from the statistics and the
// weights (n x 6 float64, contrastive_tiles.hpp's ContrastiveWeight columns).
void gradient(const float* z, const Rows& rows, const double* statistics, const double* weights, float* gradient,
              void* stream);
void gradient(const double* z, const Rows& rows, const double* statistics, const double* weights, double* gradient,
              void* stream);

}  // namespace geomsim::train::cuda_kernel
