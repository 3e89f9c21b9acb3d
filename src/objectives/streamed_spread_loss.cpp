#include "objectives/streamed_spread_loss.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "manifold/class_order.hpp"

namespace geomsim::detail {
namespace {

constexpr double kLeadingExponent = 600.0;  // every row's largest term >= e^-600
constexpr double kLargestExponent = 700.0;  // every sum of terms <= e^700 (DBL_MAX ~ e^709.8)

// The rows of a tile that share column j's class: tile rows [first, first + count).
struct Positives {
  Index first = 0, count = 0;
};
Positives positives_in_tile(const ClassOrder& order, const Tile& t, Index j) {
  const int y = order.label(j);
  const Index lo = std::max(order.begin(y), t.r0), hi = std::min(order.begin(y) + order.size(y), t.r0 + t.rn);
  if (hi > lo) return {lo - t.r0, hi - lo};
  return {lo >= t.r0 + t.rn ? t.rn : 0, 0};  // the class lies after the tile's rows, or before them
}

// What every tile of a pass reads, shared by the threads.
struct Pass {
  const Matrix& U;
  const ClassOrder& order;
  const Vector& sq;     // |u_i|^2
  const Vector& shift;  // s_i: row i's negatives are exp(-D_ij / 2 tau + s_i)
  bool shared;          // every s_i is the same, so one exponential serves both rows of a pair
  double inv2t;         // 1 / (2 tau)
};

// Per-thread scratch: the tile, and (allocated only when the shifts differ) the negatives as
// seen from the column's row.
struct Scratch {
  Matrix rows{kBlock, kBlock}, columns;
};

// D = |u_i - u_j|^2 over the tile, from its Gram entries. Diagonal tiles are mirrored from
// their lower triangle and get D_ii = 0 exactly, so D is symmetric there, as a tile is with
// the tile across the diagonal that it also stands for.
void tile_distances(const Pass& p, const Tile& t, Eigen::Ref<Matrix> D) {
  D.noalias() = p.U.middleCols(t.r0, t.rn).transpose() * p.U.middleCols(t.c0, t.cn);
  if (t.diagonal()) {
    D.triangularView<Eigen::StrictlyUpper>() = D.transpose();
    D.diagonal() = p.sq.segment(t.r0, t.rn);
  }
  const auto sq_rows = p.sq.segment(t.r0, t.rn).array();
  for (Index jj = 0; jj < t.cn; ++jj) D.col(jj).array() = sq_rows + p.sq[t.c0 + jj] - 2.0 * D.col(jj).array();
}

// The tile's exponentials: s.rows holds row i's terms exp(-D_ij / 2 tau (+ s_i for a
// negative)); off the diagonal with unshared shifts, s.columns holds row j's negatives
// exp(-D_ij / 2 tau + s_j) (its positives are those of s.rows). When `distances` is not null,
// each positive pair's D_ij is added to distances[i] and, off the diagonal, to distances[j].
void tile_exponentials(const Pass& p, const Tile& t, Scratch& s, Vector* distances) {
  auto E = s.rows.topLeftCorner(t.rn, t.cn);
  tile_distances(p, t, E);
  const bool columns = !p.shared && !t.diagonal();
  const auto shift_rows = p.shift.segment(t.r0, t.rn).array();
  for (Index jj = 0; jj < t.cn; ++jj) {
    const Index j = t.c0 + jj;
    const auto [first, count] = positives_in_tile(p.order, t, j);
    const Index rest = t.rn - first - count;
    auto col = E.col(jj).array();
    if (distances != nullptr && count > 0) {
      distances->segment(t.r0 + first, count).array() += col.segment(first, count);
      if (!t.diagonal()) (*distances)[j] += col.segment(first, count).sum();
    }
    if (columns) {
      auto other = s.columns.col(jj).head(t.rn).array();
      other.head(first) = (col.head(first) * -p.inv2t + p.shift[j]).exp();
      other.tail(rest) = (col.tail(rest) * -p.inv2t + p.shift[j]).exp();
    }
    col.head(first) = (col.head(first) * -p.inv2t + shift_rows.head(first)).exp();
    col.segment(first, count) = (col.segment(first, count) * -p.inv2t).exp();
    col.tail(rest) = (col.tail(rest) * -p.inv2t + shift_rows.tail(rest)).exp();
    if (columns) s.columns.col(jj).segment(first, count) = E.col(jj).segment(first, count);
  }
}

// The column side of a tile: s.columns off the diagonal with unshared shifts, else s.rows.
const Matrix& column_side(const Pass& p, const Tile& t, const Scratch& s) {
  return !p.shared && !t.diagonal() ? s.columns : s.rows;
}

// Pass 0, when one shift does not serve every row: each row's nearest negative (a minimum,
// so exact in any order). Row i's shift is then m_i / 2 tau, its largest negative term 1.
Vector nearest_negatives(const Matrix& U, const ClassOrder& order, const Vector& sq, std::vector<Scratch>& scratch) {
  const Index N = U.cols();
  Vector nearest = Vector::Constant(N, std::numeric_limits<double>::infinity());
  const Vector unused;
  const Pass p{U, order, sq, unused, true, 0.0};
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    auto D = scratch[static_cast<std::size_t>(thread)].rows.topLeftCorner(t.rn, t.cn);
    tile_distances(p, t, D);
    for (Index jj = 0; jj < t.cn; ++jj) {
      const Index j = t.c0 + jj;
      const auto [first, count] = positives_in_tile(order, t, j);
      const Index rest = t.rn - first - count;
      const auto col = D.col(jj);
      auto rows_before = nearest.segment(t.r0, first), rows_after = nearest.segment(t.r0 + first + count, rest);
      rows_before = rows_before.cwiseMin(col.head(first));
      rows_after = rows_after.cwiseMin(col.tail(rest));
      if (!t.diagonal()) {
        if (first > 0) nearest[j] = std::min(nearest[j], col.head(first).minCoeff());
        if (rest > 0) nearest[j] = std::min(nearest[j], col.tail(rest).minCoeff());
      }
    }
  });
  return nearest;
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
  const double n = static_cast<double>(N), K = order.num_classes(), inv2t = 0.5 / tau;
  const Vector sq = U.colwise().squaredNorm().transpose();
  std::vector<Scratch> scratch(static_cast<std::size_t>(omp_get_max_threads()));
  const double max_sq = sq.maxCoeff();
  const bool shared = shared_shift_fits(max_sq, tau, N);
  const Vector shift = shared ? Vector::Constant(N, std::max(0.0, 2.0 * max_sq / tau - kLeadingExponent))
                              : Vector(nearest_negatives(U, order, sq, scratch) * inv2t);
  const Pass p{U, order, sq, shift, shared, inv2t};
  if (!shared) {
    for (auto& s : scratch) s.columns.resize(kBlock, kBlock);
  }

