#include "geomsim/objectives/spread_loss.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "geomsim/manifold/pairwise_kernels.hpp"  // kBlock
#include "geomsim/objectives/point_shapes.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "manifold/class_order.hpp"
#include "objectives/spread_loss_kernel.hpp"
#include "objectives/streamed_spread_loss.hpp"

// The stored path's kernels (spread_loss_kernel.cpp), one per CPU level the build compiles.
GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL(GEOMSIM_DECLARE_SPREAD_LOSS_KERNELS)

namespace geomsim {
namespace detail {
namespace {
class SortedHessianOperator final : public HessianOperator {
 public:
  SortedHessianOperator(std::unique_ptr<const SortedHessianKernel> kernel, std::shared_ptr<const ClassOrder> order,
                        Index dim, Index num_points)
      : kernel_(std::move(kernel)), order_(std::move(order)), dim_(dim), num_points_(num_points) {}

  Matrix apply(const Matrix& V_input) const override {
    require_shape_of_points("direction", V_input.rows(), V_input.cols(), dim_, num_points_);
    const Matrix V = order_->gather(V_input);
    Matrix sorted(V.rows(), V.cols());
    kernel_->apply(V, sorted.data());
    Matrix out(V.rows(), V.cols());
    order_->scatter(sorted, out);
    return out;
  }

 private:
  std::unique_ptr<const SortedHessianKernel> kernel_;
  std::shared_ptr<const ClassOrder> order_;
  Index dim_, num_points_;
};
}  // namespace

std::unique_ptr<HessianOperator> sorted_hessian_operator(std::unique_ptr<const SortedHessianKernel> kernel,
                                                         std::shared_ptr<const ClassOrder> order, Index dim,
                                                         Index num_points) {
  return std::make_unique<SortedHessianOperator>(std::move(kernel), std::move(order), dim, num_points);
}
}  // namespace detail

namespace {
// The stored path's value (and gradient, in class order) and Hessian at the level cpu_level() chose.
SpreadLossComponents stored_spread_loss(const Matrix& U, const detail::ClassOrder& order, double alpha, double tau,
                                        const std::vector<double>& log_positives,
                                        const std::vector<double>& log_negatives, Matrix* gradient) {
  double* out = nullptr;
  if (gradient != nullptr) {
    gradient->resize(U.rows(), U.cols());
    out = gradient->data();
  }
  GEOMSIM_CPU_DISPATCH_CALL(
      stored_spread_loss(U, order, alpha, tau, log_positives.data(), log_negatives.data(), out))
}
std::unique_ptr<const detail::SortedHessianKernel> stored_hessian_kernel(
    const Matrix& U, std::shared_ptr<const detail::ClassOrder> order, double alpha, double tau) {
  GEOMSIM_CPU_DISPATCH_CALL(stored_spread_hessian(U, std::move(order), alpha, tau))
}

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

SpreadLossComponents SpreadLoss::compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const {
  check_shape(U);
  const Index N = U.cols();
  const bool want_gradient = gradient != nullptr;
  if (want_gradient) require_shape_of_points("gradient", gradient->rows(), gradient->cols(), U.rows(), N);

  const Matrix Us = class_order_->gather(U);
  const bool streamed = path_for(evaluation_, N, U.rows()) == PairEvaluation::kStreamed;
  if (!streamed) require_stored_matrices(N, 1, "the spread loss's N x N matrix (stored path)");
  const auto evaluate = [&](Matrix* sorted_gradient) {
    return streamed ? detail::streamed_spread_loss(Us, *class_order_, alpha_, tau_, sorted_gradient)
                    : stored_spread_loss(Us, *class_order_, alpha_, tau_, log_positives_, log_negatives_,
                                         sorted_gradient);
  };
  if (!want_gradient) return evaluate(nullptr);
  Matrix g;
  const SpreadLossComponents out = evaluate(&g);
  class_order_->scatter(g, *gradient);
  return out;
}

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
  return detail::sorted_hessian_operator(stored_hessian_kernel(class_order_->gather(U), class_order_, alpha_, tau_),
                                         class_order_, U.rows(), N);
}

}  // namespace geomsim
