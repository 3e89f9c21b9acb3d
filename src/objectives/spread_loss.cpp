#include "geomsim/objectives/spread_loss.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "geomsim/objectives/point_shapes.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/parallel_rows.hpp"
#include "manifold/class_order.hpp"
#include "objectives/streamed_spread_loss.hpp"

namespace geomsim {
namespace {
// Below this many points the row loop is too short to pay for a thread team.
constexpr Index kParallelRows = 256;

// The stored path's and the Hessian's N x N matrices are checked against the memory available
// only beyond this many bytes (reading /proc/meminfo costs more than a small evaluation).
constexpr double kCheckMemoryFromBytes = 2.56e8;

void require_stored_matrices(Index N, int matrices, const std::string& what) {
  const double bytes = 8.0 * matrices * static_cast<double>(N) * static_cast<double>(N);
  if (bytes > kCheckMemoryFromBytes) require_memory("ny", bytes, what + " for N = " + std::to_string(N) + " points");
}
}  // namespace

SpreadLoss::SpreadLoss(std::vector<int> labels, double alpha, double tau, PairEvaluation evaluation)
    : labels_(std::move(labels)), evaluation_(evaluation), alpha_(alpha), tau_(tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  num_classes_ = validate_labels(labels_);
  class_order_ = std::make_shared<const detail::ClassOrder>(labels_, num_classes_);
  const double n = static_cast<double>(labels_.size());
  for (int y = 0; y < num_classes_; ++y) {
    const double n_pos = static_cast<double>(class_order_->size(y));
    log_positives_.push_back(std::log(n_pos));
    log_negatives_.push_back(std::log(n - n_pos));
  }
}

void SpreadLoss::check_shape(const Eigen::Ref<const Matrix>& U) const { require_point_columns(U, num_points()); }

PairEvaluation SpreadLoss::path_for(PairEvaluation requested, Index num_points, Index dim) {
  if (requested != PairEvaluation::kAuto) return requested;
  const Index from = dim <= kFewDims ? kStreamedFromPointsFewDims : kStreamedFromPoints;
  return num_points >= from ? PairEvaluation::kStreamed : PairEvaluation::kStored;
}

double SpreadLoss::evaluation_bytes(Index num_points, Index dim, double tau, PairEvaluation requested, int threads) {
  const double n = static_cast<double>(num_points), d = static_cast<double>(dim);
  // Labels (int) and the class order (an Index and an int per point): 16 N. The points and
  // the gradient in class order, and the sorted gradient before its scatter: 3 N d doubles.
  const double common = 16.0 * n + 8.0 * 3.0 * n * d;
  if (path_for(requested, num_points, dim) == PairEvaluation::kStored) {
    return common + 8.0 * n * n + 8.0 * 3.0 * n;  // the N x N matrix; three row vectors
  }
  // Two tiles per thread (one when a shared shift fits); the product accumulator (N d);
  // nine row vectors.
  const double tile = 8.0 * static_cast<double>(kBlock) * static_cast<double>(kBlock);
  const double tiles = detail::shared_shift_fits(1.0, tau, num_points) ? 1.0 : 2.0;
  return common + tiles * tile * std::max(threads, 1) + 8.0 * n * d + 8.0 * 9.0 * n;
}

PairEvaluation SpreadLoss::hessian_path_for(PairEvaluation requested, Index num_points, Index dim) {
  if (requested != PairEvaluation::kAuto) return requested;
  return stored_hessian_bytes(num_points, dim) <= kStoredHessianMaxBytes ? PairEvaluation::kStored
                                                                        : PairEvaluation::kStreamed;
}

double SpreadLoss::hessian_bytes(Index num_points, Index dim, PairEvaluation requested, int threads) {
  if (hessian_path_for(requested, num_points, dim) == PairEvaluation::kStreamed) {
    return detail::streamed_hessian_bytes(num_points, dim, threads);
  }
  return stored_hessian_bytes(num_points, dim);
}

double SpreadLoss::stored_hessian_bytes(Index num_points, Index dim) {
  const double n = static_cast<double>(num_points), d = static_cast<double>(dim);
  return 8.0 * 3.0 * n * n + 8.0 * 6.0 * n * d;  // weights, S and one product's T; U and five d x N
}

double SpreadLoss::evaluate(const Eigen::Ref<const Matrix>& U) const { return compute(U, nullptr).total(); }

double SpreadLoss::evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const {
  return compute(U, &gradient).total();
}

SpreadLossComponents SpreadLoss::components(const Eigen::Ref<const Matrix>& U) const { return compute(U, nullptr); }

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
// O(N d): the points and the gradient in class order (see class_order.hpp). Row i reads only column i of G (and the saved diagonal), so the loop
// overwrites column i with row i's coefficients once it has read it.
// Work: half a Gram product (symmetric tiles), N^2 exponentials, and one N x N x d
// product for the gradient, all in parallel over fixed tiles or rows.
template <class OnRow>
void SpreadLoss::exponential_pass(Matrix& W, OnRow&& on_row) const {
  const Index N = W.cols();
  const double inv2t = 0.5 / tau_;
  const Vector sq = W.diagonal();
  for_each_row(N, kParallelRows, [&](Index i) {
    const int y = class_order_->label(i);
    RowSums r;
    r.pos_begin = class_order_->begin(y);
    r.pos_count = class_order_->size(y);
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

SpreadLossComponents SpreadLoss::compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const {
  check_shape(U);
  const Index N = U.cols();
  const double inv2t = 0.5 / tau_;
  const double K = num_classes_;
  const bool want_gradient = gradient != nullptr;
  if (want_gradient) require_shape_of_points("gradient", gradient->rows(), gradient->cols(), U.rows(), N);

  const Matrix Us = class_order_->gather(U);
  if (path_for(evaluation_, N, U.rows()) == PairEvaluation::kStreamed) {
    if (!want_gradient) return detail::streamed_spread_loss(Us, *class_order_, alpha_, tau_, nullptr);
    Matrix g;
    const SpreadLossComponents out = detail::streamed_spread_loss(Us, *class_order_, alpha_, tau_, &g);
    class_order_->scatter(g, *gradient);
    return out;
  }
  require_stored_matrices(N, 1, "the spread loss's N x N matrix (stored path)");
  Matrix W;  // Gram matrix, then coefficients (column i = row i)
  gram_matrix(Us, W);
  // Per row: the sums, and the log-means' constants; the logarithms come after the pass, as
  // two vectorised calls (48 scalar calls were 7 % of a solve at N = 24).
  Vector neg_sum(N), pos_sum(N), neg_lse(N), pos_lse(N), align(N);
  exponential_pass(W, [&](Index i, auto col, const RowSums& r) {
    const double n_pos = static_cast<double>(r.pos_count);
    const double align_factor = inv2t / (K * n_pos * n_pos);
    const auto y = static_cast<std::size_t>(class_order_->label(i));
    neg_sum[i] = r.sum_neg;
    pos_sum[i] = r.sum_pos;
    neg_lse[i] = -r.nearest_negative * inv2t - log_negatives_[y];
    pos_lse[i] = -log_positives_[y];
    align[i] = r.sum_d_pos * align_factor;
    if (!want_gradient) return;
    const double neg_scale = -(1.0 - alpha_) * inv2t / (static_cast<double>(N) * r.sum_neg);
    const double pos_scale = -alpha_ * inv2t / (static_cast<double>(N) * r.sum_pos);
    const double pos_shift = (1.0 - alpha_) * align_factor;
    col.head(r.pos_begin) *= neg_scale;
    col.tail(N - r.pos_begin - r.pos_count) *= neg_scale;
    auto positives = col.segment(r.pos_begin, r.pos_count).array();
    positives = pos_scale * positives + pos_shift;
  });

  neg_lse.array() += neg_sum.array().log();
  pos_lse.array() += pos_sum.array().log();
  // Serial, fixed-order sums: the result does not depend on the thread count.
  SpreadLossComponents out;
  out.different_class = (1.0 - alpha_) * neg_lse.sum() / static_cast<double>(N);
  out.same_class = alpha_ * pos_lse.sum() / static_cast<double>(N);
  out.alignment = (1.0 - alpha_) * align.sum();

  if (want_gradient) {
    symmetrize_add_transpose(W);  // S = C + C^T
    const Vector degree = W.colwise().sum().transpose();  // S is symmetric: column sums, contiguous
    Matrix g(Us.rows(), N);
    tiled_product(Us, W, g);
    g = 2.0 * (Us * degree.asDiagonal() - g);
    class_order_->scatter(g, *gradient);
  }
  return out;
}

// The Hessian. Write C_ij = k w_ij (+ the alignment constant for positives), where w_ij
// is j's softmax weight within row i's negative or positive set and k = -(1-alpha)/(2 tau N)
// for negatives, -alpha/(2 tau N) for positives. The gradient is 2 U L(S), L(S) = diag(S 1) - S, S = C + C^T. Along V:
//   dD_ij = 2 (u_i - u_j).(v_i - v_j) = T_ii + T_jj - 2 T_ij,   T = U^T V + V^T U
//   dC_ij = -k w_ij (dD_ij - sum_{l in set} w_il dD_il) / (2 tau)
//   D^2 f[V] = 2 V L(S) + 2 U L(dC + dC^T).
namespace {
class SpreadLossHessian final : public HessianOperator {
 public:
  // U in class order; weights and S over the sorted positions.
  SpreadLossHessian(Matrix U, Matrix weights, Matrix S, std::shared_ptr<const detail::ClassOrder> order,
                    double scale_neg, double scale_pos, double inv2t)
      : U_(std::move(U)), weights_(std::move(weights)), S_(std::move(S)), order_(std::move(order)),
        scale_neg_(-scale_neg * inv2t), scale_pos_(-scale_pos * inv2t) {
    degree_ = S_.colwise().sum().transpose();
  }

  Matrix apply(const Matrix& V_input) const override {
    const Index N = U_.cols();
    require_shape_of_points("direction", V_input.rows(), V_input.cols(), U_.rows(), N);
    const Matrix V = order_->gather(V_input);
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
    const Matrix sorted = 2.0 * (V * degree_.asDiagonal() - VS + U_ * d_degree.asDiagonal() - UdS);
    Matrix out(V.rows(), N);
    order_->scatter(sorted, out);
    return out;
  }

 private:
  Matrix U_, weights_, S_;
  std::shared_ptr<const detail::ClassOrder> order_;
  Vector degree_;
  double scale_neg_, scale_pos_;  // -k / (2 tau) for the two sets
};
}  // namespace

std::unique_ptr<HessianOperator> SpreadLoss::hessian(const Eigen::Ref<const Matrix>& U) const {
  check_shape(U);
  const Index N = U.cols();
  // hessian_path_for's path; a stored Hessian streams too where its three N x N matrices would
  // not fit in the memory available (checked before allocating them).
  const double stored_bytes = stored_hessian_bytes(N, U.rows());
  if (hessian_path_for(evaluation_, N, U.rows()) == PairEvaluation::kStreamed ||
      (stored_bytes > kCheckMemoryFromBytes && stored_bytes > 0.5 * static_cast<double>(available_memory_bytes()))) {
    return detail::streamed_spread_hessian(class_order_->gather(U), class_order_, alpha_, tau_);
  }
  const double inv2t = 0.5 / tau_;
  const double K = num_classes_;
  Matrix Us = class_order_->gather(U);
  Matrix W;  // Gram, then softmax weights
  gram_matrix(Us, W);
  Matrix C(N, N);
  const double neg_scale = -(1.0 - alpha_) * inv2t / static_cast<double>(N);
  const double pos_scale = -alpha_ * inv2t / static_cast<double>(N);
  exponential_pass(W, [&](Index i, auto col, const RowSums& r) {
    const Index b = r.pos_begin, n = r.pos_count, rest = N - b - n;
    const double n_pos = static_cast<double>(n);
    const double pos_shift = (1.0 - alpha_) * inv2t / (K * n_pos * n_pos);
    col.head(b) /= r.sum_neg;
    col.tail(rest) /= r.sum_neg;
    col.segment(b, n) /= r.sum_pos;
    auto c = C.col(i);
    c.head(b) = neg_scale * col.head(b);
    c.tail(rest) = neg_scale * col.tail(rest);
    c.segment(b, n) = (pos_scale * col.segment(b, n).array() + pos_shift).matrix();
  });
  symmetrize_add_transpose(C);
  return std::make_unique<SpreadLossHessian>(std::move(Us), std::move(W), std::move(C), class_order_, neg_scale,
                                             pos_scale, inv2t);
}

}  // namespace geomsim
