// The streamed path's entry points: each calls the kernel compiled for the CPU level that
// geomsim::cpu_level() chose (streamed_spread_loss_kernel.cpp), and the sizes that need no kernel.
#include "objectives/streamed_spread_loss.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "objectives/spread_loss_kernel.hpp"

GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL(GEOMSIM_DECLARE_SPREAD_LOSS_KERNELS)

namespace geomsim::detail {

bool shared_shift_fits(double max_squared_norm, double tau, Index num_points) {
  const double range = 2.0 * max_squared_norm / tau;
  return std::isfinite(range) &&
         range <= kLeadingExponent + kLargestExponent - std::log(static_cast<double>(std::max<Index>(num_points, 1)));
}

namespace {
SpreadLossComponents streamed_kernel(const Matrix& U, const ClassOrder& order, double alpha, double tau,
                                     double* gradient) {
  GEOMSIM_CPU_DISPATCH_CALL(streamed_spread_loss(U, order, alpha, tau, gradient))
}
std::unique_ptr<const SortedHessianKernel> streamed_hessian_kernel(const Matrix& U,
                                                                   std::shared_ptr<const ClassOrder> order,
                                                                   double alpha, double tau) {
  GEOMSIM_CPU_DISPATCH_CALL(streamed_spread_hessian(U, std::move(order), alpha, tau))
}
}  // namespace

SpreadLossComponents streamed_spread_loss(const Matrix& U, const ClassOrder& order, double alpha, double tau,
                                          Matrix* gradient) {
  if (gradient == nullptr) return streamed_kernel(U, order, alpha, tau, nullptr);
  gradient->resize(U.rows(), U.cols());
  return streamed_kernel(U, order, alpha, tau, gradient->data());
}

std::unique_ptr<HessianOperator> streamed_spread_hessian(Matrix U, std::shared_ptr<const ClassOrder> order,
                                                         double alpha, double tau) {
  return sorted_hessian_operator(streamed_hessian_kernel(U, order, alpha, tau), order, U.rows(), U.cols());
}

double streamed_hessian_bytes(Index num_points, Index dim, int threads) {
  const double n = static_cast<double>(num_points), d = static_cast<double>(dim);
  // Per thread four tiles (exponentials, the column side's, dD, the column coefficients);
  // U, V, the two accumulators, the sorted and scattered result, and the CG's direction: 7 N d;
  // ten row vectors.
  const double tile = 8.0 * static_cast<double>(kBlock) * static_cast<double>(kBlock);
  return 4.0 * tile * std::max(threads, 1) + 8.0 * 7.0 * n * d + 8.0 * 10.0 * n;
}

}  // namespace geomsim::detail
