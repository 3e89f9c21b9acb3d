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
#include "geomsim/objective.hpp"

namespace geomsim {

class PairEnergy : public Objective {
 public:
  Index num_points() const override { return count_; }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override;
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const override;

 protected:
  explicit PairEnergy(Index count);
  // phi(D) and, when `derivative` is non-null, phi'(D).
  virtual double potential(double D, double* derivative) const = 0;

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
  double potential(double D, double* derivative) const override;
  double s_;
};

class GaussianEnergy final : public PairEnergy {
 public:
  // Throws InvalidArgument("t") unless t > 0 and finite, ("N") unless N >= 2.
  GaussianEnergy(Index count, double t);
  std::string name() const override { return "gaussian_energy"; }

 private:
  double potential(double D, double* derivative) const override;
  double t_;
};

}  // namespace geomsim
