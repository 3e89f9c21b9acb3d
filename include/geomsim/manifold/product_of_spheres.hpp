#pragma once
// The manifold (S^{d-1})^N, the "oblique manifold" of Manopt: N unit vectors, the columns
// of a d x N matrix. It owns the geometry, so solvers stay manifold-agnostic:
//   tangent space at U:  { V : u_i . v_i = 0 for every column i }
//   projection:          P_U(V) = V - U diag(u_i . v_i)   (Euclidean -> Riemannian gradient)
//   retraction:          R_U(V) = normalise the columns of U + V
//   vector transport:    projection onto the new tangent space
#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// P_U(V), columnwise. Throws std::invalid_argument when U and V differ in shape.
Matrix project_to_tangent(const Matrix& U, const Matrix& V);
// V = P_U(V) in place (vector transport of a stored tangent vector, without an allocation).
void project_onto_tangent(const Matrix& U, Matrix& V);

// R_U(V): the columns of U + V scaled to unit length. Throws std::invalid_argument when U
// and V differ in shape.
Matrix retract(const Matrix& U, const Matrix& V);
// out = R_U(t V), reusing out's storage (a line search's trial points). Throws
// std::invalid_argument when U and V differ in shape.
void retract_step(const Matrix& U, double t, const Matrix& V, Matrix& out);
// d/dt f(R_U(t V)) from G, the Euclidean gradient of f at R_U(t V): the slope of a line
// search along the retraction, computed from gradients alone. Column i of R_U(t V) is
// w_i / |w_i| with w_i = u_i + t v_i, whose derivative is P_x(v_i) / |w_i|, so the slope is
// sum_i <P_x G_i, v_i> / |w_i|. Its error is that of G, not of differences of f: near a
// minimum, where f(R_U(t V)) - f(U) falls below f's rounding, it still has its leading digits.
// Throws std::invalid_argument when U, V and G differ in shape.
double retraction_slope(const Matrix& U, double t, const Matrix& V, const Matrix& G);

// <A, B> = sum of A .* B (the Frobenius inner product, the manifold's metric).
double inner(const Matrix& A, const Matrix& B);

}  // namespace geomsim
