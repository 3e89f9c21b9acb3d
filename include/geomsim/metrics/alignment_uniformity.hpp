#pragma once
// Wang & Isola's alignment and uniformity of embeddings (the columns of a d x N matrix):
//
//   L_align = E_{(x, x+)} |f(x) - f(x+)|^2              over positive pairs
//   L_unif  = log E_{x, y} exp(-t |f(x) - f(y)|^2),      t = 2 unless given
//
// Pair conventions:
//   - alignment: the pairs are given, as two matrices whose columns are paired (the authors'
//     align_loss(x, y) with alpha = 2), as index pairs into one matrix, or, with labels, every
//     ordered pair of distinct points of the same class (same-class alignment);
//   - uniformity: the mean over the N(N-1)/2 pairs of distinct points i < j (the authors'
//     uniform_loss, which uses torch.pdist). A point is never paired with itself; two equal
//     points at different indices are a pair (at distance 0).
//
// On the uniform measure sigma of S^{d-1}, E exp(-t |u - v|^2) is the Wiener constant W at
// 1/(2 tau) = t (theory/wiener_constant.hpp): L_unif(sigma) = log W(tau = 1/(2t), d), so
// log W(1/4, d) at t = 2. The theory module is not included here (metrics and theory are
// siblings); the tests compare the two.
#include <utility>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// (1/M) sum_m |a_m - b_m|^2 over the M columns. Throws InvalidArgument("positives") unless
// both are d x M with M >= 1 and finite.
double alignment(const PointsRef& anchors, const PointsRef& positives);

// (1/M) sum over the M index pairs (i, j) of |x_i - x_j|^2. Throws InvalidArgument("pairs")
// when empty or an index is outside 0..N-1.
double pair_alignment(const PointsRef& points, const std::vector<std::pair<Index, Index>>& pairs);

// The mean of |x_i - x_j|^2 over every ordered pair i != j with y_i = y_j, pooled over classes:
//   sum_k 2 n_k sum_{y_i = k} |x_i - mu_k|^2 / sum_k n_k (n_k - 1)
// (the pairwise sum is 2 n_k times the scatter about the mean, so no pair is formed). Throws
// InvalidArgument("labels") unless some class has two points.
double same_class_alignment(const PointsRef& points, const std::vector<int>& labels);

// L_unif at t > 0 over the distinct pairs (needs N >= 2). Stable and blocked: squared
// distances come from 256 x 256 tiles of the Gram matrix, each tile's exponentials are
// summed relative to the tile's largest exponent, and the tiles' partial sums are combined
// by log-sum-exp in a fixed order. It never forms N x N, never underflows to log 0 (far-apart
// points give a large negative value, not -inf), and is bitwise the same for any number of
// OpenMP threads. Throws InvalidArgument("points") on non-finite entries or N < 2, and
// InvalidArgument("t") unless t is finite and > 0.
double uniformity(const PointsRef& points, double t = 2.0);

}  // namespace geomsim
