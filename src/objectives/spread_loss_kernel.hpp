#pragma once
// The entry points of the spread loss's kernels in the namespace geomsim::LEVEL of one
// compilation of them (support/cpu_dispatch.hpp): spread_loss_kernel.cpp holds the stored path's
// value, gradient and Hessian, streamed_spread_loss_kernel.cpp the streamed path's. Points,
// gradients and Hessian directions and products are in class order (manifold/class_order.hpp);
// the dispatchers (spread_loss.cpp, streamed_spread_loss.cpp) gather and scatter. Internal header.
//
// Memory never changes hands between a kernel and the rest of the library: Eigen allocates a
// dynamic matrix with plain malloc where its default alignment is 16 bytes (the portable build)
// and with its own aligned allocator, which keeps the block's start before it, where it is 32 or
// 64 (the AVX2 and AVX-512 levels), so a matrix one side allocated must not be freed or resized
// by the other. Inputs cross as const references, outputs as pointers to memory the caller
// sized, and a Hessian's state stays inside the kernel that built it (SortedHessianKernel).
#include <memory>

#include "geomsim/objectives/spread_loss.hpp"
#include "manifold/class_order.hpp"
#include "support/cpu_dispatch.hpp"

namespace geomsim::detail {

// The exact Hessian at a point, built by a level's kernel, which owns its state.
class SortedHessianKernel {
 public:
  virtual ~SortedHessianKernel() = default;
  // out (d x N, column-major, sized by the caller) = D^2 f(U)[V]; V and out in class order.
  virtual void apply(const Matrix& V, double* out) const = 0;
};

// The HessianOperator over a kernel's Hessian: directions and products in the input order
// (spread_loss.cpp).
std::unique_ptr<HessianOperator> sorted_hessian_operator(std::unique_ptr<const SortedHessianKernel> kernel,
                                                         std::shared_ptr<const ClassOrder> order, Index dim,
                                                         Index num_points);

}  // namespace geomsim::detail

// gradient: null, or d x N doubles (column-major) that receive the gradient; log_positives and
// log_negatives: log n_y and log (N - n_y) per class. A Hessian keeps its own copy of U.
#define GEOMSIM_DECLARE_SPREAD_LOSS_KERNELS(LEVEL)                                                                   \
  namespace geomsim::LEVEL {                                                                                         \
  SpreadLossComponents stored_spread_loss(const Matrix& U, const detail::ClassOrder& order, double alpha, double tau, \
                                          const double* log_positives, const double* log_negatives,                \
                                          double* gradient);                                                        \
  std::unique_ptr<const detail::SortedHessianKernel> stored_spread_hessian(                                          \
      const Matrix& U, std::shared_ptr<const detail::ClassOrder> order, double alpha, double tau);                   \
  SpreadLossComponents streamed_spread_loss(const Matrix& U, const detail::ClassOrder& order, double alpha,           \
                                            double tau, double* gradient);                                          \
  std::unique_ptr<const detail::SortedHessianKernel> streamed_spread_hessian(                                        \
      const Matrix& U, std::shared_ptr<const detail::ClassOrder> order, double alpha, double tau);                   \
  }

#ifdef GEOMSIM_CPU_NAMESPACE
GEOMSIM_DECLARE_SPREAD_LOSS_KERNELS(GEOMSIM_CPU_NAMESPACE)
#endif
