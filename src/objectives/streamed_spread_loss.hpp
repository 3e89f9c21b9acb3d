#pragma once
// The spread loss (spread_loss.hpp) and its gradient without the N x N matrix: the pairs are
// visited tile by tile (pairwise_kernels.hpp: for_each_tile_in_rounds), twice, as flash
// attention does. The passes (streamed_spread_loss_kernel.cpp) are compiled once per CPU level
// and chosen at run time (support/cpu_level.hpp). Internal header.
//
// Pass 1 recomputes each Gram tile and adds its exponentials into every row's two sums
// (negatives, positives) and its positives' distances; pass 2, once every row's sums are
// known, recomputes the tiles, turns them into the symmetric coefficients S of the gradient
// 2 U (diag(S 1) - S) and multiplies them into U at once. Each tile below the diagonal
// serves both of its rows' blocks (half the Gram work, and one exponential per unordered
// pair instead of two), and the tiles of a round touch disjoint blocks, so the sums need no
// locks and come out the same for any number of threads.
//
// The log-sum-exp shifts. The stored path shifts each row's negative sum by its own nearest
// negative, which it knows because it holds the row. Here, where possible, the shift is one
// constant c for every row, fixed before the passes from a bound on the rows' range: with r
// the largest |u_i|, every exponent -|u_i - u_j|^2 / 2 tau lies in [-2 r^2 / tau, 0], so
// c = max(0, 2 r^2 / tau - 600) keeps each row's largest term above e^-600 (a normal double,
// and so is every term within 16 digits of it) and sums of up to N terms below e^700. That
// needs 2 r^2 / tau <= 1300 - log N: tau >= 0.0016 on the unit sphere. Then a pair's
// exponential serves both of its rows. Below that, a pass 0 over the tiles finds every row's
// nearest negative (a minimum: exact in any order), each row is shifted by its own, as in
// the stored path, and an off-diagonal tile computes its negatives' exponentials twice, once
// per row's shift.
//
// Memory: per thread two kBlock x kBlock tiles (1 MiB); in all, O(N d) (the product
// accumulator and the gradient) and O(N) for the row sums and shifts.
#include <memory>

#include "geomsim/objectives/spread_loss.hpp"

namespace geomsim::detail {

class ClassOrder;

constexpr double kLeadingExponent = 600.0;  // every row's largest term >= e^-600
constexpr double kLargestExponent = 700.0;  // every sum of terms <= e^700 (DBL_MAX ~ e^709.8)

// Whether one shift c serves every row (see above): 2 max|u_i|^2 / tau <= 1300 - log N.
bool shared_shift_fits(double max_squared_norm, double tau, Index num_points);

// The loss's components for points U in class order (`order`), and, when `gradient` is not
// null, the gradient in class order (d x N).
SpreadLossComponents streamed_spread_loss(const Matrix& U, const ClassOrder& order, double alpha, double tau,
                                          Matrix* gradient);

// The exact Hessian at U (in class order) without the N x N matrices of the stored one: a
// first pass keeps every row's two sums (O(N)); each product then runs two passes over the
// tiles (its rows' softmax means of dD, then the coefficients multiplied into V and U), in
// parallel over the tiles of a round, so it is the same for any number of threads. Directions
// and results are in the input order, as SpreadLoss::hessian()'s.
std::unique_ptr<HessianOperator> streamed_spread_hessian(Matrix U, std::shared_ptr<const ClassOrder> order,
                                                         double alpha, double tau);
// Bytes that operator keeps and uses per product with `threads` threads: O(N d).
double streamed_hessian_bytes(Index num_points, Index dim, int threads);

}  // namespace geomsim::detail
