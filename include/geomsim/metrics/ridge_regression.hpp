#pragma once
// Ridge regression with an intercept, and the mean squared error of its predictions: how much of
// a target a representation keeps linearly. Seed 002 scores fair contrastive learning by "the
// Mean Square Error (MSE) between the assigned background color and a color predicted by the
// learned representation" (Appendix B; §4.2: "the MSE score is higher the better since we would
// like the learned representations to contain less color information").
//
// For X (n x d, the representations) and Y (n x k, the targets), with column means x̄, ȳ and the
// centred Xc = X - 1 x̄ᵀ, Yc = Y - 1 ȳᵀ:
//   W = (Xcᵀ Xc + lambda n I)⁻¹ Xcᵀ Yc,   b = ȳ - Wᵀ x̄,   prediction(x) = Wᵀ x + b,
// lambda per sample (the penalty n lambda |W|², against the summed squared error), so that the
// same lambda fits a small and a large set alike. Solved by a Cholesky (LDLT) factorisation of
// the d x d system.
#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct RidgeFit {
  Matrix weights;    // d x k
  Vector intercept;  // k
};

// Throws InvalidArgument naming "representations" (no rows, or a non-finite value), "targets"
// (rows that differ from X's, or a non-finite value) and "lambda" (not > 0 or not finite).
RidgeFit fit_ridge(const Matrix& representations, const Matrix& targets, double lambda);

// The fit's predictions for the rows of `representations` (n x d): n x k.
Matrix ridge_predict(const RidgeFit& fit, const Matrix& representations);

// The mean over the n x k entries of (predicted - truth)²; throws InvalidArgument("targets")
// for shapes that differ or no entry.
double mean_squared_error(const Matrix& predicted, const Matrix& truth);

}  // namespace geomsim
