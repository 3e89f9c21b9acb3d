#pragma once
// The contrastive losses whose structure is "log-sum-exp over a Gram matrix with a label mask",
// computed without any N x N matrix: SupCon L_out and L_in (seed 001), SimCLR's InfoNCE (L_out
// with each sample its own class), and seed 004's L_spread = (1 - alpha) L_sup + alpha L_cNCE with
// either partner convention. One engine (geomsim/objectives/contrastive_tiles.hpp) visits the
// anchors x candidates tiles twice, as flash attention does: the forward pass keeps
// kContrastiveStatistics numbers per row (online log-sum-exps over the row's negatives, positives
// and positives without its partner, the sum of its positives' similarities, its partner's, L_sup's
// sums over positives and |P(i)|), the backward pass recomputes each tile and multiplies its
// coefficients into the embeddings at once. Memory beyond the inputs and the gradient: O(N) and
// four tiles per thread.
//
// Inputs (any row order):
//   z        N x d embeddings (the losses do not normalise them);
//   labels   N integer labels: rows of one label are each other's positives;
//   partner  N indices or undefined: partner[i] is the other view a(x_i) of row i, of its label
//            (L_cNCE reads it; the others do not);
//   anchors  N booleans or undefined (every row): the rows whose terms the loss averages; every
//            row is a candidate of every anchor. contrast_mode='one' and a rank's local anchors
//            against a gathered batch are anchors.
// Each loss is the mean of its per-anchor terms over the anchors that have the terms' positives
// (L_out, L_in, L_sup: a positive; L_cNCE: a partner and a non-empty D(i)); with no such anchor
// it is 0 with a zero gradient (as pytorch-metric-learning's losses are), never NaN.
//
// Where it runs: on the CPU for float and double z, the engine (vectorised, OpenMP over tiles
// in a fixed order: bitwise the same for any thread count); float16 and bfloat16 z are computed
// in float and their gradient returned in their dtype. On any other device the same two passes
// in ATen operators over row blocks (memory O(block N)); on CUDA, where the build has them and
// they are asked for (ContrastivePath below), by CUDA kernels (src/train/losses/
// contrastive_cuda_kernel.hpp).
#include <torch/torch.h>

#include <string>

#include "geomsim/objectives/contrastive_tiles.hpp"

namespace geomsim::train {

enum class ContrastiveKind {
  supcon_out,  // seed 001 eq. 2: -1/|P(i)| sum_p log(e^{s_ip} / sum_{a != i} e^{s_ia})
  supcon_in,   // seed 001 eq. 3: -log(1/|P(i)| sum_p e^{s_ip} / sum_{a != i} e^{s_ia})
  spread,      // seed 004 eqs. 2-3, 10: (1 - alpha) L_sup + alpha L_cNCE
};

// Which implementation runs the two passes: automatic, the engine where it applies (the CPU,
// float or double) and elsewhere the ATen row blocks, or on CUDA the path chosen by
// use_contrastive_cuda_path; or one of them for every call: the ATen row blocks (the tests' and
// the GPU check's second computation), or on CUDA one of two sets of kernels:
//   cuda_fused     one kernel a pass, its products register-tiled in the kernel: no tile is ever
//                  written to device memory (memory O(N)), the products on the CUDA cores;
//   cuda_products  a block of rows against every column by cuBLAS, the rest of each pass fused
//                  into one kernel that reads the block once (memory: one block, at most 512 MiB).
// Both are refused, naming "path", off CUDA or in a build without them.
enum class ContrastivePath { automatic, aten_blocks, cuda_fused, cuda_products };

// Whether this build has the kernels (nvcc and a CUDA libtorch), and the process-wide path that
// ContrastivePath::automatic takes on CUDA: cuda_products where the build has the kernels (a lent
// H200 held them to the CPU's engine and measured them 4.6 times the ATen row blocks at B = 8192),
// else aten_blocks; cuda_fused or aten_blocks on request. Returns the previous one; refuses
// automatic, and the kernels in a build without them, with InvalidArgument("path").
bool contrastive_cuda_kernels_built();
ContrastivePath use_contrastive_cuda_path(ContrastivePath path);

struct ContrastiveLossSpec {
  ContrastiveKind kind = ContrastiveKind::supcon_out;
  double tau = 0.1;
  double alpha = 0.5;           // spread only
  bool include_partner = true;  // spread only: D(i) = P(i) (eq. 10); false: P(i) minus a(x_i) (eq. 3)
  double scale = 1.0;           // the loss is multiplied by it (SupContrast's tau / base_temperature)
  ContrastivePath path = ContrastivePath::automatic;
};

// "automatic", "aten_blocks", "cuda_fused", "cuda_products"; and the path by that name (throws
// InvalidArgument("path", ...) for any other).
const char* contrastive_path_name(ContrastivePath path);
ContrastivePath contrastive_path(const std::string& name);

// "supcon", "supcon-in", "spread": the kind's name as the error messages and ops give it.
const char* contrastive_kind_name(ContrastiveKind kind);
// The kind by that name; throws InvalidArgument("kind", ...) for any other.
ContrastiveKind contrastive_kind(const std::string& name);

// Per-row statistics of the forward pass, N x kContrastiveStatistics float64 in z's row order, on
// z's device, the columns of geomsim/objectives/contrastive_tiles.hpp's ContrastiveStatistic: the
// log-sum-exps of s_ij = z_i.z_j / tau over N(i), P(i) and D(i) (-inf when empty), the sum of
// s_ij over P(i), s_i,a(i), L_sup's sums over P(i) of softplus and sigmoid of lse_N(i) - s_ij,
// and |P(i)|. Rows that are not anchors have no meaningful statistics.
inline constexpr int64_t kContrastiveStatistics = kRowStatistics;

struct ContrastiveForward {
  torch::Tensor loss;        // 0-dimensional, z's dtype
  torch::Tensor statistics;  // N x kContrastiveStatistics, float64
};

// The checks of every argument (each refusal names it): tau > 0; alpha in [0, 1]; scale > 0; z a
// floating N x d matrix, N >= 1, d >= 1; labels [N] of an integer dtype; partner [N] of an integer
// dtype (values checked in host memory: in [0, N), not the row, and of the row's label where the
// labels are in host memory too); anchors [N] bool; all on z's device, except that the partner may
// be on the CPU (the passes move it to z's device: the trainer keeps its fixed partners there). kind spread with alpha > 0 needs a partner.
void check_contrastive_batch(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                             const torch::Tensor& anchors, const ContrastiveLossSpec& spec);

// The two passes, without autograd: the loss and the statistics; then dL/dz for an upstream
// gradient `grad` (a 0-dimensional tensor) from those statistics. Both check their arguments.
// These are what geomsim.torch registers as the operators geomsim::contrastive_forward and
// geomsim::contrastive_backward; on the meta device they give the shapes only.
ContrastiveForward contrastive_forward(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                       const torch::Tensor& anchors, const ContrastiveLossSpec& spec);
torch::Tensor contrastive_backward(const torch::Tensor& grad, const torch::Tensor& z, const torch::Tensor& labels,
                                   const torch::Tensor& partner, const torch::Tensor& anchors,
                                   const torch::Tensor& statistics, const ContrastiveLossSpec& spec);

// The loss, differentiable once (create_graph is refused) through those two passes.
torch::Tensor streamed_contrastive_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                        const torch::Tensor& anchors, const ContrastiveLossSpec& spec);

}  // namespace geomsim::train
