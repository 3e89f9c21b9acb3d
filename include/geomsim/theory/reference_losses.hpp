#pragma once
// The two reference measures every family is compared against, for any K (seed 004, Thm 2):
//   collapse  every class on one vertex of the regular simplex: L(delta) = -(1-alpha)K/((K-1)tau)
//   uniform   every class uniform on S^{d-1}:                     L(sigma) = log W + (1-alpha)/tau
// (L(sigma) does not depend on K: both log-terms are log W and the alignment term is (1-alpha)/tau.)
namespace geomsim {

double collapsed_loss(int K, double alpha, double tau);

double uniform_loss(double alpha, double tau, int d);

}  // namespace geomsim
