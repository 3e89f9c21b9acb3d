#pragma once
// Seed 004, Appendix D.1: a construction for K = 3 that beats collapse above alpha = 3/5.
//
// The simplex v0 = (1, 0, 0), v1 = (-1/2, 0, sqrt3/2), v2 = (-1/2, 0, -sqrt3/2) and its
// image under R_theta, the rotation by theta in the (e0, e1) plane (e1 is orthogonal to
// the simplex). Class y is (delta_{v_y} + delta_{R_theta v_y}) / 2. The rotation is
// one-sided: v0 moves by theta, v1 and v2 only by their e0 component. With
// t = 1 - cos(theta) the squared distances are
//   |v0 - R v1|^2 = |v0 - R v2|^2 = ... = 3 - t,   |v1 - R v2|^2 = 3 + t/2,
//   |v0 - R v0|^2 = 2t,   |v1 - R v1|^2 = |v2 - R v2|^2 = t/2,   |v_i - v_j|^2 = 3.
//
// To first order in t, dL/dt = ((3/8)(1 - alpha) - alpha/4) / tau, which is negative
// (rotating beats collapse) exactly when alpha > 3/5.
namespace geomsim {

// The asymptotic L_spread of the construction (eq. 33).
double three_class_rotation_loss(double theta, double alpha, double tau);

// dL/dt at t = 1 - cos(theta) = 0: ((3/8)(1 - alpha) - alpha/4) / tau.
double three_class_rotation_slope(double alpha, double tau);

// The alpha above which the rotation beats collapse: 3/5.
constexpr double kThreeClassThreshold = 3.0 / 5.0;

}  // namespace geomsim
