#pragma once
// The Section 4 geometry of seed 004: how spread a class is and how tightly its subclasses
// cluster, measured on any embeddings (simulated points or a trained encoder's outputs).
//
//   s_f(y)      = E_{x in y} |f(x) - E_y f|                   class spread
//   sigma_f(z)  = E_{x in z} |f(x) - E_z f|                   subclass clustering
//   Var_f[z]    = E_{x in z} |f(x) - E_z f|^2
//   sigma_z     = E_{x, x' in z} |f(x) - f(x')|                the input-space spread of Lemmas 1-3
//   D(z, z')    = E_{x in z, x' in z'} |f(x) - f(x')|         separation
//   delta_f     = (s_f(y) - p^2 sigma_f(z) - p'^2 sigma_f(z')) / (2 p p'),  p = p(z|y), p' = p(z'|y)
//   c(z, z')    = min_{x in z} |f(x) - E_{z'} f| / D(z, z')   (Theorem 3's assumption, estimated)
//   r_f         = c^2 delta_f^2 - |Var_f[z] - Var_f[z']|
//
// Erratum (seed 004 section 4.2, and the proof of Theorem 3 in Appendix C.2): the paper
// divides by p p', not 2 p p'. The bound delta_f is meant to satisfy, delta_f <= D(z, z'),
// follows from
//   s_f(y) <= p^2 sigma(z) + p'^2 sigma(z') + 2 p p' D(z, z')
// (triangle inequality, then Jensen), so the factor is 2 p p'. With the paper's factor,
// two tight subclasses give delta = 2D, violating it. Both values are reported.
// The inequality needs the class to consist of z and z' alone (Theorem 3's setting). With
// three or more subclasses s_f(y) also holds the others' spread, and delta_f is reported
// for every pair but is no longer a lower bound on D(z, z').
#include <optional>
#include <vector>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/metrics/class_spread.hpp"

namespace geomsim {

struct SubclassStats {
  int subclass = 0;
  int label = 0;            // the class it belongs to
  Index count = 0;
  double p_given_class = 0; // p(z|y), the empirical fraction of its class
  Vector mean;              // E_z f
  double sigma = 0.0;       // sigma_f(z)
  double variance = 0.0;    // Var_f[z]
  // E_{x, x' in z} |f(x) - f(x')| over all ordered pairs (x = x' included). Measured on the
  // inputs this is the sigma_z of Lemmas 1-3; sigma_f(z) <= it by Jensen.
  double mean_pairwise_distance = 0.0;
  double sigma_over_spread = 0.0;  // sigma_f(z) / s_f(y), the ratio Theorem 3 scales with
};

struct SubclassPair {
  int z = 0, z_prime = 0;   // two subclasses of one class
  double separation = 0.0;  // D(z, z')
  double delta = 0.0;       // delta_f with the corrected 2 p p' denominator
  double delta_paper = 0.0; // delta_f as printed (p p'), = 2 delta
  double c = 0.0;           // estimated c(z, z')
  double r = 0.0;           // r_f(z, z') with the corrected delta
};

struct SubclassGeometry {
  ClassSpread spread;                  // s_f(y) per class
  std::vector<SubclassStats> subclasses;  // indexed by subclass id
  std::vector<SubclassPair> pairs;     // every ordered pair (z, z') within a class, z != z'
};

// `points` d x n; labels in 0..K-1; subclass_labels in 0..Z-1, each subclass inside
// one class. Throws InvalidArgument on shape or labelling errors.
SubclassGeometry measure_subclass_geometry(const Matrix& points, const std::vector<int>& labels,
                                           const std::vector<int>& subclass_labels);

// The mean classifier of coarse-to-fine transfer: W_z = mean of f over the subclass z
// in a labelled set D_s (seed 004, Section 2.1).
class MeanClassifier {
 public:
  MeanClassifier(const Matrix& points, const std::vector<int>& subclass_labels);
  // The gamma-margin error L_gamma(z) against z' (eq. 1): the fraction of the points of
  // z with p(z|f(x)) < gamma p(z'|f(x)), i.e. (W_z - W_z') . f(x) < log gamma, with the
  // softmax over W . f(x). Requires gamma > 1.
  double margin_error(const Matrix& points, const std::vector<int>& subclass_labels, int z, int z_prime,
                      double gamma) const;
  const Matrix& weights() const { return weights_; }  // column z is W_z

 private:
  Matrix weights_;
};

// Theorem 3's leading term sigma_f(z) / sqrt(r_f - 2 log gamma); nullopt when
// r_f - 2 log gamma <= 0 (the bound is vacuous). The O(((d log(d/delta))/m)^{1/4})
// sampling term is not included.
std::optional<double> theorem3_bound(double sigma_z, double r, double gamma);

// Theorem 3's boundary condition, "under the boundary condition that r_f(z, z') - 2 log gamma
// >= 16 sqrt(2d log(8d/delta) / (m_z ^ m_z')) + 2d log(8d/delta) / m_z" (seed 004 §4.2): its
// right-hand side, for embeddings in R^d, confidence 1 - delta and m_z, m_z' labelled points
// of the two subclasses. The bound is only claimed where r_f - 2 log gamma reaches it.
// Throws InvalidArgument for d < 1, delta outside (0, 1) or m < 1.
double theorem3_boundary(int d, double delta, double m_z, double m_z_prime);

// Theorem 1's lower bound on SupCon's coarse-to-fine error,
//   1 - delta(n_z) - delta(n_z') - xi(min(m_z, m_z')),
//   delta(n) = d exp(-n/(32 d^2) (log gamma - 8 R_n)^2),  xi(m) = 4 d exp(-m log^2(gamma)/(32 d)).
// Requires log gamma >= 8 max(R_nz, R_nz'). May be negative (then it says nothing).
double theorem1_lower_bound(double n_z, double n_z_prime, double m, int d, double gamma, double rademacher_z,
                            double rademacher_z_prime);

}  // namespace geomsim
