// The spread loss's streamed path (objectives/streamed_spread_loss.hpp): its value, gradient and
// exact Hessian tile by tile, compiled once per CPU level in a portable build (CMakeLists.txt:
// geomsim_cpu_kernel) and chosen at run time by streamed_spread_loss.cpp.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "manifold/class_order.hpp"
#include "objectives/spread_loss_kernel.hpp"
#include "objectives/streamed_spread_loss.hpp"

namespace geomsim::GEOMSIM_CPU_NAMESPACE {
using detail::ClassOrder;
using detail::SortedHessianKernel;
using detail::kLeadingExponent;
using detail::shared_shift_fits;
namespace {

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

// Pass 1: every row's sums, each tile adding into the rows of both its blocks; with
// `distances`, also the positives' distances.
void row_sums(const Pass& p, std::vector<Scratch>& scratch, Vector& neg_sum, Vector& pos_sum, Vector* pos_dist) {
  const Index N = p.U.cols();
  const ClassOrder& order = p.order;
  neg_sum = Vector::Zero(N);
  pos_sum = Vector::Zero(N);
  if (pos_dist != nullptr) *pos_dist = Vector::Zero(N);
  for_each_tile_in_rounds(N, [&](const Tile& t, int thread) {
    Scratch& s = scratch[static_cast<std::size_t>(thread)];
    tile_exponentials(p, t, s, pos_dist);
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
}

}  // namespace

GEOMSIM_CPU_KERNEL_EXPORT SpreadLossComponents streamed_spread_loss(const Matrix& U, const ClassOrder& order,
                                                                    double alpha, double tau, double* gradient) {
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

  Vector neg_sum, pos_sum, pos_dist;
  row_sums(p, scratch, neg_sum, pos_sum, &pos_dist);

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
  Eigen::Map<Matrix> g(gradient, U.rows(), N);
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

namespace {

// dD_ij = 2 (u_i - u_j).(v_i - v_j) = t_i + t_j - 2 P_ij over the tile, with P = U^T V + V^T U
// and t_i = 2 u_i.v_i: the change of D_ij along V. Mirrored on diagonal tiles, with dD_ii = 0
// exactly, as tile_distances does.
void tile_distance_changes(const Matrix& U, const Matrix& V, const Vector& t, const Tile& tl, Eigen::Ref<Matrix> dD) {
  dD.noalias() = U.middleCols(tl.r0, tl.rn).transpose() * V.middleCols(tl.c0, tl.cn);
  dD.noalias() += V.middleCols(tl.r0, tl.rn).transpose() * U.middleCols(tl.c0, tl.cn);
  if (tl.diagonal()) dD.triangularView<Eigen::StrictlyUpper>() = dD.transpose();
  const auto t_rows = t.segment(tl.r0, tl.rn).array();
  for (Index jj = 0; jj < tl.cn; ++jj) dD.col(jj).array() = t_rows + t[tl.c0 + jj] - 2.0 * dD.col(jj).array();
  if (tl.diagonal()) dD.diagonal().setZero();
}

// Per-thread scratch of a product: the pass's tiles, dD, and the column side's coefficients.
struct ProductScratch {
  Scratch s;
  Matrix dD{kBlock, kBlock}, column_coefficients{kBlock, kBlock};
};

// A product's tile: its exponentials (w.s) and dD (w.dD); returns the column side's exponentials.
const Matrix& tile_terms(const Pass& p, const Tile& tl, const Matrix& V, const Vector& t, ProductScratch& w) {
  tile_exponentials(p, tl, w.s, nullptr);
  tile_distance_changes(p.U, V, t, tl, w.dD.topLeftCorner(tl.rn, tl.cn));
  return column_side(p, tl, w.s);
}

class StreamedSpreadHessian final : public SortedHessianKernel {
 public:
  StreamedSpreadHessian(const Matrix& U, std::shared_ptr<const ClassOrder> order, double alpha, double tau)
      : U_(U), order_(std::move(order)), alpha_(alpha), inv2t_(0.5 / tau) {
    const Index N = U_.cols();
    const double n = static_cast<double>(N);
    sq_ = U_.colwise().squaredNorm().transpose();
    std::vector<Scratch> scratch(static_cast<std::size_t>(omp_get_max_threads()));
    const double max_sq = sq_.maxCoeff();
    shared_ = shared_shift_fits(max_sq, tau, N);
    shift_ = shared_ ? Vector::Constant(N, std::max(0.0, 2.0 * max_sq / tau - kLeadingExponent))
                     : Vector(nearest_negatives(U_, *order_, sq_, scratch) * inv2t_);
    if (!shared_) {
      for (auto& s : scratch) s.columns.resize(kBlock, kBlock);
    }
    row_sums(pass(), scratch, neg_sum_, pos_sum_, nullptr);
    a_ = (-(1.0 - alpha_) * inv2t_ / n) * neg_sum_.cwiseInverse();
    b_ = (-alpha_ * inv2t_ / n) * pos_sum_.cwiseInverse();
  }

  // D^2 f[V] = 2 V L(S) + 2 U L(dS) (spread_loss_kernel.cpp), S and dS built tile by tile:
  // C_ij = a_i e_ij or b_i e_ij (the gradient's coefficients without the alignment constant,
  // whose share 2 V L(S) has the closed form of the gradient's) and
  // dC_ij = -C_ij (dD_ij - m_i) / 2 tau, with m_i = sum over row i's set of w_il dD_il (w the
  // softmax weights). Pass A gathers every row's m (both sets) over the tiles; pass B recomputes
  // the tiles and multiplies S and X = -2 tau dS into V and U. Each pass recomputes the tile's
  // exponentials: O(N d) memory, as the gradient.
  void apply(const Matrix& V, double* out) const override {
    const Index N = U_.cols(), d = U_.rows();
    const Vector t = 2.0 * (U_.array() * V.array()).colwise().sum().transpose();
    const Pass p = pass();
    std::vector<ProductScratch> scratch(static_cast<std::size_t>(omp_get_max_threads()));
    if (!shared_) {
      for (auto& w : scratch) w.s.columns.resize(kBlock, kBlock);
    }
    const ClassOrder& order = *order_;

    // Pass A: sum_j e_ij dD_ij over each row's negatives and positives.
    Vector m_neg = Vector::Zero(N), m_pos = Vector::Zero(N);
    for_each_tile_in_rounds(N, [&](const Tile& tl, int thread) {
      ProductScratch& w = scratch[static_cast<std::size_t>(thread)];
      const Matrix& other = tile_terms(p, tl, V, t, w);
      auto dD = w.dD.topLeftCorner(tl.rn, tl.cn);
      for (Index jj = 0; jj < tl.cn; ++jj) {
        const Index j = tl.c0 + jj;
        const auto [first, count] = positives_in_tile(order, tl, j);
        const Index rest = tl.rn - first - count, after = first + count;
        const auto e = w.s.rows.col(jj).head(tl.rn).array();
        const auto dd = dD.col(jj).array();
        m_neg.segment(tl.r0, first).array() += e.head(first) * dd.head(first);
        m_pos.segment(tl.r0 + first, count).array() += e.segment(first, count) * dd.segment(first, count);
        m_neg.segment(tl.r0 + after, rest).array() += e.tail(rest) * dd.tail(rest);
        if (!tl.diagonal()) {
          const auto f = other.col(jj).head(tl.rn).array();
          m_neg[j] += (f.head(first) * dd.head(first)).sum() + (f.tail(rest) * dd.tail(rest)).sum();
          m_pos[j] += (e.segment(first, count) * dd.segment(first, count)).sum();
        }
      }
    });
    m_neg.array() /= neg_sum_.array();
    m_pos.array() /= pos_sum_.array();

    // Pass B: S_ij = C_ij + C_ji and X_ij = C_ij (dD_ij - m_i) + C_ji (dD_ij - m_j) per tile.
    Vector degree = Vector::Zero(N), x_degree = Vector::Zero(N);
    Matrix VS = Matrix::Zero(d, N), UX = Matrix::Zero(d, N);
    for_each_tile_in_rounds(N, [&](const Tile& tl, int thread) {
      ProductScratch& w = scratch[static_cast<std::size_t>(thread)];
      const Matrix& other = tile_terms(p, tl, V, t, w);
      auto dD = w.dD.topLeftCorner(tl.rn, tl.cn);
      auto Cr = w.s.rows.topLeftCorner(tl.rn, tl.cn);
      auto Cc = w.column_coefficients.topLeftCorner(tl.rn, tl.cn);
      for (Index jj = 0; jj < tl.cn; ++jj) {
        const Index j = tl.c0 + jj;
        const auto [first, count] = positives_in_tile(order, tl, j);
        const Index rest = tl.rn - first - count, after = first + count;
        auto cr = Cr.col(jj).array();
        if (!tl.diagonal()) {  // before cr changes: `other` is s.rows when the shift is shared
          const auto f = other.col(jj).head(tl.rn).array();
          auto cc = Cc.col(jj).array();
          cc.head(first) = a_[j] * f.head(first);
          cc.segment(first, count) = b_[j] * cr.segment(first, count);
          cc.tail(rest) = a_[j] * f.tail(rest);
        }
        cr.head(first) *= a_.segment(tl.r0, first).array();
        cr.segment(first, count) *= b_.segment(tl.r0 + first, count).array();
        cr.tail(rest) *= a_.segment(tl.r0 + after, rest).array();
      }
      if (tl.diagonal()) Cc = Cr.transpose();
      for (Index jj = 0; jj < tl.cn; ++jj) {
        const Index j = tl.c0 + jj;
        const auto [first, count] = positives_in_tile(order, tl, j);
        const Index rest = tl.rn - first - count, after = first + count;
        auto cr = Cr.col(jj).array();
        const auto cc = Cc.col(jj).array();
        auto x = dD.col(jj).array();  // becomes X
        x.head(first) = cr.head(first) * (x.head(first) - m_neg.segment(tl.r0, first).array()) +
                        cc.head(first) * (x.head(first) - m_neg[j]);
        x.segment(first, count) =
            cr.segment(first, count) * (x.segment(first, count) - m_pos.segment(tl.r0 + first, count).array()) +
            cc.segment(first, count) * (x.segment(first, count) - m_pos[j]);
        x.tail(rest) = cr.tail(rest) * (x.tail(rest) - m_neg.segment(tl.r0 + after, rest).array()) +
                       cc.tail(rest) * (x.tail(rest) - m_neg[j]);
        cr += cc;
        degree.segment(tl.r0, tl.rn).array() += cr;
        x_degree.segment(tl.r0, tl.rn).array() += x;
        if (!tl.diagonal()) {
          degree[j] += cr.sum();
          x_degree[j] += x.sum();
        }
      }
      VS.middleCols(tl.r0, tl.rn).noalias() += V.middleCols(tl.c0, tl.cn) * Cr.transpose();
      UX.middleCols(tl.r0, tl.rn).noalias() += U_.middleCols(tl.c0, tl.cn) * dD.transpose();
      if (!tl.diagonal()) {
        VS.middleCols(tl.c0, tl.cn).noalias() += V.middleCols(tl.r0, tl.rn) * Cr;
        UX.middleCols(tl.c0, tl.cn).noalias() += U_.middleCols(tl.r0, tl.rn) * dD;
      }
    });
    Eigen::Map<Matrix> sorted(out, d, N);
    sorted = 2.0 * (V * degree.asDiagonal() - VS) - (2.0 * inv2t_) * (U_ * x_degree.asDiagonal() - UX);
    const double K = order.num_classes();
    for (int y = 0; y < order.num_classes(); ++y) {  // the alignment's share of 2 V L(S)
      const Index begin = order.begin(y), size = order.size(y);
      const double ny = static_cast<double>(size);
      const double k = (1.0 - alpha_) * inv2t_ / (K * ny * ny);
      const Vector class_sum = V.middleCols(begin, size).rowwise().sum();
      sorted.middleCols(begin, size) += (4.0 * k) * ((ny * V.middleCols(begin, size)).colwise() - class_sum);
    }
  }

 private:
  Pass pass() const { return Pass{U_, *order_, sq_, shift_, shared_, inv2t_}; }

  Matrix U_;
  std::shared_ptr<const ClassOrder> order_;
  Vector sq_, shift_, neg_sum_, pos_sum_, a_, b_;
  bool shared_ = true;
  double alpha_, inv2t_;
};

}  // namespace

GEOMSIM_CPU_KERNEL_EXPORT std::unique_ptr<const SortedHessianKernel> streamed_spread_hessian(
    const Matrix& U, std::shared_ptr<const ClassOrder> order, double alpha, double tau) {
  return std::make_unique<StreamedSpreadHessian>(U, std::move(order), alpha, tau);
}

}  // namespace geomsim::GEOMSIM_CPU_NAMESPACE
