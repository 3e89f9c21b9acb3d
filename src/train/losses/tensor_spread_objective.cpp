#include "geomsim/train/losses/tensor_spread_objective.hpp"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <string>
#include <utility>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/objectives/point_shapes.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/device_memory.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "cuda_kernels.hpp"

namespace geomsim::train {
namespace {

using torch::indexing::Slice;

constexpr double kCheckedDeviceBytes = 2.56e8;  // the core's threshold for its N x N matrix

// One class's share of a tile: rows [row_begin, row_end) of the block and columns
// [column_begin, column_end) of the tile, both relative to the tile.
struct Rectangle {
  std::int64_t row_begin, row_end, column_begin, column_end;
};

// The classes that meet both the block's rows [r0, r1) and the tile's columns [c0, c1), as
// rectangles of the tile: its positives. class_begin has K + 1 entries.
std::vector<Rectangle> positive_rectangles(const std::vector<std::int64_t>& class_begin, std::int64_t r0,
                                           std::int64_t r1, std::int64_t c0, std::int64_t c1) {
  std::vector<Rectangle> out;
  const std::size_t K = class_begin.size() - 1;
  // The first class that ends after r0.
  std::size_t y = static_cast<std::size_t>(
      std::upper_bound(class_begin.begin() + 1, class_begin.end(), r0) - (class_begin.begin() + 1));
  for (; y < K && class_begin[y] < r1; ++y) {
    const std::int64_t rb = std::max(r0, class_begin[y]), re = std::min(r1, class_begin[y + 1]);
    const std::int64_t cb = std::max(c0, class_begin[y]), ce = std::min(c1, class_begin[y + 1]);
    if (rb < re && cb < ce) out.push_back({rb - r0, re - r0, cb - c0, ce - c0});
  }
  return out;
}

}  // namespace

TensorSpreadTiles default_tiles(const c10::Device& device) {
  if (device.is_cpu()) return {1024, 1024};
  return {8192, 8192};
}

double tensor_spread_bytes(std::int64_t num_points, std::int64_t dim, const TensorSpreadTiles& tiles) {
  const double n = static_cast<double>(num_points), d = static_cast<double>(dim);
  const double rows = static_cast<double>(std::min(tiles.rows, num_points));
  const double columns = static_cast<double>(std::min(tiles.columns, num_points));
  return 8.0 * (5.0 * n * (d + 2.0) + 2.0 * n * d + 12.0 * n + 4.0 * rows * columns);
}

TensorSpreadObjective::TensorSpreadObjective(std::vector<int> labels, double alpha, double tau, c10::Device device,
                                             TensorSpreadTiles tiles, bool cuda_kernels)
    : labels_(std::move(labels)), alpha_(alpha), tau_(tau), device_(device), tiles_(tiles), cuda_kernels_(cuda_kernels) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  if (cuda_kernels_ && !detail::cuda_kernels_built()) {
    throw InvalidArgument("cuda_kernels", "needs a build with geomsim's CUDA kernels (nvcc and a CUDA libtorch); this one has none");
  }
  if (cuda_kernels_ && !device_.is_cuda()) {
    throw InvalidArgument("cuda_kernels", "needs a CUDA device, got " + device_.str());
  }
  num_classes_ = validate_labels(labels_);
  const TensorSpreadTiles by_device = default_tiles(device_);
  if (tiles_.rows == 0) tiles_.rows = by_device.rows;
  if (tiles_.columns == 0) tiles_.columns = by_device.columns;
  require_at_least("tile-rows", tiles_.rows, 1);
  require_at_least("tile-columns", tiles_.columns, 1);

  const auto N = static_cast<std::int64_t>(labels_.size());
  std::vector<std::int64_t> order(static_cast<std::size_t>(N));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t i, std::int64_t j) {
    return labels_[static_cast<std::size_t>(i)] < labels_[static_cast<std::size_t>(j)];
  });
  class_begin_.assign(static_cast<std::size_t>(num_classes_) + 1, 0);
  for (const int y : labels_) ++class_begin_[static_cast<std::size_t>(y) + 1];
  std::partial_sum(class_begin_.begin(), class_begin_.end(), class_begin_.begin());
  std::vector<std::int64_t> sorted_labels(static_cast<std::size_t>(N));
  std::vector<double> sorted_sizes(static_cast<std::size_t>(N));
  for (std::size_t k = 0; k < order.size(); ++k) {
    const auto y = static_cast<std::size_t>(labels_[static_cast<std::size_t>(order[k])]);
    sorted_labels[k] = static_cast<std::int64_t>(y);
    sorted_sizes[k] = static_cast<double>(class_begin_[y + 1] - class_begin_[y]);
  }
  const auto on_device = [&](auto& values, torch::Dtype dtype) {
    return torch::from_blob(values.data(), {N}, torch::TensorOptions().dtype(dtype)).clone().to(device_);
  };
  order_ = on_device(order, torch::kInt64);
  class_of_sorted_ = on_device(sorted_labels, torch::kInt64);
  class_size_of_sorted_ = on_device(sorted_sizes, torch::kFloat64);
}

