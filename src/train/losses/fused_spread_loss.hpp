#pragma once
// L_spread (contrastive_losses.hpp) on the CPU as one kernel: the similarity matrix from one
// product, then one pass over its rows that computes each anchor's L_sup and L_cNCE terms and,
// when a gradient is wanted, the derivative C = dL/dS of the loss in the similarities; the
// backward pass is then one more product, dL/dz = (C + C^T) z / tau. Both products run in row
// tiles of a fixed height with Eigen's GEMM, never through the BLAS, so the loss and the gradient
// have the same bits on any number of threads whatever BLAS kernel the CPU gets. Compared with the same
// loss composed of tensor operations it builds no masks, no N x N temporaries for autograd and
// reads no value back. spread_loss() uses it for float and double CPU tensors with integer
// labels, and the composed form otherwise.
//
// In each row i, with nu_i = log sum_{n in N(i)} e^{s_in} and mu_i = log sum_{p in D(i)} e^{s_ip}:
//   L_sup(i)  = 1/|P(i)| sum_{p in P(i)} softplus(nu_i - s_ip)
//   L_cNCE(i) = mu_i - s_i,a(i)
// and, with w_i = (1 - alpha) / (A_sup |P(i)|), v = alpha / A_cNCE (A: the anchors counted),
//   dL/ds_ip = -w_i sigmoid(nu_i - s_ip) + v e^{s_ip - mu_i} [p in D(i)] - v [p = a(i)]
//   dL/ds_in =  w_i (sum_{p in P(i)} sigmoid(nu_i - s_ip)) e^{s_in - nu_i}
// The rows are sorted by label first, so that P(i) is one contiguous segment and N(i) the two
// around it, and each segment is one vectorised expression (Eigen's exp, log1p).
#include <torch/torch.h>

namespace geomsim::train::detail {

// Whether the kernel takes this batch: z a float or double CPU tensor, labels of an integer type.
bool fused_spread_loss_applies(const torch::Tensor& z, const torch::Tensor& labels);

// The inputs must be valid (spread_loss checks them): z N x d, N >= 2, tau > 0, alpha in
// [0, 1], labels N integers, partner N int64 CPU indices in [0, N), each a different row
// of the same label. Differentiable once in z (a second derivative throws).
torch::Tensor fused_spread_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                double tau, double alpha, bool include_partner);

}  // namespace geomsim::train::detail
