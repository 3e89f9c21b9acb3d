#pragma once
// The streaming engine of the contrastive losses whose structure is "log-sum-exp over a Gram
// matrix with a label mask" (SupCon L_out and L_in, SimCLR's InfoNCE, seed 004's L_sup and
// L_cNCE): their value and gradient from per-row statistics, without the N x N matrix.
//
// The rows are sorted by class, so that each row's positives are one run of rows. With
// s_ij = z_i . z_j / tau, row i (an anchor) sees three sets of columns:
//   N(i)  the other classes' rows (negatives),
//   P(i)  its class's rows but i (positives),
//   D(i)  P(i) without its partner a(x_i) (all of P(i) when it has none).
// The pairs are visited in kBlock x kBlock tiles (for_each_tile_in_rounds: each tile on or below
// the diagonal once, the tiles of a round on disjoint blocks, in parallel), each tile by one GEMM
// and, off the diagonal, its transpose: the tile's rows are anchors against its columns and the
// transpose's rows against its rows. So every row's statistics receive their tiles in one fixed
// order, and the results are bitwise the same for any number of threads.
//
//   contrastive_statistics   pass 1: per row, online log-sum-exps over N(i), P(i), D(i), the sum
//                            of s_ij over P(i) and s_i,a(i); then, when asked, a pass over the
//                            tiles that hold positives: sum_{P(i)} softplus(lse_N(i) - s_ij) and
//                            sum_{P(i)} sigmoid(lse_N(i) - s_ij) (L_sup's value and gradient).
//   contrastive_gradient     pass 2: recomputes each tile, turns it into row i's coefficients
//                            C_ij = dL/ds_ij from six weights per row (below), and adds
//                            (C + C^T) z into the gradient by two GEMMs per tile.
//
// Memory: per thread four tiles (kBlock^2 T each); O(N) for the statistics.
#include <cstdint>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "geomsim/objectives/contrastive_statistics.hpp"

namespace geomsim {

// The batch, rows in class order: row i's class is the rows [class_first[i], class_last[i]).
template <class T>
struct ContrastiveRows {
  const T* z = nullptr;  // n x dim, row-major
  Index n = 0, dim = 0;
  double inv_tau = 1.0;
  const std::int64_t* class_first = nullptr;
  const std::int64_t* class_last = nullptr;
  const std::int64_t* partner = nullptr;  // row i's partner, in its class, or -1; nullptr: none has one
  const bool* anchor = nullptr;           // the anchors; nullptr: every row. Other rows get no statistics.
};

// Fills statistics (n x kRowStatistics); L_sup's two sums only when sup_terms (else 0).
template <class T>
void contrastive_statistics(const ContrastiveRows<T>& rows, bool sup_terms, double* statistics);

// gradient (n x dim, row-major) += sum_j (C_ij + C_ji) z_j: dL/dz times tau, for C from the
// statistics and the weights. Rows whose weights are all 0 cost no exponentials.
template <class T>
void contrastive_gradient(const ContrastiveRows<T>& rows, const double* statistics, const double* weights, T* gradient);

extern template void contrastive_statistics<float>(const ContrastiveRows<float>&, bool, double*);
extern template void contrastive_statistics<double>(const ContrastiveRows<double>&, bool, double*);
extern template void contrastive_gradient<float>(const ContrastiveRows<float>&, const double*, const double*, float*);
extern template void contrastive_gradient<double>(const ContrastiveRows<double>&, const double*, const double*, double*);

}  // namespace geomsim
