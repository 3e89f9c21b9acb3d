#pragma once
// Blocked, parallel building blocks for objectives computed from the Gram matrix.
//
// Work is split into fixed kBlock x kBlock tiles (never by thread count), and every
// output element belongs to exactly one tile computed serially by Eigen, so results are
// bit-for-bit the same for any number of OpenMP threads.
#include <functional>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// Tile edge: 256 x 256 doubles = 512 KiB, within this machine's 2 MiB L2 per core.
constexpr Index kBlock = 256;

// W = U^T U (N x N), computing only the tiles on and below the diagonal (half the
// flops of a general product) and mirroring them.
void gram_matrix(const Matrix& U, Matrix& W);

// T = U^T V (N x N) for U, V of equal shape, by column tiles in parallel.
void cross_product(const Matrix& U, const Matrix& V, Matrix& T);

// W = W + W^T in place, tile by tile (no strided sweeps over a large matrix).
void symmetrize_add_transpose(Matrix& W);

// out = U * W (d x N), by column tiles in parallel.
void tiled_product(const Matrix& U, const Matrix& W, Eigen::Ref<Matrix> out);

// A tile of the kBlock grid of an N x N matrix: rows [r0, r0 + rn), columns [c0, c0 + cn),
// on or below the diagonal (r0 >= c0).
struct Tile {
  Index r0 = 0, rn = 0, c0 = 0, cn = 0;
  bool diagonal() const { return r0 == c0; }
};

// Calls f(tile, thread) for every tile on and below the diagonal of the kBlock grid of an
// n x n matrix, in rounds: within a round no two tiles share a block (the blocks play a
// round-robin tournament, and a block that sits a round out visits its diagonal tile then).
// The tiles of a round run in parallel, the rounds one after another. So f may add into
// per-block accumulators of both the tile's row block and its column block without locks,
// and every block receives its tiles in the same order whatever the number of threads.
// `thread` is in [0, omp_get_max_threads()), for per-thread scratch space.
void for_each_tile_in_rounds(Index n, const std::function<void(const Tile&, int thread)>& f);

}  // namespace geomsim
