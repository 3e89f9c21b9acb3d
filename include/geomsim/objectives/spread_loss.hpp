#pragma once
// The empirical asymptotic L_spread of seed 004, Appendix H, eq. (39)-(40):
//
//   L(U) = (1-a)/N  sum_i log( 1/|N(i)| sum_{j: h_j != h_i} exp(-|u_i-u_j|^2 / 2t) )   different-class
//        +   a/N    sum_i log( 1/|P(i)| sum_{j: h_j == h_i} exp(-|u_i-u_j|^2 / 2t) )   same-class (j = i included)
//        + (1-a) sum_y 1/(K n_y^2) sum_{i,j in y} |u_i-u_j|^2 / 2t                     alignment (ordered pairs)
//
// with a = alpha (weight of cNCE, seed 004's convention) and t = tau. For balanced
// classes |N(i)| = (K-1) n_y and |P(i)| = n_y, which is eq. (39)-(40) exactly; for
// unbalanced labels the normalisers are the actual class sizes.
//
// Every log-sum-exp is shifted by its largest term, so tau = 0.01 neither underflows
// nor produces NaN: the same-class sum contains exp(0) = 1 (j = i) and the
// different-class sum is shifted by its nearest negative.
#include <memory>
#include <vector>

#include "geomsim/objectives/objective.hpp"

namespace geomsim {
namespace detail {
class ClassOrder;
}

// The three terms of eq. (39)-(40), each already multiplied by its weight, so that
// different_class + same_class + alignment is the loss.
struct SpreadLossComponents {
  double different_class = 0.0;  // (1-alpha) * first sum
  double same_class = 0.0;       // alpha * second sum
  double alignment = 0.0;        // (1-alpha) * third sum
  double total() const { return different_class + same_class + alignment; }
};

// How the N^2 pairs are evaluated.
//   kStored:   one N x N matrix (8 N^2 bytes) of Gram entries, then coefficients; row by
//              row, each shifted by its own nearest negative. Fastest for small N.
//   kStreamed: tile by tile, twice (objectives/streamed_spread_loss.hpp), with no N x N
//              matrix: O(N d) memory and one 512 KiB tile per thread.
//   kAuto:     kStreamed from kStreamedFromPoints points on (kStreamedFromPointsFewDims
//              for d <= kFewDims), where it is as fast or faster; kStored below.
enum class PairEvaluation { kAuto, kStored, kStreamed };

class SpreadLoss final : public Objective {
 public:
  // Throws InvalidArgument for alpha outside [0, 1], tau <= 0, non-finite values, or
  // labels that are not 0..K-1 with K >= 2 and every class present.
  SpreadLoss(std::vector<int> labels, double alpha, double tau, PairEvaluation evaluation = PairEvaluation::kAuto);

  // kAuto's switch to the streamed path, measured by BM_ObjectiveAndGradient's stored-against-
  // streamed rows (tests/benchmarks/bench_core.cpp, K = 8, 2 threads). At d = 3 and 32 the
  // streamed path is faster from N = 1024 (2.25 against 3.25 ms; 3.27 against 4.30 ms), and
  // at N = 2000, d = 32, K = 10 (the large solve) 11 against 14 ms; at d = 128 from 2048
  // (24.7 against 35.9 ms), the stored one still ahead at 1800 (21 against 24 ms).
  static constexpr Index kStreamedFromPoints = 2048;
  static constexpr Index kStreamedFromPointsFewDims = 1024;
  static constexpr Index kFewDims = 32;
  // The path an evaluation of N points in d dimensions takes: `requested` unless it is kAuto.
  static PairEvaluation path_for(PairEvaluation requested, Index num_points, Index dim);
  // Bytes that building this loss and one evaluation with gradient allocate on the path
  // path_for(requested, N, d) takes, with `threads` OpenMP threads: a function of the sizes
  // alone, so that a caller can check it before allocating anything.
  static double evaluation_bytes(Index num_points, Index dim, double tau, PairEvaluation requested, int threads);
  // The path the exact Hessian (hessian()) takes: `requested` unless it is kAuto, which stores
  // its N x N matrices while they take at most kStoredHessianMaxBytes (N up to 3140 at d = 128,
  // 3234 at d = 32) and streams beyond, whatever path the evaluation takes. Measured (issue 32; portable build, one
  // thread, random points, K = 10; build + one product, ms):
  //   N 1000, d 32: stored 14.8 + 18.3, streamed 5.9 + 32.1
  //   N 2000, d 32: stored 65.5 + 85.5, streamed 21.8 + 119.2 (2 threads: 38.2 + 42.9, 11.0 + 62.1)
  //   N 3000, d 32: stored 182 + 221, streamed 44 + 251; d 128: stored 237 + 546, streamed 103 + 897
  // The stored product is the faster one (three GEMMs and no exponentials); its build costs
  // more, which the trust regions' truncated CG (tens of products per build) and the
  // certificate's Lanczos (one build, up to 300 products) repay.
  static constexpr double kStoredHessianMaxBytes = 2.56e8;
  static PairEvaluation hessian_path_for(PairEvaluation requested, Index num_points, Index dim);
  // Bytes the exact Hessian (hessian()) keeps and uses per product on the path
  // hessian_path_for(requested, N, d) takes, with `threads` OpenMP threads: O(N d) streamed,
  // 24 N^2 plus O(N d) stored (stored_hessian_bytes).
  static double hessian_bytes(Index num_points, Index dim, PairEvaluation requested = PairEvaluation::kAuto,
                              int threads = 1);
  static double stored_hessian_bytes(Index num_points, Index dim);

  Index num_points() const override { return static_cast<Index>(labels_.size()); }
  std::string name() const override { return "spread_loss"; }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override;
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const override;

  SpreadLossComponents components(const Eigen::Ref<const Matrix>& U) const;

  // The exact Hessian (see spread_loss_kernel.cpp for the formula), on hessian_path_for's path. Stored,
  // building it costs one evaluation and keeps two N x N matrices (16 N^2 bytes: 64 MB at
  // N = 2000); each apply() costs three N x N x d products and one more N x N matrix, no
  // exponentials. On the streamed path, and wherever those matrices would take more than half
  // the memory available, it streams (objectives/streamed_spread_loss.hpp): building it costs
  // one pass over the tiles, each apply() two, with O(N d) memory, the same for any number of
  // threads.
  std::unique_ptr<HessianOperator> hessian(const Eigen::Ref<const Matrix>& U) const override;

  double alpha() const { return alpha_; }
  double tau() const { return tau_; }
  int num_classes() const { return num_classes_; }
  const std::vector<int>& labels() const { return labels_; }

 private:
  // One pass computes the components and, when `gradient` is non-null, the gradient.
  SpreadLossComponents compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const;
  void check_shape(const Eigen::Ref<const Matrix>& U) const;

  std::vector<int> labels_;
  PairEvaluation evaluation_ = PairEvaluation::kAuto;
  std::shared_ptr<const detail::ClassOrder> class_order_;  // shared with the Hessians
  int num_classes_ = 0;
  // log n_y and log (N - n_y) per class: the log-means' constants, taken once, not per row.
  std::vector<double> log_positives_, log_negatives_;
  double alpha_ = 0.0;
  double tau_ = 1.0;
};

}  // namespace geomsim
