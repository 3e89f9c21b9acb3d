#include "geomsim/spread_loss.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "geomsim/errors.hpp"
#include "geomsim/pairwise_kernels.hpp"

namespace geomsim {
namespace {
// Below this many points the row loop is too short to pay for a thread team.
constexpr Index kParallelRows = 256;
}  // namespace

SpreadLoss::SpreadLoss(std::vector<int> labels, double alpha, double tau)
    : labels_(std::move(labels)), alpha_(alpha), tau_(tau) {
  require_in_closed_range("alpha", alpha, 0.0, 1.0);
  require_positive("tau", tau);
  num_classes_ = validate_labels(labels_);
  class_size_.assign(static_cast<std::size_t>(num_classes_), 0);
  for (int y : labels_) ++class_size_[static_cast<std::size_t>(y)];
}

void SpreadLoss::check_shape(const Eigen::Ref<const Matrix>& U) const {
  if (U.cols() != num_points()) {
    throw InvalidArgument("points", "must have one column per label (" + std::to_string(num_points()) +
                                        "), got " + std::to_string(U.cols()));
  }
  if (U.rows() < 1) throw InvalidArgument("points", "must have at least one row (d >= 1)");
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
// O(N d). Row i reads only column i of G (and the saved diagonal), so the loop
// overwrites column i with row i's coefficients once it has read it.
// Work: half a Gram product (symmetric tiles), N^2 exponentials, and one N x N x d
// product for the gradient, all in parallel over fixed tiles or rows.
template <class OnRow>
void SpreadLoss::exponential_pass(Matrix& W, OnRow&& on_row) const {
  const Index N = W.cols();
  const double inv2t = 0.5 / tau_;
  const Vector sq = W.diagonal();
#pragma omp parallel for schedule(static) if (N >= kParallelRows)
  for (Index i = 0; i < N; ++i) {
    const int yi = labels_[static_cast<std::size_t>(i)];
    auto col = W.col(i);
    RowSums r;
    r.nearest_negative = std::numeric_limits<double>::infinity();
    for (Index j = 0; j < N; ++j) {
      if (labels_[static_cast<std::size_t>(j)] != yi) {
        r.nearest_negative = std::min(r.nearest_negative, sq[i] + sq[j] - 2.0 * col[j]);
      }
    }
    // Shifts: the negatives' sum by its largest term; the positives' sum needs none,
    // since it contains exp(0) = 1 (j = i) and every other term is <= 1.
    for (Index j = 0; j < N; ++j) {
      const double d = sq[i] + sq[j] - 2.0 * col[j];
      double e;
      if (labels_[static_cast<std::size_t>(j)] != yi) {
        e = std::exp(-(d - r.nearest_negative) * inv2t);
        r.sum_neg += e;
      } else {
        e = std::exp(-d * inv2t);
        r.sum_pos += e;
        r.sum_d_pos += d;
      }
      col[j] = e;
    }
    on_row(i, col, r);
  }
}

SpreadLossComponents SpreadLoss::compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const {
  check_shape(U);
  const Index N = U.cols();
  const double inv2t = 0.5 / tau_;
  const double K = num_classes_;
  const bool want_gradient = gradient != nullptr;
  if (want_gradient && (gradient->rows() != U.rows() || gradient->cols() != N)) {
    throw InvalidArgument("gradient", "must have the shape of the points (" + std::to_string(U.rows()) + " x " +
                                          std::to_string(N) + ")");
  }

  Matrix W;  // Gram matrix, then coefficients (column i = row i)
  gram_matrix(U, W);
  Vector neg_lse(N), pos_lse(N), align(N);
  exponential_pass(W, [&](Index i, auto& col, const RowSums& r) {
    const int yi = labels_[static_cast<std::size_t>(i)];
    const double n_pos = static_cast<double>(class_size_[static_cast<std::size_t>(yi)]);
    const double n_neg = static_cast<double>(N) - n_pos;
    const double align_factor = inv2t / (K * n_pos * n_pos);
    neg_lse[i] = -r.nearest_negative * inv2t + std::log(r.sum_neg) - std::log(n_neg);
    pos_lse[i] = std::log(r.sum_pos) - std::log(n_pos);
    align[i] = r.sum_d_pos * align_factor;
    if (!want_gradient) return;
    const double neg_scale = -(1.0 - alpha_) * inv2t / (static_cast<double>(N) * r.sum_neg);
    const double pos_scale = -alpha_ * inv2t / (static_cast<double>(N) * r.sum_pos);
    const double pos_shift = (1.0 - alpha_) * align_factor;
    for (Index j = 0; j < N; ++j) {
      col[j] = labels_[static_cast<std::size_t>(j)] != yi ? neg_scale * col[j] : pos_scale * col[j] + pos_shift;
    }
  });

  // Serial, fixed-order sums: the result does not depend on the thread count.
  SpreadLossComponents out;
  out.different_class = (1.0 - alpha_) * neg_lse.sum() / static_cast<double>(N);
  out.same_class = alpha_ * pos_lse.sum() / static_cast<double>(N);
  out.alignment = (1.0 - alpha_) * align.sum();

  if (want_gradient) {
    symmetrize_add_transpose(W);  // S = C + C^T
    const Vector degree = W.colwise().sum().transpose();  // S is symmetric: column sums, contiguous
    Eigen::Ref<Matrix>& g = *gradient;
    tiled_product(U, W, g);
    g = 2.0 * (U * degree.asDiagonal() - g);
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
  SpreadLossHessian(Matrix U, Matrix weights, Matrix S, const std::vector<int>& labels, double scale_neg,
                    double scale_pos, double inv2t)
      : U_(std::move(U)), weights_(std::move(weights)), S_(std::move(S)), labels_(labels),
        scale_neg_(-scale_neg * inv2t), scale_pos_(-scale_pos * inv2t) {
    degree_ = S_.colwise().sum().transpose();
  }

  Matrix apply(const Matrix& V) const override {
    const Index N = U_.cols();
    if (V.rows() != U_.rows() || V.cols() != N) {
      throw InvalidArgument("direction", "must have the shape of the points (" + std::to_string(U_.rows()) + " x " +
                                             std::to_string(N) + ")");
    }
    Matrix T;
    cross_product(U_, V, T);
    symmetrize_add_transpose(T);
    const Vector t = T.diagonal();
#pragma omp parallel for schedule(static) if (N >= kParallelRows)
    for (Index i = 0; i < N; ++i) {
      const int yi = labels_[static_cast<std::size_t>(i)];
      auto col = T.col(i);
      const auto w = weights_.col(i);
      double mean_neg = 0.0, mean_pos = 0.0;
      for (Index j = 0; j < N; ++j) {
        col[j] = t[i] + t[j] - 2.0 * col[j];  // dD_ij
        (labels_[static_cast<std::size_t>(j)] != yi ? mean_neg : mean_pos) += w[j] * col[j];
      }
      for (Index j = 0; j < N; ++j) {
        col[j] = labels_[static_cast<std::size_t>(j)] != yi ? scale_neg_ * w[j] * (col[j] - mean_neg)
                                                            : scale_pos_ * w[j] * (col[j] - mean_pos);
      }
    }
    symmetrize_add_transpose(T);  // dS = dC + dC^T
    const Vector d_degree = T.colwise().sum().transpose();
    Matrix VS(V.rows(), N), UdS(V.rows(), N);
    tiled_product(V, S_, VS);
    tiled_product(U_, T, UdS);
    return 2.0 * (V * degree_.asDiagonal() - VS + U_ * d_degree.asDiagonal() - UdS);
  }

 private:
  Matrix U_, weights_, S_;
  const std::vector<int>& labels_;  // the SpreadLoss's: the operator must not outlive it
  Vector degree_;
  double scale_neg_, scale_pos_;  // -k / (2 tau) for the two sets
};
}  // namespace

std::unique_ptr<HessianOperator> SpreadLoss::hessian(const Eigen::Ref<const Matrix>& U) const {
  check_shape(U);
  const Index N = U.cols();
  const double inv2t = 0.5 / tau_;
  const double K = num_classes_;
  Matrix W;  // Gram, then softmax weights
  gram_matrix(U, W);
  Matrix C(N, N);
  const double neg_scale = -(1.0 - alpha_) * inv2t / static_cast<double>(N);
  const double pos_scale = -alpha_ * inv2t / static_cast<double>(N);
  exponential_pass(W, [&](Index i, auto& col, const RowSums& r) {
    const int yi = labels_[static_cast<std::size_t>(i)];
    const double n_pos = static_cast<double>(class_size_[static_cast<std::size_t>(yi)]);
    const double pos_shift = (1.0 - alpha_) * inv2t / (K * n_pos * n_pos);
    for (Index j = 0; j < N; ++j) {
      const bool negative = labels_[static_cast<std::size_t>(j)] != yi;
      col[j] /= negative ? r.sum_neg : r.sum_pos;
      C(j, i) = negative ? neg_scale * col[j] : pos_scale * col[j] + pos_shift;
    }
  });
  symmetrize_add_transpose(C);
  return std::make_unique<SpreadLossHessian>(Matrix(U), std::move(W), std::move(C), labels_, neg_scale, pos_scale,
                                             inv2t);
}

}  // namespace geomsim
