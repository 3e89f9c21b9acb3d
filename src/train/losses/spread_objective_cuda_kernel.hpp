#pragma once
// The element-wise passes of the simulator's objective on CUDA (tensor_spread_objective.hpp) as
// fused kernels over one tile of exponents z_ij = -|x_i - x_j|^2 / 2 tau (computed by cuBLAS), on
// raw device pointers: no torch header, so that nvcc compiles them alone
// (spread_objective_cuda_kernel.cu) and cuda_kernels.cpp gives them tensors. The points are in
// class order; row_class and column_class are the tile's rows' and columns' classes.
#include <cstdint>

namespace geomsim::train::cuda_kernel {

struct SpreadTile {
  double* z = nullptr;  // rows x columns, row stride `stride`, on the device
  std::int64_t rows = 0, columns = 0, stride = 0;
  const std::int64_t* row_class = nullptr;
  const std::int64_t* column_class = nullptr;
};

// Pass 1, one read of the tile: per row, the largest exponent over the row's negatives (-inf
// without any), the sum of e^{z_ij - that max} over them, and the sum of e^{z_ij} over its
// positives (its class, j = i included). Each row is one block's fixed-order reduction.
void spread_tile_sums(const SpreadTile& tile, double* negative_max, double* negative_sum, double* positive_sum,
                      void* stream);

// Pass 2, one read and one write: z_ij becomes S_ij = C_ij + C_ji, with C_ij = a_i e^{z_ij - m_i}
// for a negative and b_i e^{z_ij} for a positive (tensor_spread_objective.cpp), so that the rows'
// gradient sums need one product S [X, 1] per tile and no column side.
struct SpreadCoefficients {
  const double* a = nullptr;  // per row of the tile (row_*) or column (column_*): a, b and m
  const double* b = nullptr;
  const double* m = nullptr;
};
void spread_tile_coefficients(const SpreadTile& tile, const SpreadCoefficients& rows,
                              const SpreadCoefficients& columns, void* stream);

}  // namespace geomsim::train::cuda_kernel
