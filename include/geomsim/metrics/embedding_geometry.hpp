#pragma once
// The Section 4 report of seed 004 on any embeddings (a trained encoder's outputs, a user's
// saved embeddings, simulated points): s_f(y), sigma_f(z), their ratio, and Theorem 3 with the
// mean classifier, from measure_subclass_geometry. One function for every caller (the training
// commands, `geomsim measure --embeddings`, the Python module), so they report the same numbers.
//
// Theorem 3 and delta_f are reported only for classes with exactly two subclasses. Seed 004's
// data model (section 2.1) "assume[s] that there are two subclasses for each label k, e.g.
// |Sk| = 2", and coarse-to-fine transfer there says "Fix a y and suppose that Sy = {z, z'}";
// delta_f <= D(z, z') rests on s_f(y) being the spread of z and z' alone. For a class with one
// subclass or three and more, the report says so instead (theorem3_classes).
#include <optional>
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct EmbeddingGeometry {
  double spread = 0.0;                 // s_f(y), mean over classes
  double subclass_sigma = 0.0;         // sigma_f(z), mean over subclasses
  // sigma_f(z) / s_f(y), mean over the subclasses of classes with s_f(y) > 0, and its maximum
  // (section 4.3.4 reports the maximum); empty when every class is collapsed to a point (a
  // constant encoder), where the ratio is 0/0.
  std::optional<double> sigma_over_spread;
  std::optional<double> sigma_over_spread_max;
  // Theorem 3 at margin gamma over the ordered pairs (z, z') of the two subclasses of a class:
  double gamma = 0.0;
  int pairs = 0;
  std::optional<double> margin_error;  // the gamma-margin error L_gamma(z) vs z' of the mean classifier, mean over pairs
  int bounded_pairs = 0;               // pairs where the bound is not vacuous (r_f > 2 log gamma)
  // Over the bounded pairs: the mean of the leading term sigma_f(z) / sqrt(r_f - 2 log gamma)
  // (the sampling term is left out), and how many have L_gamma(z) <= that term.
  std::optional<double> theorem3_bound;
  int bound_holds = 0;
  // Theorem 3's boundary condition r_f - 2 log gamma >= its right-hand side (theorem3_boundary,
  // at delta = kTheorem3Delta, d the embedding dimension, m the labelled points of each
  // subclass in the set the mean classifier is fit on): the pairs where it holds, i.e. where
  // the bound is in force.
  int boundary_holds = 0;
  // The same per class and per subclass.
  std::vector<double> class_spread;  // s_f(y), indexed by class
  struct Subclass {
    int subclass = 0, label = 0;
    long long count = 0;
    double sigma = 0.0;
    std::optional<double> sigma_over_spread;  // empty when its class has s_f(y) = 0
  };
  std::vector<Subclass> subclasses;
  // Whether Theorem 3 applies to each class, and why not when it does not.
  struct ClassTheorem3 {
    int label = 0;
    int subclasses = 0;
    bool applies = false;
    std::string reason;  // empty when it applies
  };
  std::vector<ClassTheorem3> theorem3_classes;
  struct Pair {
    int z = 0, z_prime = 0;
    double margin_error = 0.0;    // L_gamma(z) vs z'
    double delta = 0.0;           // delta_f(z, z') with the corrected 2 p p' denominator
    double r = 0.0;               // r_f(z, z') with the corrected delta
    std::optional<double> bound;  // the leading term; empty when vacuous
    double boundary = 0.0;        // the boundary condition's right-hand side
    bool boundary_holds = false;  // r - 2 log gamma >= boundary
  };
  std::vector<Pair> pair_details;
  // Seed 000 §4.3.1, Lemmas 1 and 2 (metrics/strata_distance_bounds.hpp), with the mean
  // classifier of the strata (subclasses) and of the classes fit on these points: its exact
  // errors, the smallest lambda from which each lemma's bound holds in the exact form and as
  // printed (empty where none does), and E_z |m_z|^2, which the printed form takes to be 1.
  struct StrataLemmas {
    double transfer_loss = 0.0;  // L(x, z, f): coarse-to-fine, over the subclasses
    double original_loss = 0.0;  // L(x, y, f): the original task, over the classes
    // Both at the classifier's best scale lambda (logits lambda f(x)^T W; strata_distance_bounds.hpp).
    double transfer_best_loss = 0.0, transfer_best_scale = 1.0;
    double original_best_loss = 0.0, original_best_scale = 1.0;
    std::optional<double> lemma1_lambda, lemma2_lambda;
    std::optional<double> lemma1_lambda_printed, lemma2_lambda_printed;
    double mean_norm_squared = 0.0;
  };
  StrataLemmas strata;
};

// The delta of Theorem 3's "with probability 1 - delta" at which its boundary condition is
// evaluated (the paper leaves it free).
inline constexpr double kTheorem3Delta = 0.05;

// Throws InvalidArgument("gamma") unless gamma is a finite number > 1 (Theorem 3's margin).
void require_margin_gamma(double gamma);

// `points` d x n; labels (the classes) in 0..K-1 and subclass_labels in 0..Z-1, each subclass
// inside one class, every id present. The mean classifier W_z is fit on (reference,
// reference_subclasses) when given (the labelled set D_s of coarse-to-fine transfer), else on
// the points themselves. gamma > 1.
EmbeddingGeometry measure_embedding_geometry(const Matrix& points, const std::vector<int>& labels,
                                             const std::vector<int>& subclass_labels, double gamma = 1.1,
                                             const Matrix* reference = nullptr,
                                             const std::vector<int>* reference_subclasses = nullptr);

}  // namespace geomsim
