#pragma once
// Seed 002's kernels K_Z on the conditioning variable Z (§2.3, Step II: [K_Z]_ij = <gamma(z_i),
// gamma(z_j)>), which CCL-K's conditional embedding W = (K_Z + lambda I)^{-1} K_Z smooths. The
// seed reports cosine as its default (§4.1, Table 2: "WeaklySup_CCLK (ours)" is its cosine row),
// RBF, Laplacian and linear (Table 2 right), polynomial of degree 3 (Appendix B, Table 5) and
// an RBF bandwidth ablation (Table 7, sigma^2 from 1 to 1000). The seed gives no formulas; here,
// for rows u_i of the conditioning values U (b x k), |.| the Euclidean norm:
//   cosine      K_ij = u_i . u_j / (|u_i| |u_j|) for i != j (0 when either row is 0), K_ii = 1
//   rbf         K_ij = exp(-|u_i - u_j|^2 / (2 bandwidth^2))
//   laplacian   K_ij = exp(-|u_i - u_j| / bandwidth)
//   linear      K_ij = u_i . u_j
//   polynomial  K_ij = (u_i . u_j + offset)^degree
// CCLK-release (a5b4136, ConditionalSampling.py:51-71) sets every kernel's diagonal to 1 and
// writes RBF as exp(-|u_i - u_j|^2 / temp_z) (temp_z = 2 bandwidth^2 here), Laplacian with the
// Euclidean distance as here, linear as u.v / temp_z and polynomial as (u.v)^3 / temp_z (offset
// 0, a scale that only rescales lambda); only cosine's diagonal is set to 1 here (it is 1 within
// rounding for a non-zero row, and a zero row is then similar to itself alone).
// All five are positive semi-definite for any U (cosine: a Gram matrix of the normalised rows
// plus a non-negative diagonal; rbf, laplacian: the Gaussian and exponential kernels of the
// Euclidean distance; polynomial: offset >= 0 and an integer degree, products and sums of
// positive semi-definite kernels), so K_Z + lambda I is positive definite for lambda > 0.
// W can have negative entries (linear, cosine and odd-degree polynomial kernels take negative
// values on signed attributes, and W = I - lambda (K_Z + lambda I)^-1 has negative entries for
// most kernels besides the delta kernel); the registry's cclk-weak and cclk-fair then drop them
// (ConditionalWeights::nonnegative, kernel_contrastive_losses.hpp), which keeps every
// conditional score positive; on the labels' delta kernel they keep W, as before.
// Every kernel is float64 (b x b), computed on U's device without reading a value back, and
// detached: the conditioning values carry no gradient.
#include <torch/torch.h>

#include <string>
#include <vector>

namespace geomsim::train {

struct ConditioningKernel {
  std::string name = "cosine";  // one of conditioning_kernel_names()
  double bandwidth = 1.0;       // rbf, laplacian: > 0
  double degree = 3.0;          // polynomial: an integer in [1, kMaxPolynomialDegree] (Table 5's 3)
  double offset = 1.0;          // polynomial: >= 0
};
inline constexpr double kMaxPolynomialDegree = 10.0;

// cosine, rbf, laplacian, linear, polynomial (cosine first: the seed's default).
const std::vector<std::string>& conditioning_kernel_names();
// "cosine, rbf, laplacian, linear, polynomial".
std::string conditioning_kernel_list();
// Throws InvalidArgument naming the CLI option (cond-kernel, cond-bandwidth, cond-degree,
// cond-offset) outside its range.
void validate(const ConditioningKernel& kernel);

// K_Z of the rows of `values` (b x k, any floating or integer dtype). Validates the kernel; in
// host memory also refuses non-finite values and a kernel matrix that is not finite (e.g. a
// polynomial that overflows).
torch::Tensor conditioning_kernel(const torch::Tensor& values, const ConditioningKernel& kernel);

// K_Z of the labels' one-hot vectors (whatever their number of classes), from delta_ij = [labels_i
// = labels_j]: cosine and linear delta; rbf exp(-(1 - delta) / bandwidth^2); laplacian
// exp(-sqrt(2) (1 - delta) / bandwidth); polynomial (delta + offset)^degree. With cosine, the
// default, this is delta_kernel(labels).
torch::Tensor label_conditioning_kernel(const torch::Tensor& labels, const ConditioningKernel& kernel);

}  // namespace geomsim::train
