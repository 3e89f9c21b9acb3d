#pragma once
// A second-order certificate of a point set on the product of spheres, as Manopt's
// hessianspectrum gives the spectrum: the smallest eigenvalue of the exact Riemannian
// Hessian, by Lanczos, on the tangent directions left once the O(d) rotation modes are
// projected out, and what it says about the point:
//   local minimum  smallest eigenvalue > tolerance: strictly convex across the rotation orbit;
//   saddle         smallest eigenvalue < -tolerance: a descent direction of second order;
//   flat           within the tolerance: degenerate, second order cannot tell.
//
// Rotations. A loss of the pairwise distances alone is invariant under U -> Q U, Q in O(d),
// so at a critical point every direction A U (A skew-symmetric) is a zero eigenvector. Those
// d(d-1)/2 directions are projected out by least squares, min over skew A of |eta - A U|,
// whose normal equations A M + M A = 2 skew(eta U^T), M = U U^T, are solved in the
// eigenbasis of M (O(N d^2 + d^3) per product, no basis of N d-vectors is stored); rotations
// that fix the span of U (eigenvalue pairs of M summing to 0) move nothing and are dropped.
//
// The tolerance is relative: flat_tolerance times the largest |eigenvalue| Lanczos finds (the
// Hessian's scale), or the smallest Ritz value's residual when that is larger.
//
// A saddle is proven early. Every Ritz value is a Rayleigh quotient of a unit vector in the
// space certified, so the Hessian has an eigenvalue at or below the smallest one: once that
// is below -flat_tolerance times the scale (with the largest Ritz pair converged, so that the
// scale is known), the point is a saddle whatever further steps would find, and with
// stop_at_saddle Lanczos stops there. smallest_eigenvalue is then that upper bound
// (smallest_is_bound), not the smallest eigenvalue. At N = 2000, d = 32, alpha = 0.7 after a
// 30 s solve, the saddle was proven at step 82, where the step limit is 300 (issue 32).
#include <cstdint>
#include <string>

#include "geomsim/objectives/objective.hpp"

namespace geomsim {

enum class CriticalPointKind { kLocalMinimum, kSaddle, kFlat };
// "local minimum", "saddle", "flat".
std::string to_string(CriticalPointKind kind);

struct CertificateOptions {
  int max_steps = 300;           // Lanczos steps (full reorthogonalisation), at most the dimension
  double residual_tolerance = 1e-9;  // stop when the smallest Ritz pair's residual <= this * scale
  double flat_tolerance = 1e-6;  // |smallest| <= this * scale counts as zero (flat)
  std::uint64_t seed = 0;        // of Lanczos's random start
  bool stop_at_saddle = true;    // stop once a Ritz value proves a saddle (see above)
};

struct SecondOrderCertificate {
  CriticalPointKind kind = CriticalPointKind::kFlat;
  double smallest_eigenvalue = 0.0;  // of the Riemannian Hessian beyond the rotation modes
  double largest_eigenvalue = 0.0;   // the largest Ritz value (the scale)
  double residual = 0.0;             // |H x - lambda x| of the smallest Ritz pair, |x| = 1
  double tolerance = 0.0;            // the band counted as zero
  int steps = 0;                     // Lanczos steps taken
  int rotation_modes = 0;            // independent rotation directions projected out
  Index dimension = 0;               // tangent dimension N (d - 1) minus rotation_modes
  bool converged = false;            // the residual reached residual_tolerance * scale
  bool smallest_is_bound = false;    // stopped at a proven saddle: smallest_eigenvalue is an upper bound
  std::string describe() const;      // e.g. "local minimum: smallest Hessian eigenvalue 1.2e-3 ..."
};

// Certifies U (d x N; each column is normalised first) for `objective`, which must provide
// its exact Hessian (Objective::hessian). Throws InvalidArgument("certify") otherwise.
SecondOrderCertificate certify_second_order(const Objective& objective, const Matrix& U,
                                            const CertificateOptions& options = {});

// Bytes certify_second_order allocates beyond the objective's Hessian: the Lanczos basis
// (max_steps + 1 vectors of N d) and a few more d x N matrices.
double certificate_bytes(Index num_points, Index dim, const CertificateOptions& options = {});

}  // namespace geomsim
