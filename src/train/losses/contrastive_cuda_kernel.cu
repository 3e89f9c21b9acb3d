// The fused CUDA passes of the contrastive losses (contrastive_cuda_kernel.hpp): compiled by nvcc
// where the build has CUDA (CMakeLists.txt, GEOMSIM_HAVE_CUDA_KERNELS); opt-in until a lent GPU
// has held them to the CPU's engine (streamed_contrastive_loss.hpp, ContrastivePath).
#include <cuda_runtime.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "contrastive_cuda_kernel.hpp"
#include "geomsim/objectives/contrastive_statistics.hpp"

namespace geomsim::train::cuda_kernel {
namespace {

constexpr int kThreads = 256;  // 16 x 16: thread (tx, ty) holds rows ty + 16 r and columns tx + 16 c of a tile
constexpr int kRows = 64;      // a block's rows
constexpr int kDepth = 16;     // the products' chunk of dimensions
constexpr int kStatColumns = 64;  // a tile's columns in the statistics passes
constexpr int kGradColumns = 32;  // ... in the gradient pass
constexpr int kDimChunk = 128;    // the gradient's columns a block holds in registers (blockIdx.y picks the chunk)
constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline double negative_infinity() { return -HUGE_VAL; }

// s for rows row0 + ty + 16 r (r < 4) against columns col0 + tx + 16 c (c < C / 16), times inv_tau;
// rows and columns past n give 0 (the caller skips them).
template <class T, int C>
__device__ void tile_products(const T* __restrict__ z, std::int64_t n, std::int64_t d, std::int64_t row0,
                              std::int64_t col0, T inv_tau, T (&a)[kDepth][kRows + 1], T (&b)[kDepth][C + 1],
                              T (&s)[4][C / 16]) {
  const int tid = static_cast<int>(threadIdx.x), tx = tid % 16, ty = tid / 16;
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int c = 0; c < C / 16; ++c) s[r][c] = T(0);
  }
  for (std::int64_t k0 = 0; k0 < d; k0 += kDepth) {
    for (int e = tid; e < kRows * kDepth; e += kThreads) {
      const int r = e / kDepth, k = e % kDepth;
      const std::int64_t i = row0 + r, kk = k0 + k;
      a[k][r] = i < n && kk < d ? z[i * d + kk] : T(0);
    }
    for (int e = tid; e < C * kDepth; e += kThreads) {
      const int c = e / kDepth, k = e % kDepth;
      const std::int64_t j = col0 + c, kk = k0 + k;
      b[k][c] = j < n && kk < d ? z[j * d + kk] : T(0);
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kDepth; ++k) {
      T x[4], y[C / 16];
#pragma unroll
      for (int r = 0; r < 4; ++r) x[r] = a[k][ty + 16 * r];
#pragma unroll
      for (int c = 0; c < C / 16; ++c) y[c] = b[k][tx + 16 * c];
#pragma unroll
      for (int r = 0; r < 4; ++r) {
#pragma unroll
        for (int c = 0; c < C / 16; ++c) s[r][c] = fma(x[r], y[c], s[r][c]);
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
#pragma unroll
    for (int c = 0; c < C / 16; ++c) s[r][c] *= inv_tau;
  }
}

// An online log-sum-exp in double: its largest term and the sum of e^{x - max}.
struct Lse {
  double max = negative_infinity(), sum = 0.0;
  __device__ void add(double x) {
    if (x > max) {
      sum = sum * exp(max - x) + 1.0;
      max = x;
    } else {
      sum += exp(x - max);
    }
  }
  __device__ void merge(double other_max, double other_sum) {
    const double top = fmax(max, other_max);
    if (top == negative_infinity()) return;
    sum = sum * exp(max - top) + other_sum * exp(other_max - top);
    max = top;
  }
  __device__ double value() const { return sum == 0.0 ? negative_infinity() : max + log(sum); }
};

// The 16 threads of a row (consecutive lanes of a half warp) combine their states: a fixed tree.
__device__ void reduce_row(Lse& l) {
  for (int offset = 8; offset > 0; offset /= 2) {
    const double m = __shfl_xor_sync(kFullMask, l.max, offset, 16);
    const double s = __shfl_xor_sync(kFullMask, l.sum, offset, 16);
    l.merge(m, s);
  }
}
__device__ void reduce_row(double& x) {
  for (int offset = 8; offset > 0; offset /= 2) x += __shfl_xor_sync(kFullMask, x, offset, 16);
}

struct RowRange {
  std::int64_t first = 0, last = 0, partner = -1;
};
__device__ RowRange row_range(const Rows& rows, std::int64_t i) {
  RowRange r;
  if (i >= rows.n) return r;
  r.first = rows.first[i];
  r.last = rows.last[i];
  r.partner = rows.partner != nullptr ? rows.partner[i] : -1;
  return r;
}

template <class T>
__global__ void __launch_bounds__(kThreads) statistics_kernel(const T* __restrict__ z, Rows rows,
                                                              double* __restrict__ out) {
  __shared__ T a[kDepth][kRows + 1];
  __shared__ T b[kDepth][kStatColumns + 1];
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRows;
  Lse negatives[4], positives[4], denominator[4];
  double positive_sum[4] = {0, 0, 0, 0}, partner[4] = {0, 0, 0, 0};
  RowRange range[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) range[r] = row_range(rows, row0 + ty + 16 * r);
  T s[4][kStatColumns / 16];
  for (std::int64_t col0 = 0; col0 < rows.n; col0 += kStatColumns) {
    tile_products<T, kStatColumns>(z, rows.n, rows.dim, row0, col0, static_cast<T>(rows.inv_tau), a, b, s);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const std::int64_t i = row0 + ty + 16 * r;
      if (i >= rows.n) continue;
#pragma unroll
      for (int c = 0; c < kStatColumns / 16; ++c) {
        const std::int64_t j = col0 + tx + 16 * c;
        if (j >= rows.n || j == i) continue;
        const double x = static_cast<double>(s[r][c]);
        if (j < range[r].first || j >= range[r].last) {
          negatives[r].add(x);
        } else {
          positives[r].add(x);
          positive_sum[r] += x;
          if (j == range[r].partner) {
            partner[r] = x;
          } else {
            denominator[r].add(x);
          }
        }
      }
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    reduce_row(negatives[r]);
    reduce_row(positives[r]);
    reduce_row(denominator[r]);
    reduce_row(positive_sum[r]);
    reduce_row(partner[r]);
    const std::int64_t i = row0 + ty + 16 * r;
    if (tx != 0 || i >= rows.n) continue;
    double* o = out + i * kRowStatistics;
    o[kLseNegatives] = negatives[r].value();
    o[kLsePositives] = positives[r].value();
    o[kLseDenominator] = denominator[r].value();
    o[kSumPositives] = positive_sum[r];
    o[kPartnerSimilarity] = partner[r];
    o[kSoftplusSum] = 0.0;
    o[kSigmoidSum] = 0.0;
    o[kPositives] = static_cast<double>(range[r].last - range[r].first - 1);
  }
}

// sigmoid(t) and softplus(t) by e^{-|t|}: no overflow at any t.
__device__ inline double sigmoid_of(double t, double u) { return t >= 0.0 ? 1.0 / (1.0 + u) : u / (1.0 + u); }

// L_sup's pass: sum over P(i) of softplus(lse_N(i) - s_ij) and sigmoid(...), for rows whose lse_N
// is finite; only the columns of the block's classes (rows are in class order).
template <class T>
__global__ void __launch_bounds__(kThreads) sup_kernel(const T* __restrict__ z, Rows rows, double* __restrict__ out) {
  __shared__ T a[kDepth][kRows + 1];
  __shared__ T b[kDepth][kStatColumns + 1];
  const int tx = static_cast<int>(threadIdx.x) % 16, ty = static_cast<int>(threadIdx.x) / 16;
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRows;
  const std::int64_t row_end = row0 + kRows < rows.n ? row0 + kRows : rows.n;
  const std::int64_t begin = rows.first[row0], end = rows.last[row_end - 1];
  double softplus_sum[4] = {0, 0, 0, 0}, sigmoid_sum[4] = {0, 0, 0, 0}, nu[4];
  RowRange range[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    const std::int64_t i = row0 + ty + 16 * r;
    range[r] = row_range(rows, i);
    nu[r] = i < rows.n ? out[i * kRowStatistics + kLseNegatives] : negative_infinity();
  }
  T s[4][kStatColumns / 16];
  for (std::int64_t col0 = begin; col0 < end; col0 += kStatColumns) {
    tile_products<T, kStatColumns>(z, rows.n, rows.dim, row0, col0, static_cast<T>(rows.inv_tau), a, b, s);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const std::int64_t i = row0 + ty + 16 * r;
      if (i >= rows.n || nu[r] == negative_infinity()) continue;
#pragma unroll
      for (int c = 0; c < kStatColumns / 16; ++c) {
        const std::int64_t j = col0 + tx + 16 * c;
        if (j == i || j < range[r].first || j >= range[r].last) continue;
        const double t = nu[r] - static_cast<double>(s[r][c]);
        const double u = exp(-fabs(t));
        softplus_sum[r] += fmax(t, 0.0) + log1p(u);
        sigmoid_sum[r] += sigmoid_of(t, u);
      }
    }
  }
#pragma unroll
  for (int r = 0; r < 4; ++r) {
    reduce_row(softplus_sum[r]);
    reduce_row(sigmoid_sum[r]);
    const std::int64_t i = row0 + ty + 16 * r;
    if (tx != 0 || i >= rows.n) continue;
    out[i * kRowStatistics + kSoftplusSum] = softplus_sum[r];
    out[i * kRowStatistics + kSigmoidSum] = sigmoid_sum[r];
  }
}

// What the gradient pass reads of a row: its statistics, weights and class range.
struct Side {
  double lse_negatives, lse_positives, lse_denominator;
  double w[kRowWeights];
  std::int64_t first, last, partner;
};

__device__ void load_side(Side& side, const Rows& rows, const double* statistics, const double* weights, std::int64_t i) {
  if (i >= rows.n) {
    side = Side{};
    return;
  }
  const double* st = statistics + i * kRowStatistics;
  side.lse_negatives = st[kLseNegatives];
  side.lse_positives = st[kLsePositives];
  side.lse_denominator = st[kLseDenominator];
  for (int k = 0; k < kRowWeights; ++k) side.w[k] = weights[i * kRowWeights + k];
  side.first = rows.first[i];
  side.last = rows.last[i];
  side.partner = rows.partner != nullptr ? rows.partner[i] : -1;
}

// Row a's coefficient C_ab of s_ab (contrastive_tiles.hpp, in the CPU engine's order of terms).
__device__ double coefficient(const Side& a, std::int64_t ia, std::int64_t ib, double s) {
  if (ia == ib) return 0.0;
  if (ib < a.first || ib >= a.last) {
    return a.w[kWeightNegatives] != 0.0 ? a.w[kWeightNegatives] * exp(s - a.lse_negatives) : 0.0;
  }
  double c = 0.0;
  if (a.w[kWeightPositives] != 0.0) c += a.w[kWeightPositives] * exp(s - a.lse_positives);
  if (ib != a.partner && a.w[kWeightDenominator] != 0.0) c += a.w[kWeightDenominator] * exp(s - a.lse_denominator);
  if (a.w[kWeightSigmoid] != 0.0 && a.lse_negatives != negative_infinity()) {
    const double t = a.lse_negatives - s;
    c += a.w[kWeightSigmoid] * sigmoid_of(t, exp(-fabs(t)));
  }
  c += a.w[kWeightConstant];
  if (ib == a.partner) c += a.w[kWeightPartner];
  return c;
}

template <class T>
__global__ void __launch_bounds__(kThreads) gradient_kernel(const T* __restrict__ z, Rows rows,
                                                            const double* __restrict__ statistics,
                                                            const double* __restrict__ weights, T* __restrict__ out) {
  __shared__ T a[kDepth][kRows + 1];
  __shared__ T b[kDepth][kGradColumns + 1];
  __shared__ T m[kRows][kGradColumns + 1];
  __shared__ Side row_side[kRows];
  __shared__ Side column_side[kGradColumns];
  const int tid = static_cast<int>(threadIdx.x), tx = tid % 16, ty = tid / 16;
  const std::int64_t row0 = static_cast<std::int64_t>(blockIdx.x) * kRows;
  const std::int64_t k0 = static_cast<std::int64_t>(blockIdx.y) * kDimChunk;
  for (int r = tid; r < kRows; r += kThreads) load_side(row_side[r], rows, statistics, weights, row0 + r);
  // The products' accumulators: row (tid % 64), dimensions k0 + (tid / 64) + 4 q.
  const int mr = tid % kRows, mg = tid / kRows;
  T acc[kDimChunk / 4];
#pragma unroll
  for (int q = 0; q < kDimChunk / 4; ++q) acc[q] = T(0);
  T s[4][kGradColumns / 16];
  for (std::int64_t col0 = 0; col0 < rows.n; col0 += kGradColumns) {
    for (int c = tid; c < kGradColumns; c += kThreads) load_side(column_side[c], rows, statistics, weights, col0 + c);
    tile_products<T, kGradColumns>(z, rows.n, rows.dim, row0, col0, static_cast<T>(rows.inv_tau), a, b, s);
#pragma unroll
    for (int r = 0; r < 4; ++r) {
      const int lr = ty + 16 * r;
      const std::int64_t i = row0 + lr;
#pragma unroll
      for (int c = 0; c < kGradColumns / 16; ++c) {
        const int lc = tx + 16 * c;
        const std::int64_t j = col0 + lc;
        double x = 0.0;
        if (i < rows.n && j < rows.n) {
          const double sij = static_cast<double>(s[r][c]);
          x = coefficient(row_side[lr], i, j, sij) + coefficient(column_side[lc], j, i, sij);
        }
        m[lr][lc] = static_cast<T>(x);
      }
    }
    __syncthreads();
    const std::int64_t columns = rows.n - col0 < kGradColumns ? rows.n - col0 : kGradColumns;
    for (int jj = 0; jj < columns; ++jj) {
      const T w = m[mr][jj];
      const T* zj = z + (col0 + jj) * rows.dim;
#pragma unroll
      for (int q = 0; q < kDimChunk / 4; ++q) {
        const std::int64_t k = k0 + mg + 4 * q;
        if (k < rows.dim) acc[q] = fma(w, zj[k], acc[q]);
      }
    }
    __syncthreads();  // m and column_side are rewritten by the next tile
  }
  const std::int64_t i = row0 + mr;
  if (i >= rows.n) return;
  const T inv_tau = static_cast<T>(rows.inv_tau);
#pragma unroll
  for (int q = 0; q < kDimChunk / 4; ++q) {
    const std::int64_t k = k0 + mg + 4 * q;
    if (k < rows.dim) out[i * rows.dim + k] = acc[q] * inv_tau;
  }
}

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string("the contrastive CUDA kernel (") + what + ") failed: " +
                             cudaGetErrorString(status));
  }
}

