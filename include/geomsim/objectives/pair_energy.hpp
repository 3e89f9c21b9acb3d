#pragma once
// Pair-potential energies on the sphere, E(U) = sum_{i<j} phi(|u_i - u_j|^2): objectives
// with known minimisers, used to validate the solvers.
//
//   RieszEnergy(s):    phi(D) = D^{-s/2} (s > 0; s = 1 is the Thomson problem),
//                      phi(D) = -log(D)/2 for s = 0 (the logarithmic energy).
//   GaussianEnergy(t): phi(D) = exp(-t D), t > 0. Its minimisers for every t are the
//                      universally optimal configurations of Cohn and Kumar (the regular
//                      simplex, the cross-polytope, the icosahedron, ...).
//
// Coincident points give an infinite Riesz energy; evaluation then returns +inf.
//
// Evaluation works on blocks of kBlock points (pairwise_kernels.hpp): a block's squared
// distances to all N points come from one GEMM, the potential is applied to whole columns
// (vectorised exp and log), and the gradient 2 (u_i sum_j phi'_ij - sum_j phi'_ij u_j)
// of the block is a second GEMM. Memory: kBlock x N doubles per thread (2 MB per thread
// at N = 10^3, 20 MB at N = 10^4); no N x N matrix. Blocks are fixed and each is one
// thread's, so results do not depend on the thread count.
#include "geomsim/objectives/objective.hpp"

namespace geomsim {

class PairEnergy : public Objective {
 public:
  Index num_points() const override { return count_; }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override;
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const override;

 protected:
  explicit PairEnergy(Index count);
  // Replaces every squared distance D in `values` by phi(D) and, when `derivatives` is
  // non-null, writes phi'(D) there (same length).
  virtual void potential(Eigen::Ref<Vector> values, Vector* derivatives) const = 0;

 private:
  double compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const;
  Index count_;
};

class RieszEnergy final : public PairEnergy {
 public:
  // Throws InvalidArgument("s") unless s >= 0 and finite, ("N") unless N >= 2.
  RieszEnergy(Index count, double s);
  std::string name() const override { return "riesz_energy"; }

 private:
  void potential(Eigen::Ref<Vector> values, Vector* derivatives) const override;
  double s_;
};

class GaussianEnergy final : public PairEnergy {
 public:
  // Throws InvalidArgument("t") unless t > 0 and finite, ("N") unless N >= 2.
  GaussianEnergy(Index count, double t);
  std::string name() const override { return "gaussian_energy"; }

 private:
  void potential(Eigen::Ref<Vector> values, Vector* derivatives) const override;
  double t_;
};

}  // namespace geomsim
