#include "objectives/streamed_spread_loss.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "manifold/class_order.hpp"

namespace geomsim::detail {
namespace {

constexpr double kLeadingExponent = 600.0;  // every row's largest term >= e^-600
constexpr double kLargestExponent = 700.0;  // every sum of terms <= e^700 (DBL_MAX ~ e^709.8)

// The rows of a tile (r0, rn) that share column j's class: [first, first + count) in tile rows.
struct Positives {
  Index first = 0, count = 0;
};
Positives positives_in_tile(const ClassOrder& order, const Tile& t, Index j) {
  const int y = order.label(j);
  const Index lo = std::max(order.begin(y), t.r0), hi = std::min(order.begin(y) + order.size(y), t.r0 + t.rn);
  return hi > lo ? Positives{lo - t.r0, hi - lo} : Positives{std::min(std::max(lo - t.r0, Index{0}), t.rn), 0};
}

// Everything a pass needs, shared by the threads.
struct Pass {
  const Matrix& U;
  const ClassOrder& order;
  const Vector& sq;   // |u_i|^2
  double inv2t;       // 1 / (2 tau)
  double shift;       // c: negatives are exp(-D inv2t + c), positives exp(-D inv2t)
};

// E (rn x cn, top-left of the thread's scratch) = the tile's exponentials, negatives shifted
// by c. Diagonal tiles are mirrored from their lower triangle and get D_ii = 0 exactly, so
// E is symmetric there, as a tile is with the tile across the diagonal that it stands for.
// When `distances` is not null, each positive pair's D_ij is added to distances[i] and, off
// the diagonal, to distances[j] (the same pair seen from its other end).
void tile_exponentials(const Pass& p, const Tile& t, Matrix& scratch, Vector* distances) {
  auto E = scratch.topLeftCorner(t.rn, t.cn);
  E.noalias() = p.U.middleCols(t.r0, t.rn).transpose() * p.U.middleCols(t.c0, t.cn);
  if (t.diagonal()) {
    E.triangularView<Eigen::StrictlyUpper>() = E.transpose();
    E.diagonal() = p.sq.segment(t.r0, t.rn);
  }
  const auto sq_rows = p.sq.segment(t.r0, t.rn).array();
  for (Index jj = 0; jj < t.cn; ++jj) {
    const Index j = t.c0 + jj;
    const auto [first, count] = positives_in_tile(p.order, t, j);
    const Index rest = t.rn - first - count;
    auto col = E.col(jj).array();
    col = sq_rows + p.sq[j] - 2.0 * col;  // D
    if (distances != nullptr && count > 0) {
      distances->segment(t.r0 + first, count).array() += col.segment(first, count);
      if (!t.diagonal()) (*distances)[j] += col.segment(first, count).sum();
    }
    col.head(first) = (col.head(first) * -p.inv2t + p.shift).exp();
    col.segment(first, count) = (col.segment(first, count) * -p.inv2t).exp();
    col.tail(rest) = (col.tail(rest) * -p.inv2t + p.shift).exp();
  }
}

}  // namespace

bool shared_shift_fits(double max_squared_norm, double tau, Index num_points) {
  const double range = 2.0 * max_squared_norm / tau;
  return std::isfinite(range) &&
         range <= kLeadingExponent + kLargestExponent - std::log(static_cast<double>(std::max<Index>(num_points, 1)));
}

SpreadLossComponents streamed_spread_loss(const Matrix& U, const ClassOrder& order, double alpha, double tau,
                                          Matrix* gradient) {
  const Index N = U.cols();
  const double n = static_cast<double>(N), K = order.num_classes();
  const Vector sq = U.colwise().squaredNorm().transpose();
  const Pass p{U, order, sq, 0.5 / tau, std::max(0.0, 2.0 * sq.maxCoeff() / tau - kLeadingExponent)};
  std::vector<Matrix> scratch(static_cast<std::size_t>(omp_get_max_threads()), Matrix(kBlock, kBlock));

  // Pass 1: every row's sums, each tile adding into the rows of both its blocks.
  Vector neg_sum = Vector::Zero(N), pos_sum = Vector::Zero(N), pos_dist = Vector::Zero(N);
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    Matrix& E = scratch[static_cast<std::size_t>(thread)];
    tile_exponentials(p, t, E, &pos_dist);
    for (Index jj = 0; jj < t.cn; ++jj) {
      const Index j = t.c0 + jj;
      const auto [first, count] = positives_in_tile(order, t, j);
      const Index rest = t.rn - first - count;
      const auto col = E.col(jj).head(t.rn);
      neg_sum.segment(t.r0, first) += col.head(first);
      pos_sum.segment(t.r0 + first, count) += col.segment(first, count);
      neg_sum.segment(t.r0 + first + count, rest) += col.tail(rest);
      if (!t.diagonal()) {
        neg_sum[j] += col.head(first).sum() + col.tail(rest).sum();
        pos_sum[j] += col.segment(first, count).sum();
      }
    }
  });

  // Row by row as in the stored path, then serial sums in a fixed order.
  Vector neg_lse(N), pos_lse(N), align(N);
  for (Index i = 0; i < N; ++i) {
    const double n_pos = static_cast<double>(order.size(order.label(i)));
    neg_lse[i] = std::log(neg_sum[i]) - p.shift - std::log(n - n_pos);
    pos_lse[i] = std::log(pos_sum[i]) - std::log(n_pos);
    align[i] = pos_dist[i] * p.inv2t / (K * n_pos * n_pos);
  }
  SpreadLossComponents out;
  out.different_class = (1.0 - alpha) * neg_lse.sum() / n;
  out.same_class = alpha * pos_lse.sum() / n;
  out.alignment = (1.0 - alpha) * align.sum();
  if (gradient == nullptr) return out;

  // Pass 2: row i's coefficient of D_ij is a_i e_ij (a negative j) or b_i e_ij + k_y (a
  // positive), with a_i = -(1 - alpha) / (2 tau N neg_sum_i), b_i = -alpha / (2 tau N pos_sum_i)
  // and the alignment's k_y = (1 - alpha) / (2 tau K n_y^2). So S = C + C^T has
  // S_ij = (a_i + a_j) e_ij or (b_i + b_j) e_ij + 2 k_y: the tile's exponentials times a sum of
  // two row factors, and a constant per class whose share of the gradient has a closed form.
  const Vector a = (-(1.0 - alpha) * p.inv2t / n) * neg_sum.cwiseInverse();
  const Vector b = (-alpha * p.inv2t / n) * pos_sum.cwiseInverse();
  Vector degree = Vector::Zero(N);
  Matrix product = Matrix::Zero(U.rows(), N);  // U S
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    Matrix& E = scratch[static_cast<std::size_t>(thread)];
    tile_exponentials(p, t, E, nullptr);
    for (Index jj = 0; jj < t.cn; ++jj) {
      const Index j = t.c0 + jj;
      const auto [first, count] = positives_in_tile(order, t, j);
      const Index rest = t.rn - first - count;
      auto col = E.col(jj).head(t.rn).array();
      col.head(first) *= a.segment(t.r0, first).array() + a[j];
      col.segment(first, count) *= b.segment(t.r0 + first, count).array() + b[j];
      col.tail(rest) *= a.segment(t.r0 + first + count, rest).array() + a[j];
      degree.segment(t.r0, t.rn).array() += col;
      if (!t.diagonal()) degree[j] += col.sum();
    }
    const auto S = E.topLeftCorner(t.rn, t.cn);
    product.middleCols(t.r0, t.rn).noalias() += U.middleCols(t.c0, t.cn) * S.transpose();
    if (!t.diagonal()) product.middleCols(t.c0, t.cn).noalias() += U.middleCols(t.r0, t.rn) * S;
  });
  Matrix& g = *gradient;
  g.resize(U.rows(), N);
  g = 2.0 * (U * degree.asDiagonal() - product);
  // The constant 2 k_y over same-class pairs adds 2 sum_{j in y} 2 k_y (u_i - u_j) to row i.
  for (int y = 0; y < order.num_classes(); ++y) {
    const Index begin = order.begin(y), size = order.size(y);
    const double ny = static_cast<double>(size);
    const double k = (1.0 - alpha) * p.inv2t / (K * ny * ny);
    const Vector class_sum = U.middleCols(begin, size).rowwise().sum();
    g.middleCols(begin, size) += (4.0 * k) * ((ny * U.middleCols(begin, size)).colwise() - class_sum);
  }
  return out;
}

}  // namespace geomsim::detail
