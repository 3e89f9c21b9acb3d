#pragma once
// Blocked, parallel building blocks for objectives computed from the Gram matrix.
//
// Work is split into fixed kBlock x kBlock tiles (never by thread count), and every
// output element belongs to exactly one tile computed serially by Eigen, so results are
// bit-for-bit the same for any number of OpenMP threads.
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

}  // namespace geomsim