  // Pass 1: every row's sums, each tile adding into the rows of both its blocks.
  Vector neg_sum = Vector::Zero(N), pos_sum = Vector::Zero(N), pos_dist = Vector::Zero(N);
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    Scratch& s = scratch[static_cast<std::size_t>(thread)];
    tile_exponentials(p, t, s, &pos_dist);
    const Matrix& other = column_side(p, t, s);
    for (Index jj = 0; jj < t.cn; ++jj) {
      const Index j = t.c0 + jj;
      const auto [first, count] = positives_in_tile(order, t, j);
      const Index rest = t.rn - first - count;
      const auto col = s.rows.col(jj).head(t.rn);
      neg_sum.segment(t.r0, first) += col.head(first);
      pos_sum.segment(t.r0 + first, count) += col.segment(first, count);
      neg_sum.segment(t.r0 + first + count, rest) += col.tail(rest);
      if (!t.diagonal()) {
        const auto seen_from_j = other.col(jj).head(t.rn);
        neg_sum[j] += seen_from_j.head(first).sum() + seen_from_j.tail(rest).sum();
        pos_sum[j] += col.segment(first, count).sum();
      }
    }
  });

  // Row by row as in the stored path, then serial sums in a fixed order.
  Vector neg_lse(N), pos_lse(N), align(N);
  for (Index i = 0; i < N; ++i) {
    const double n_pos = static_cast<double>(order.size(order.label(i)));
    neg_lse[i] = std::log(neg_sum[i]) - shift[i] - std::log(n - n_pos);
    pos_lse[i] = std::log(pos_sum[i]) - std::log(n_pos);
    align[i] = pos_dist[i] * inv2t / (K * n_pos * n_pos);
  }
  SpreadLossComponents out;
  out.different_class = (1.0 - alpha) * neg_lse.sum() / n;
  out.same_class = alpha * pos_lse.sum() / n;
  out.alignment = (1.0 - alpha) * align.sum();
  if (gradient == nullptr) return out;

  // Pass 2. Row i's coefficient of D_ij is a_i e_ij (j a negative) or b_i e_ij + k_y (a
  // positive), with e_ij row i's term, a_i = -(1 - alpha) / (2 tau N neg_sum_i),
  // b_i = -alpha / (2 tau N pos_sum_i) and the alignment's k_y = (1 - alpha) / (2 tau K n_y^2).
  // So S = C + C^T has S_ij = a_i e_ij + a_j e_ji or (b_i + b_j) e_ij + 2 k_y: the tile's
  // exponentials weighted by row factors, and a constant per class whose share of the
  // gradient, 2 sum_{j in y} 2 k_y (u_i - u_j), has a closed form (added at the end).
  const Vector a = (-(1.0 - alpha) * inv2t / n) * neg_sum.cwiseInverse();
  const Vector b = (-alpha * inv2t / n) * pos_sum.cwiseInverse();
  Vector degree = Vector::Zero(N);
  Matrix product = Matrix::Zero(U.rows(), N);  // U S
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    Scratch& s = scratch[static_cast<std::size_t>(thread)];
    tile_exponentials(p, t, s, nullptr);
    auto E = s.rows.topLeftCorner(t.rn, t.cn);
    if (t.diagonal()) {  // S = C + C^T within the tile, C_ij = a_i e_ij or b_i e_ij (row i's own shift)
      for (Index jj = 0; jj < t.cn; ++jj) {
        const auto [first, count] = positives_in_tile(order, t, t.c0 + jj);
        const Index rest = t.rn - first - count;
        auto col = E.col(jj).array();
        col.head(first) *= a.segment(t.r0, first).array();
        col.segment(first, count) *= b.segment(t.r0 + first, count).array();
        col.tail(rest) *= a.segment(t.r0 + first + count, rest).array();
      }
      for (Index jj = 0; jj < t.cn; ++jj) {
        for (Index ii = jj; ii < t.rn; ++ii) E(ii, jj) = E(jj, ii) = E(ii, jj) + E(jj, ii);
      }
      for (Index jj = 0; jj < t.cn; ++jj) degree.segment(t.r0, t.rn) += E.col(jj);
    }
    const bool columns = !p.shared && !t.diagonal();
    for (Index jj = 0; jj < t.cn && !t.diagonal(); ++jj) {
      const Index j = t.c0 + jj;
      const auto [first, count] = positives_in_tile(order, t, j);
      const Index rest = t.rn - first - count, after = first + count;
      auto col = E.col(jj).array();
      col.segment(first, count) *= b.segment(t.r0 + first, count).array() + b[j];
      if (columns) {  // a_i e_ij + a_j e_ji with the two rows' own shifts
        const auto other = s.columns.col(jj).head(t.rn).array();
        col.head(first) = col.head(first) * a.segment(t.r0, first).array() + a[j] * other.head(first);
        col.tail(rest) = col.tail(rest) * a.segment(t.r0 + after, rest).array() + a[j] * other.tail(rest);
      } else {
        col.head(first) *= a.segment(t.r0, first).array() + a[j];
        col.tail(rest) *= a.segment(t.r0 + after, rest).array() + a[j];
      }
      degree.segment(t.r0, t.rn).array() += col;
      degree[j] += col.sum();
    }
    const auto S = s.rows.topLeftCorner(t.rn, t.cn);
    product.middleCols(t.r0, t.rn).noalias() += U.middleCols(t.c0, t.cn) * S.transpose();
    if (!t.diagonal()) product.middleCols(t.c0, t.cn).noalias() += U.middleCols(t.r0, t.rn) * S;
  });
  Matrix& g = *gradient;
  g.resize(U.rows(), N);
  g = 2.0 * (U * degree.asDiagonal() - product);
  for (int y = 0; y < order.num_classes(); ++y) {
    const Index begin = order.begin(y), size = order.size(y);
    const double ny = static_cast<double>(size);
    const double k = (1.0 - alpha) * inv2t / (K * ny * ny);
    const Vector class_sum = U.middleCols(begin, size).rowwise().sum();
    g.middleCols(begin, size) += (4.0 * k) * ((ny * U.middleCols(begin, size)).colwise() - class_sum);
  }
  return out;
}

}  // namespace geomsim::detail
