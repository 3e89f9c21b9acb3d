// The spread loss's stored path (spread_loss.hpp: PairEvaluation::kStored): its value, gradient
// and exact Hessian from N x N matrices, compiled once per CPU level in a portable build
// (CMakeLists.txt: geomsim_cpu_kernel) and chosen at run time by spread_loss.cpp.
//
// Notation: D_ij = |u_i - u_j|^2 = g_ii + g_jj - 2 g_ij from the Gram matrix G = U^T U,
// which stays valid off the sphere (constrained solvers evaluate infeasible iterates).
//
// Gradient. Row i contributes c_ij * D_ij to first order (the softmax weight of j in
// row i's log-sum-exp, times the term's factor; plus the alignment factor). With the
// symmetric S = C + C^T and dD_ij/du_i = 2(u_i - u_j), the gradient is
//     grad = 2 U (diag(S 1) - S),
// a graph Laplacian applied to U: one N x N x d matrix product.
//
// Memory: one N x N matrix (8 N^2 bytes: 32 MB at N = 2000, 800 MB at N = 10^4) and
// O(N d): the points and the gradient in class order (see class_order.hpp). Row i reads only
// column i of G (and the saved diagonal), so the loop overwrites column i with row i's
// coefficients once it has read it.
// Work: half a Gram product (symmetric tiles), N^2 exponentials, and one N x N x d
// product for the gradient, all in parallel over fixed tiles or rows.
#include <cmath>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "geomsim/support/parallel_rows.hpp"
#include "objectives/spread_loss_kernel.hpp"

namespace geomsim::GEOMSIM_CPU_NAMESPACE {
namespace {
// Below this many points the row loop is too short to pay for a thread team.
constexpr Index kParallelRows = 256;

// Per-row results of the exponential pass.
struct RowSums {
  Index pos_begin = 0, pos_count = 0;  // the row's positives: a segment of the sorted order
  double nearest_negative = 0.0;       // the shift of the different-class sum
  double sum_neg = 0.0, sum_pos = 0.0, sum_d_pos = 0.0;
};

// W = U^T U, with U's columns sorted by class, on entry to the pass; row i's exponentials
// (shifted, see spread_loss.hpp) replace column i, then on_row(i, column, sums) runs on it while
// it is in cache.
template <class OnRow>
void exponential_pass(const detail::ClassOrder& order, double tau, Matrix& W, OnRow&& on_row) {
  const Index N = W.cols();
  const double inv2t = 0.5 / tau;
  const Vector sq = W.diagonal();
  for_each_row(N, kParallelRows, [&](Index i) {
    const int y = order.label(i);
    RowSums r;
    r.pos_begin = order.begin(y);
    r.pos_count = order.size(y);
    auto D = W.col(i).array();
    D = sq[i] + sq.array() - 2.0 * D;
    auto before = D.head(r.pos_begin);
    auto positives = D.segment(r.pos_begin, r.pos_count);
    auto after = D.tail(N - r.pos_begin - r.pos_count);
    // Every row has a negative (K >= 2, every class present), in one segment or both.
    r.nearest_negative = std::min(before.size() > 0 ? before.minCoeff() : std::numeric_limits<double>::infinity(),
                                  after.size() > 0 ? after.minCoeff() : std::numeric_limits<double>::infinity());
    // Shifts: the negatives' sum by its largest term; the positives' sum needs none,
    // since it contains exp(0) = 1 (j = i) and every other term is <= 1.
    r.sum_d_pos = positives.sum();
    positives = (positives * -inv2t).exp();
    before = ((before - r.nearest_negative) * -inv2t).exp();
    after = ((after - r.nearest_negative) * -inv2t).exp();
    r.sum_pos = positives.sum();
    r.sum_neg = before.sum() + after.sum();
    on_row(i, W.col(i), r);
  });
}

// The Hessian. Write C_ij = k w_ij (+ the alignment constant for positives), where w_ij
// is j's softmax weight within row i's negative or positive set and k = -(1-alpha)/(2 tau N)
// for negatives, -alpha/(2 tau N) for positives. The gradient is 2 U L(S), L(S) = diag(S 1) - S, S = C + C^T. Along V:
//   dD_ij = 2 (u_i - u_j).(v_i - v_j) = T_ii + T_jj - 2 T_ij,   T = U^T V + V^T U
//   dC_ij = -k w_ij (dD_ij - sum_{l in set} w_il dD_il) / (2 tau)
//   D^2 f[V] = 2 V L(S) + 2 U L(dC + dC^T).
class SpreadLossHessian final : public detail::SortedHessianKernel {
 public:
  // U in class order; weights and S over the sorted positions.
  SpreadLossHessian(const Matrix& U, Matrix weights, Matrix S, std::shared_ptr<const detail::ClassOrder> order,
                    double scale_neg, double scale_pos, double inv2t)
      : U_(U), weights_(std::move(weights)), S_(std::move(S)), order_(std::move(order)),
        scale_neg_(-scale_neg * inv2t), scale_pos_(-scale_pos * inv2t) {
    degree_ = S_.colwise().sum().transpose();
  }

