// The simulator objective's fused element-wise passes (spread_objective_cuda_kernel.hpp), compiled
// by nvcc where the build has CUDA (CMakeLists.txt, GEOMSIM_HAVE_CUDA_KERNELS).
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "spread_objective_cuda_kernel.hpp"

namespace geomsim::train::cuda_kernel {
namespace {

constexpr int kThreads = 256;

__device__ inline double negative_infinity() { return -HUGE_VAL; }

__global__ void __launch_bounds__(kThreads) tile_sums_kernel(SpreadTile tile, double* __restrict__ negative_max,
                                                             double* __restrict__ negative_sum,
                                                             double* __restrict__ positive_sum) {
  __shared__ double max_s[kThreads], sum_s[kThreads], pos_s[kThreads];
  const std::int64_t i = blockIdx.x;
  const int tid = static_cast<int>(threadIdx.x);
  const double* row = tile.z + i * tile.stride;
  const std::int64_t y = tile.row_class[i];
  double top = negative_infinity(), sum = 0.0, pos = 0.0;
  for (std::int64_t j = tid; j < tile.columns; j += kThreads) {
    const double z = row[j];
    if (tile.column_class[j] == y) {
      pos += exp(z);
    } else if (z > top) {
      sum = sum * exp(top - z) + 1.0;
      top = z;
    } else {
      sum += exp(z - top);
    }
  }
  max_s[tid] = top;
  sum_s[tid] = sum;
  pos_s[tid] = pos;
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {  // a fixed tree: the same bits every launch
    if (tid < half) {
      const double m1 = max_s[tid], m2 = max_s[tid + half], m = fmax(m1, m2);
      if (m != negative_infinity()) sum_s[tid] = sum_s[tid] * exp(m1 - m) + sum_s[tid + half] * exp(m2 - m);
      max_s[tid] = m;
      pos_s[tid] += pos_s[tid + half];
    }
    __syncthreads();
  }
  if (tid == 0) {
    negative_max[i] = max_s[0];
    negative_sum[i] = sum_s[0];
    positive_sum[i] = pos_s[0];
  }
}

__global__ void __launch_bounds__(kThreads) tile_coefficients_kernel(SpreadTile tile, SpreadCoefficients rows,
                                                                     SpreadCoefficients columns) {
  const std::int64_t i = blockIdx.y;
  const std::int64_t j = static_cast<std::int64_t>(blockIdx.x) * kThreads + threadIdx.x;
  if (j >= tile.columns) return;
  double& z = tile.z[i * tile.stride + j];
  const double e = z;
  if (tile.row_class[i] == tile.column_class[j]) {
    z = (rows.b[i] + columns.b[j]) * exp(e);
  } else {
    z = rows.a[i] * exp(e - rows.m[i]) + columns.a[j] * exp(e - columns.m[j]);
  }
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("the spread objective's CUDA kernel (") + what + ") failed: " +
                             cudaGetErrorString(status));
  }
}

}  // namespace

void spread_tile_sums(const SpreadTile& tile, double* negative_max, double* negative_sum, double* positive_sum,
                      void* stream) {
  if (tile.rows == 0 || tile.columns == 0) return;
  tile_sums_kernel<<<static_cast<unsigned>(tile.rows), kThreads, 0, static_cast<cudaStream_t>(stream)>>>(
      tile, negative_max, negative_sum, positive_sum);
  check(cudaGetLastError(), "pass 1");
}

void spread_tile_coefficients(const SpreadTile& tile, const SpreadCoefficients& rows, const SpreadCoefficients& columns,
                              void* stream) {
  if (tile.rows == 0 || tile.columns == 0) return;
  const dim3 grid(static_cast<unsigned>((tile.columns + kThreads - 1) / kThreads), static_cast<unsigned>(tile.rows));
  tile_coefficients_kernel<<<grid, kThreads, 0, static_cast<cudaStream_t>(stream)>>>(tile, rows, columns);
  check(cudaGetLastError(), "pass 2");
}

}  // namespace geomsim::train::cuda_kernel