double TensorSpreadObjective::evaluate(const Eigen::Ref<const Matrix>& U) const { return compute(U, nullptr).total(); }

double TensorSpreadObjective::evaluate_with_gradient(const Eigen::Ref<const Matrix>& U,
                                                     Eigen::Ref<Matrix> gradient) const {
  return compute(U, &gradient).total();
}

SpreadLossComponents TensorSpreadObjective::components(const Eigen::Ref<const Matrix>& U) const {
  return compute(U, nullptr);
}

SpreadLossComponents TensorSpreadObjective::compute(const Eigen::Ref<const Matrix>& U,
                                                    Eigen::Ref<Matrix>* gradient) const {
  const auto N = static_cast<std::int64_t>(labels_.size());
  require_point_columns(U, N);
  if (gradient != nullptr) require_shape_of_points("gradient", gradient->rows(), gradient->cols(), U.rows(), N);
  // The d x N column-major matrix is the N x d row-major tensor (row i = point i, outer stride
  // between rows); copied to the device, never written.
  const torch::Tensor host = torch::from_blob(const_cast<double*>(U.data()), {N, static_cast<std::int64_t>(U.rows())},
                                              {static_cast<std::int64_t>(U.outerStride()), 1},
                                              torch::TensorOptions().dtype(torch::kFloat64));
  const torch::Tensor points = host.to(device_);
  if (gradient == nullptr) return evaluate_points(points, nullptr);
  torch::Tensor g;
  const SpreadLossComponents out = evaluate_points(points, &g);
  // Mapped, not through to_points (tensor_points.hpp), which would copy the N d doubles once more.
  const torch::Tensor g_host = g.to(torch::kCPU).contiguous();
  gradient->noalias() = Eigen::Map<const Matrix>(g_host.data_ptr<double>(), U.rows(), N);
  return out;
}

