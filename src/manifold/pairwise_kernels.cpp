#include "geomsim/manifold/pairwise_kernels.hpp"

#include <omp.h>

#include <algorithm>
#include <utility>
#include <vector>

namespace geomsim {
namespace {

Index tiles(Index n) { return (n + kBlock - 1) / kBlock; }
Index tile_size(Index n, Index t) { return std::min(kBlock, n - t * kBlock); }

// Calls f(r0, rn, c0, cn) for every tile (rows r0..r0+rn, columns c0..c0+cn) on or
// below the diagonal, in parallel; each tile is handled by one thread.
template <class F>
void for_each_lower_tile(Index n, F&& f) {
  std::vector<std::pair<Index, Index>> pairs;
  for (Index I = 0; I < tiles(n); ++I) {
    for (Index J = 0; J <= I; ++J) pairs.emplace_back(I, J);
  }
  const auto count = static_cast<Index>(pairs.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (Index k = 0; k < count; ++k) {
    const auto [I, J] = pairs[static_cast<std::size_t>(k)];
    f(I * kBlock, tile_size(n, I), J * kBlock, tile_size(n, J));
  }
}

}  // namespace

// Each kernel takes a direct path when the matrix is a single tile: at N = 24 the
// tiling's bookkeeping would cost as much as the arithmetic.

// A GEMM need not give bitwise-equal (i, j) and (j, i) entries (with FMA the two are
// accumulated in different orders), so the Gram matrix's diagonal tiles are mirrored too.
void gram_matrix(const Matrix& U, Matrix& W) {
  const Index N = U.cols();
  if (N <= kBlock) {
    W.noalias() = U.transpose() * U;
    W.triangularView<Eigen::StrictlyUpper>() = W.transpose();
    return;
  }
  W.resize(N, N);
  for_each_lower_tile(N, [&](Index r0, Index rn, Index c0, Index cn) {
    auto tile = W.block(r0, c0, rn, cn);
    tile.noalias() = U.middleCols(r0, rn).transpose() * U.middleCols(c0, cn);
    if (r0 != c0) {
      W.block(c0, r0, cn, rn) = tile.transpose();
    } else {
      tile.triangularView<Eigen::StrictlyUpper>() = tile.transpose();
    }
  });
}

void cross_product(const Matrix& U, const Matrix& V, Matrix& T) {
  const Index N = V.cols();
  if (N <= kBlock) {
    T.noalias() = U.transpose() * V;
    return;
  }
  T.resize(U.cols(), N);
#pragma omp parallel for schedule(dynamic, 1)
  for (Index J = 0; J < tiles(N); ++J) {
    const Index c0 = J * kBlock, cn = tile_size(N, J);
    T.middleCols(c0, cn).noalias() = U.transpose() * V.middleCols(c0, cn);
  }
}

void symmetrize_add_transpose(Matrix& W) {
  const Index N = W.cols();
  if (N <= kBlock) {  // cache-resident: a plain in-place sweep
    for (Index j = 0; j < N; ++j) {
      for (Index i = j; i < N; ++i) W(i, j) = W(j, i) = W(i, j) + W(j, i);
    }
    return;
  }
  for_each_lower_tile(N, [&](Index r0, Index rn, Index c0, Index cn) {
    const Matrix sum = W.block(r0, c0, rn, cn) + W.block(c0, r0, cn, rn).transpose();
    W.block(r0, c0, rn, cn) = sum;
    W.block(c0, r0, cn, rn) = sum.transpose();
  });
}

void tiled_product(const Matrix& U, const Matrix& W, Eigen::Ref<Matrix> out) {
  const Index N = W.cols();
  if (N <= kBlock) {
    out.noalias() = U * W;
    return;
  }
#pragma omp parallel for schedule(dynamic, 1) if (N > kBlock)
  for (Index J = 0; J < tiles(N); ++J) {
    const Index c0 = J * kBlock, cn = tile_size(N, J);
    out.middleCols(c0, cn).noalias() = U * W.middleCols(c0, cn);
  }
}

// The circle method: m slots (m even; a slot >= the number of blocks is a bye), slot m - 1
// fixed, the others rotating; in round r slot m - 1 meets slot r and slot (r + k) meets
// slot (r - k), mod m - 1. Every pair of slots meets exactly once in m - 1 rounds.
void for_each_tile_in_rounds(Index n, const std::function<void(const Tile&, int thread)>& f) {
  const Index blocks = tiles(n);
  const auto tile = [&](Index I, Index J) {
    if (I < J) std::swap(I, J);
    return Tile{I * kBlock, tile_size(n, I), J * kBlock, tile_size(n, J)};
  };
  std::vector<std::vector<Tile>> rounds;
  const Index m = blocks + blocks % 2;
  for (Index r = 0; r + 1 < m; ++r) {
    std::vector<Tile> round;
    const auto meet = [&](Index a, Index b) {
      if (a < blocks && b < blocks) {
        round.push_back(tile(a, b));
      } else if (a < blocks) {
        round.push_back(tile(a, a));  // a sits this round out: its diagonal tile
      } else if (b < blocks) {
        round.push_back(tile(b, b));
      }
    };
    meet(m - 1, r);
    for (Index k = 1; k < m / 2; ++k) meet((r + k) % (m - 1), (r - k + m - 1) % (m - 1));
    rounds.push_back(std::move(round));
  }
  if (blocks % 2 == 0) {  // no byes: the diagonal tiles get a round of their own
    std::vector<Tile> round;
    for (Index I = 0; I < blocks; ++I) round.push_back(tile(I, I));
    rounds.push_back(std::move(round));
  }
#pragma omp parallel if (blocks > 1)
  {
    const int thread = omp_get_thread_num();
    for (const auto& round : rounds) {
      const auto count = static_cast<Index>(round.size());
#pragma omp for schedule(dynamic, 1)
      for (Index k = 0; k < count; ++k) f(round[static_cast<std::size_t>(k)], thread);
    }
  }
}

}  // namespace geomsim