  void apply(const Matrix& V, double* out) const override {
    const Index N = U_.cols();
    Matrix T;
    cross_product(U_, V, T);
    symmetrize_add_transpose(T);
    const Vector t = T.diagonal();
    for_each_row(N, kParallelRows, [&](Index i) {
      const int y = order_->label(i);
      const Index b = order_->begin(y), n = order_->size(y), rest = N - b - n;
      auto dD = T.col(i).array();
      dD = t[i] + t.array() - 2.0 * dD;
      const auto w = weights_.col(i).array();
      const double mean_neg = (w.head(b) * dD.head(b)).sum() + (w.tail(rest) * dD.tail(rest)).sum();
      const double mean_pos = (w.segment(b, n) * dD.segment(b, n)).sum();
      dD.head(b) = scale_neg_ * w.head(b) * (dD.head(b) - mean_neg);
      dD.tail(rest) = scale_neg_ * w.tail(rest) * (dD.tail(rest) - mean_neg);
      dD.segment(b, n) = scale_pos_ * w.segment(b, n) * (dD.segment(b, n) - mean_pos);
    });
    symmetrize_add_transpose(T);  // dS = dC + dC^T
    const Vector d_degree = T.colwise().sum().transpose();
    Matrix VS(V.rows(), N), UdS(V.rows(), N);
    tiled_product(V, S_, VS);
    tiled_product(U_, T, UdS);
    Eigen::Map<Matrix>(out, V.rows(), N) = 2.0 * (V * degree_.asDiagonal() - VS + U_ * d_degree.asDiagonal() - UdS);
  }

 private:
  Matrix U_, weights_, S_;
  std::shared_ptr<const detail::ClassOrder> order_;
  Vector degree_;
  double scale_neg_, scale_pos_;  // -k / (2 tau) for the two sets
};

}  // namespace

GEOMSIM_CPU_KERNEL_EXPORT SpreadLossComponents stored_spread_loss(const Matrix& Us, const detail::ClassOrder& order,
                                                                  double alpha, double tau, const double* log_positives,
                                                                  const double* log_negatives, double* gradient) {
  const Index N = Us.cols();
  const double n = static_cast<double>(N);
  const double inv2t = 0.5 / tau;
  const double K = order.num_classes();
  const bool want_gradient = gradient != nullptr;
  Matrix W;  // Gram matrix, then coefficients (column i = row i)
  gram_matrix(Us, W);
  // Per row: the sums, and the log-means' constants; the logarithms come after the pass, as
  // two vectorised calls (48 scalar calls were 7 % of a solve at N = 24).
  Vector neg_sum(N), pos_sum(N), neg_lse(N), pos_lse(N), align(N);
  exponential_pass(order, tau, W, [&](Index i, auto col, const RowSums& r) {
    const double n_pos = static_cast<double>(r.pos_count);
    const double align_factor = inv2t / (K * n_pos * n_pos);
    const auto y = static_cast<std::size_t>(order.label(i));
    neg_sum[i] = r.sum_neg;
    pos_sum[i] = r.sum_pos;
    neg_lse[i] = -r.nearest_negative * inv2t - log_negatives[y];
    pos_lse[i] = -log_positives[y];
    align[i] = r.sum_d_pos * align_factor;
    if (!want_gradient) return;
    const double neg_scale = -(1.0 - alpha) * inv2t / (n * r.sum_neg);
    const double pos_scale = -alpha * inv2t / (n * r.sum_pos);
    const double pos_shift = (1.0 - alpha) * align_factor;
    col.head(r.pos_begin) *= neg_scale;
    col.tail(N - r.pos_begin - r.pos_count) *= neg_scale;
    auto positives = col.segment(r.pos_begin, r.pos_count).array();
    positives = pos_scale * positives + pos_shift;
  });

  neg_lse.array() += neg_sum.array().log();
  pos_lse.array() += pos_sum.array().log();
  // Serial, fixed-order sums: the result does not depend on the thread count.
  SpreadLossComponents out;
  out.different_class = (1.0 - alpha) * neg_lse.sum() / n;
  out.same_class = alpha * pos_lse.sum() / n;
  out.alignment = (1.0 - alpha) * align.sum();

  if (want_gradient) {
    symmetrize_add_transpose(W);  // S = C + C^T
    const Vector degree = W.colwise().sum().transpose();  // S is symmetric: column sums, contiguous
    Eigen::Map<Matrix> g(gradient, Us.rows(), N);
    tiled_product(Us, W, g);
    g = 2.0 * (Us * degree.asDiagonal() - g);
  }
  return out;
}

GEOMSIM_CPU_KERNEL_EXPORT std::unique_ptr<const detail::SortedHessianKernel> stored_spread_hessian(
    const Matrix& Us, std::shared_ptr<const detail::ClassOrder> order, double alpha, double tau) {
  const Index N = Us.cols();
  const double inv2t = 0.5 / tau;
  const double K = order->num_classes();
  Matrix W;  // Gram, then softmax weights
  gram_matrix(Us, W);
  Matrix C(N, N);
  const double neg_scale = -(1.0 - alpha) * inv2t / static_cast<double>(N);
  const double pos_scale = -alpha * inv2t / static_cast<double>(N);
  exponential_pass(*order, tau, W, [&](Index i, auto col, const RowSums& r) {
    const Index b = r.pos_begin, n = r.pos_count, rest = N - b - n;
    const double n_pos = static_cast<double>(n);
    const double pos_shift = (1.0 - alpha) * inv2t / (K * n_pos * n_pos);
    col.head(b) /= r.sum_neg;
    col.tail(rest) /= r.sum_neg;
    col.segment(b, n) /= r.sum_pos;
    auto c = C.col(i);
    c.head(b) = neg_scale * col.head(b);
    c.tail(rest) = neg_scale * col.tail(rest);
    c.segment(b, n) = (pos_scale * col.segment(b, n).array() + pos_shift).matrix();
  });
  symmetrize_add_transpose(C);
  return std::make_unique<SpreadLossHessian>(Us, std::move(W), std::move(C), std::move(order), neg_scale,
                                             pos_scale, inv2t);
}

}  // namespace geomsim::GEOMSIM_CPU_NAMESPACE