SpreadLossComponents TensorSpreadObjective::evaluate_points(const at::Tensor& points, at::Tensor* gradient) const {
  const auto N = static_cast<std::int64_t>(labels_.size());
  if (!points.defined() || points.dim() != 2 || points.size(0) != N || points.size(1) < 1) {
    throw InvalidArgument("points", "must be an N x d tensor with N = " + std::to_string(N) + " rows (one per label)");
  }
  if (points.scalar_type() != torch::kFloat64) throw InvalidArgument("points", "must be float64");
  if (points.device() != device_) {
    throw InvalidArgument("points", "must be on " + device_.str() + ", the objective's device, not " +
                                        points.device().str());
  }
  const std::int64_t d = points.size(1);
  // Checked when large, as the core's stored path does (spread_loss.cpp): a solver evaluates
  // thousands of times, and asking the device or /proc/meminfo costs more than a small evaluation.
  const double bytes = tensor_spread_bytes(N, d, tiles_);
  if (bytes > kCheckedDeviceBytes) {
    require_device_memory(device_, bytes, "the spread objective's tensors for N = " + std::to_string(N) +
                                              " points in d = " + std::to_string(d));
  }
  torch::NoGradGuard no_grad;
  const auto f64 = points.options();
  const double inv2t = 0.5 / tau_, n = static_cast<double>(N), K = num_classes_;
  const torch::Tensor X = points.index_select(0, order_);
  const torch::Tensor sq = X.square().sum(1);
  const torch::Tensor ones = torch::ones({N, 1}, f64);
  const torch::Tensor half_sq = (-inv2t * sq).unsqueeze(1);
  // z_ij = A_i . B_j = x_i.x_j / tau - |x_i|^2 / 2 tau - |x_j|^2 / 2 tau = -|x_i - x_j|^2 / 2 tau.
  const torch::Tensor A = torch::cat({X / tau_, half_sq, ones}, 1);
  const torch::Tensor B = torch::cat({X, ones, half_sq}, 1);
  const auto block_rows = tiles_.rows, tile_columns = tiles_.columns;
  const auto exponents = [&](std::int64_t r0, std::int64_t r1, std::int64_t c0, std::int64_t c1) {
    return torch::mm(A.index({Slice(r0, r1)}), B.index({Slice(c0, c1)}).t());
  };
  const double minus_infinity = -std::numeric_limits<double>::infinity();

  // Pass 1: per row, the positives' sum and the negatives' online log-sum-exp (m, s).
  torch::Tensor m = torch::full({N}, minus_infinity, f64), s = torch::zeros({N}, f64), pos = torch::zeros({N}, f64);
  for (std::int64_t r0 = 0; r0 < N; r0 += block_rows) {
    const std::int64_t r1 = std::min(N, r0 + block_rows);
    torch::Tensor m_block = m.index({Slice(r0, r1)}), s_block = s.index({Slice(r0, r1)});
    torch::Tensor pos_block = pos.index({Slice(r0, r1)});
    for (std::int64_t c0 = 0; c0 < N; c0 += tile_columns) {
      const std::int64_t c1 = std::min(N, c0 + tile_columns);
      torch::Tensor Z = exponents(r0, r1, c0, c1);
      if (cuda_kernels_) {  // the same sums, from one read of the tile
        const detail::SpreadTileSums t = detail::spread_tile_sums(Z, class_of_sorted_.narrow(0, r0, r1 - r0),
                                                                  class_of_sorted_.narrow(0, c0, c1 - c0));
        pos_block.add_(t.positive_sum);
        const torch::Tensor m_new = torch::maximum(m_block, t.negative_max);
        const torch::Tensor shift = m_new.masked_fill(torch::isinf(m_new), 0.0);
        s_block.mul_((m_block - shift).exp_()).add_(t.negative_sum * (t.negative_max - shift).exp_());
        m_block.copy_(m_new);
        continue;
      }
      for (const Rectangle& p : positive_rectangles(class_begin_, r0, r1, c0, c1)) {
        torch::Tensor Zp = Z.index({Slice(p.row_begin, p.row_end), Slice(p.column_begin, p.column_end)});
        pos_block.index({Slice(p.row_begin, p.row_end)}).add_(Zp.exp().sum(1));
        Zp.fill_(minus_infinity);
      }
      const torch::Tensor m_new = torch::maximum(m_block, std::get<0>(Z.max(1)));
      // A row that has met no negative yet keeps m = -inf and s = 0; shift it by 0 meanwhile.
      const torch::Tensor shift = m_new.masked_fill(torch::isinf(m_new), 0.0);
      s_block.mul_((m_block - shift).exp_()).add_(Z.sub_(shift.unsqueeze(1)).exp_().sum(1));
      m_block.copy_(m_new);
    }
  }

  // Per row, then the sums. Alignment: sum_{j in y} |x_i - x_j|^2 = n_y |x_i|^2 + sum_y |x_j|^2 - 2 x_i . sum_y x_j.
  const torch::Tensor& ny = class_size_of_sorted_;
  const torch::Tensor class_sum = torch::zeros({num_classes_, d}, f64).index_add_(0, class_of_sorted_, X);
  const torch::Tensor class_sq = torch::zeros({num_classes_}, f64).index_add_(0, class_of_sorted_, sq);
  const torch::Tensor own_sum = class_sum.index_select(0, class_of_sorted_);
  const torch::Tensor distances = ny * sq + class_sq.index_select(0, class_of_sorted_) - 2.0 * (X * own_sum).sum(1);
  const torch::Tensor neg_lse = m + s.log() - (n - ny).log();
  const torch::Tensor pos_lse = pos.log() - ny.log();
  const torch::Tensor align = distances * (inv2t / K) / ny.square();
  const std::vector<double> sums = to_doubles(
      torch::stack({(1.0 - alpha_) * neg_lse.sum() / n, alpha_ * pos_lse.sum() / n, (1.0 - alpha_) * align.sum()}));
  SpreadLossComponents out;
  out.different_class = sums[0];
  out.same_class = sums[1];
  out.alignment = sums[2];
  if (gradient == nullptr) return out;

  // Pass 2: L accumulates, per point, sum_j S_ij [x_j, 1] with S = C + C^T; the gradient is then
  // 2 (x_i L_i,d - L_i,:d), the Laplacian form of the core (spread_loss.cpp).
  const torch::Tensor a = (-(1.0 - alpha_) * inv2t / n) / s;
  const torch::Tensor b = (-alpha_ * inv2t / n) / pos;
  const torch::Tensor X1 = torch::cat({X, ones}, 1);
  torch::Tensor L = torch::zeros({N, d + 1}, f64);
  for (std::int64_t r0 = 0; cuda_kernels_ && r0 < N; r0 += block_rows) {
    // Each tile turned into S = C + C^T in place; the rows' sums by one product a tile.
    const std::int64_t r1 = std::min(N, r0 + block_rows);
    const auto rows = [&](const torch::Tensor& t) { return t.narrow(0, r0, r1 - r0); };
    torch::Tensor L_rows = L.narrow(0, r0, r1 - r0);
    for (std::int64_t c0 = 0; c0 < N; c0 += tile_columns) {
      const std::int64_t c1 = std::min(N, c0 + tile_columns);
      const auto columns = [&](const torch::Tensor& t) { return t.narrow(0, c0, c1 - c0); };
      torch::Tensor Z = exponents(r0, r1, c0, c1);
      detail::spread_tile_coefficients(Z, rows(class_of_sorted_), columns(class_of_sorted_), rows(a), rows(b), rows(m),
                                       columns(a), columns(b), columns(m));
      L_rows.addmm_(Z, columns(X1));
    }
  }
  for (std::int64_t r0 = 0; !cuda_kernels_ && r0 < N; r0 += block_rows) {
    const std::int64_t r1 = std::min(N, r0 + block_rows), rows = r1 - r0;
    const torch::Tensor a_block = a.index({Slice(r0, r1)}).unsqueeze(1);
    const torch::Tensor b_block = b.index({Slice(r0, r1)}).unsqueeze(1);
    const torch::Tensor m_block = m.index({Slice(r0, r1)}).unsqueeze(1);
    const torch::Tensor X1_rows = X1.index({Slice(r0, r1)});
    const torch::Tensor X1_rows_a = X1_rows * a_block;
    const torch::Tensor X1_rows_b = X1_rows * b_block;
    torch::Tensor negatives = torch::zeros({rows, d + 1}, f64), positives = torch::zeros({rows, d + 1}, f64);
    for (std::int64_t c0 = 0; c0 < N; c0 += tile_columns) {
      const std::int64_t c1 = std::min(N, c0 + tile_columns);
      const torch::Tensor X1_columns = X1.index({Slice(c0, c1)});
      torch::Tensor L_columns = L.index({Slice(c0, c1)});
      torch::Tensor Z = exponents(r0, r1, c0, c1);
      for (const Rectangle& p : positive_rectangles(class_begin_, r0, r1, c0, c1)) {
        torch::Tensor Zp = Z.index({Slice(p.row_begin, p.row_end), Slice(p.column_begin, p.column_end)});
        const torch::Tensor P = Zp.exp();  // b_i e^{z_ij}: row i's coefficient, b applied after
        positives.index({Slice(p.row_begin, p.row_end)}).addmm_(P, X1_columns.index({Slice(p.column_begin, p.column_end)}));
        L_columns.index({Slice(p.column_begin, p.column_end)})
            .addmm_(P.t(), X1_rows_b.index({Slice(p.row_begin, p.row_end)}));
        Zp.fill_(minus_infinity);
      }
      const torch::Tensor E = Z.sub_(m_block).exp_();  // e^{z_ij - m_i}, 0 at the positives
      negatives.addmm_(E, X1_columns);
      L_columns.addmm_(E.t(), X1_rows_a);
    }
    L.index({Slice(r0, r1)}).add_(negatives * a_block + positives * b_block);
  }
  torch::Tensor g = 2.0 * (X * L.index({Slice(), d}).unsqueeze(1) - L.index({Slice(), Slice(0, d)}));
  // The alignment: 4 k_y (n_y x_i - sum_{j in y} x_j), k_y = (1 - alpha) / (2 tau K n_y^2).
  const torch::Tensor k = ((1.0 - alpha_) * inv2t / K) / ny.square();
  g.add_((4.0 * k).unsqueeze(1) * (ny.unsqueeze(1) * X - own_sum));
  *gradient = torch::empty_like(g).index_copy_(0, order_, g);
  return out;
}

}  // namespace geomsim::train
