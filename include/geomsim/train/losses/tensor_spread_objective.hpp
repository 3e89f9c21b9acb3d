#pragma once
// The simulator's objective, the asymptotic L_spread of seed 004 (Appendix H, eq. 39-40;
// objectives/spread_loss.hpp), computed with libtorch tensors on any device: the core's solvers
// minimise it on a GPU through the Objective interface, and a caller with points already on a
// device evaluates them there (evaluate_points).
//
// Streamed, with no N x N matrix: the points are put in class order once, then each block of
// rows meets every tile of columns twice, as flash attention does.
//   Pass 1: one product gives the tile's exponents z_ij = -|u_i - u_j|^2 / 2 tau (the points
//     augmented by their squared norms, so that no distance matrix is formed). The positives
//     (a rectangle per class, since classes are contiguous) are summed as they are, e^{z_ij}
//     (the sum holds e^0 = 1 for j = i, so it needs no shift), then masked; the negatives enter
//     an online log-sum-exp: each row keeps its largest exponent so far, m_i, and its sum
//     rescaled to it. At the end m_i is the stored path's shift, -(nearest negative) / 2 tau.
//   Pass 2: the tiles again, now with every row's sums known. Row i's coefficient of
//     |u_i - u_j|^2 is C_ij = a_i e^{z_ij - m_i} (a negative) or b_i e^{z_ij} (a positive), with
//     a_i = -(1 - alpha) / (2 tau N neg_i) and b_i = -alpha / (2 tau N pos_i); the pair moves
//     u_i by 2 C_ij (u_i - u_j) and u_j by 2 C_ij (u_j - u_i). Per tile that is two products
//     with the points augmented by a column of ones: C [X_C, 1] for the rows, C^T [X_R, 1] for
//     the columns.
//   The alignment term (ordered pairs within a class) and its gradient have closed forms in the
//   class sums, O(N d).
// Memory on the device: O(N d) and a few tiles of block x tile entries; no N x N matrix.
#include <cstdint>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "geomsim/objectives/objective.hpp"
#include "geomsim/objectives/spread_loss.hpp"

namespace geomsim::train {

struct TensorSpreadTiles {
  // Rows per block and columns per tile; 0 chooses by device (default_tiles).
  std::int64_t rows = 0;
  std::int64_t columns = 0;
};

// 1024 x 1024 on the CPU (8 MiB per float64 tile, in cache-sized pieces for libtorch's kernels);
// 8192 x 8192 on a GPU (512 MiB per tile: launches long enough that kernel overheads vanish).
TensorSpreadTiles default_tiles(const c10::Device& device);

// Bytes on `device` one evaluation with gradient allocates: the points in class order and their
// augmented copies (5 N (d + 2) doubles), the gradient (2 N d), per-row vectors, and four tiles
// (the exponents, their exponentials, and two of libtorch's temporaries).
double tensor_spread_bytes(std::int64_t num_points, std::int64_t dim, const TensorSpreadTiles& tiles);

class TensorSpreadObjective final : public Objective {
 public:
  // Throws InvalidArgument as SpreadLoss does (alpha outside [0, 1], tau <= 0, labels not
  // 0..K-1 with K >= 2 and every class present), and for tile sizes below 1.
  // cuda_kernels: each tile's element-wise work in two fused CUDA kernels (one read of the tile
  // in pass 1; in pass 2 one read and one write that turn it into S = C + C^T, so that one
  // product S [X, 1] per tile gives the rows' sums and the column side is not needed: three
  // products an evaluation, not four). Opt-in until a lent GPU has held it to the core (the GPU
  // check); refused, naming "cuda_kernels", off CUDA or in a build without the kernels.
  TensorSpreadObjective(std::vector<int> labels, double alpha, double tau, c10::Device device,
                        TensorSpreadTiles tiles = {}, bool cuda_kernels = false);

  Index num_points() const override { return static_cast<Index>(labels_.size()); }
  std::string name() const override { return "spread_loss"; }  // the same objective as SpreadLoss
  double evaluate(const Eigen::Ref<const Matrix>& U) const override;
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const override;
  SpreadLossComponents components(const Eigen::Ref<const Matrix>& U) const;

  // The loss of `points` (N x d, float64, on this objective's device, row i the point of label
  // i), and, when `gradient` is not null, its gradient (N x d, on the device). Throws
  // InvalidArgument("points") for another shape, dtype or device.
  SpreadLossComponents evaluate_points(const at::Tensor& points, at::Tensor* gradient) const;

  const c10::Device& device() const { return device_; }
  const TensorSpreadTiles& tiles() const { return tiles_; }
  bool cuda_kernels() const { return cuda_kernels_; }

 private:
  SpreadLossComponents compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const;

  std::vector<int> labels_;
  double alpha_ = 0.0, tau_ = 1.0;
  int num_classes_ = 0;
  c10::Device device_;
  TensorSpreadTiles tiles_;
  bool cuda_kernels_ = false;
  std::vector<std::int64_t> class_begin_;  // class y occupies sorted positions [begin[y], begin[y + 1])
  at::Tensor order_;                       // sorted position -> original index (int64, on the device)
  at::Tensor class_of_sorted_;             // the label of each sorted position (int64, on the device)
  at::Tensor class_size_of_sorted_;        // n_y of each sorted position (float64, on the device)
};

}  // namespace geomsim::train