unsigned row_blocks(std::int64_t n) { return static_cast<unsigned>((n + kRows - 1) / kRows); }

template <class T>
void run_statistics(const T* z, const Rows& rows, bool sup_terms, double* statistics, void* stream) {
  if (rows.n == 0) return;
  const auto s = static_cast<cudaStream_t>(stream);
  statistics_kernel<T><<<row_blocks(rows.n), kThreads, 0, s>>>(z, rows, statistics);
  check(cudaGetLastError(), "statistics");
  if (!sup_terms) return;
  sup_kernel<T><<<row_blocks(rows.n), kThreads, 0, s>>>(z, rows, statistics);
  check(cudaGetLastError(), "L_sup's sums");
}

template <class T>
void run_gradient(const T* z, const Rows& rows, const double* statistics, const double* weights, T* gradient,
                  void* stream) {
  if (rows.n == 0 || rows.dim == 0) return;
  const dim3 grid(row_blocks(rows.n), static_cast<unsigned>((rows.dim + kDimChunk - 1) / kDimChunk));
  gradient_kernel<T><<<grid, kThreads, 0, static_cast<cudaStream_t>(stream)>>>(z, rows, statistics, weights, gradient);
  check(cudaGetLastError(), "gradient");
}

}  // namespace

void statistics(const float* z, const Rows& rows, bool sup_terms, double* out, void* stream) {
  run_statistics(z, rows, sup_terms, out, stream);
}
void statistics(const double* z, const Rows& rows, bool sup_terms, double* out, void* stream) {
  run_statistics(z, rows, sup_terms, out, stream);
}
void gradient(const float* z, const Rows& rows, const double* statistics, const double* weights, float* out,
              void* stream) {
  run_gradient(z, rows, statistics, weights, out, stream);
}
void gradient(const double* z, const Rows& rows, const double* statistics, const double* weights, double* out,
              void* stream) {
  run_gradient(z, rows, statistics, weights, out, stream);
}

}  // namespace geomsim::train::cuda_kernel
