#pragma once
// Tensor operations the losses share, written so that they run on any device (PyTorch's meta
// device included) and read no value back to the host.
//
// Debian's libtorch 1.13 has no meta kernel for where, logical_and/or/not, abs (and so none for
// logsumexp or isinf), index_select, cdist, cholesky_solve, nor for the backward passes of
// clamp and minimum (which call where). The functions here give the same results with
// operations that have one: on the CPU the same bits as the torch function named beside each
// (tests/train/losses/test_losses_on_meta.cpp), except euclidean_distances, which is cdist's matrix-product
// path only (see there).
#include <torch/torch.h>

#include <limits>

namespace geomsim::train::detail {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// Boolean masks: not a, a and b, a or b (torch::logical_*).
inline torch::Tensor mask_not(const torch::Tensor& a) { return a.bitwise_not(); }
inline torch::Tensor mask_and(const torch::Tensor& a, const torch::Tensor& b) { return a.bitwise_and(b); }
inline torch::Tensor mask_or(const torch::Tensor& a, const torch::Tensor& b) { return a.bitwise_or(b); }

// x where mask is true, `fill` elsewhere: torch::where(mask, x, fill), with the same gradient
// (x's where mask is true, none elsewhere).
inline torch::Tensor keep(const torch::Tensor& x, const torch::Tensor& mask, double fill) {
  return x.masked_fill(mask_not(mask), fill);
}

// torch::logsumexp(s, dim): the same forward arithmetic (shift by the finite maximum, exp, sum,
// log, add) and the same backward formula, grad * exp(s - result).
torch::Tensor logsumexp(const torch::Tensor& s, int64_t dim);

// The rows of the matrix x at `index` (int64, on x's device): x.index_select(0, index).
torch::Tensor take_rows(const torch::Tensor& x, const torch::Tensor& index);

// Euclidean distances between the rows of x1 (P x d) and x2 (R x d), P x R, by cdist's
// matrix-product form sqrt(max(|a|^2 + |b|^2 - 2 a.b, 1e-30)): the same bits as torch::cdist(x1, x2)
// where cdist takes that path (P or R above 25 and x1, x2 distinct tensors); within rounding of it otherwise.
torch::Tensor euclidean_distances(const torch::Tensor& x1, const torch::Tensor& x2);

// torch::cholesky_solve(b, L) for a lower-triangular L: two triangular solves, as LAPACK's potrs.
torch::Tensor cholesky_solve(const torch::Tensor& b, const torch::Tensor& L);

// The checks every loss on one batch of embeddings makes: tau > 0, z a floating-point N x d matrix
// with N >= 2, and one label per row; each refusal names its argument.
void check_batch(const torch::Tensor& z, const torch::Tensor& labels, double tau);

// Whether a tensor's values can be read without a device synchronisation (it is in host
// memory). The losses validate index and label values only then; on a device they trust them.
inline bool on_host(const torch::Tensor& t) { return t.device().is_cpu(); }

}  // namespace geomsim::train::detail
