#pragma once
// Seed 000, §4.3.1, Lemmas 1 and 2: the mean classifier's generalisation error (its expected
// cross-entropy) on the coarse-to-fine task (x, z) and on the original task (x, y), bounded
// through the distances between the strata's mean embeddings, delta(z, z') = |E_z f - E_z' f|
// (§4.2). Strata z are the subclasses; S(z) is the class of z.
//
// The mean classifier: W_z = E_{x~P_z} f(x) = m_z for the strata, and W_y = E_{x|y} f(x) =
// sum_{z' in S_y} p(z'|y) m_z' for the classes. Its exact errors, on the given points:
//   L(x, z, f) = E_z E_{x~P_z}[ -f(x)^T W_z      + log sum_{z'} exp(f(x)^T W_z') ]
//   L(x, y, f) = E_z E_{x~P_z}[ -f(x)^T W_{S(z)} + log sum_{y'} exp(f(x)^T W_y') ]
// with p(z) the strata's frequencies among the points.
//
// Both lemmas have the form  B(lambda) = E_z[ -A_{z,t(z)} + log sum_j exp(lambda A_{zj}) ],
// t(z) = z (Lemma 1, j over the strata) or S(z) (Lemma 2, j over the classes), with
//   Lemma 1: A_zz' = c_zz'                       Lemma 2: A_zy = sum_{z' in S_y} p(z'|y) c_zz'
// and c_zz' one of two forms:
//   printed: c_zz' = 1 - delta(z, z')^2 / 2   (eqs. 4-6 as the seed prints them)
//   exact:   c_zz' = m_z^T m_z'               (the proofs' own step before the rewrite)
// The proofs (Appendix D.2) replace m_z^T m_z' by 1 - delta^2/2 and -f(x)^T W_z by -1, which
// holds only for unit-norm means, i.e. strata collapsed to one point each; theory/README.md
// records it. In the exact form, E_z E_x[-f(x)^T W_t(z)] = -E_z A_{z,t(z)} exactly, and
//   L - B(lambda) = E_z[ E_{x~P_z} LSE_j(f(x)^T W_j) - LSE_j(lambda m_z^T W_j) ],
// so at lambda = 1 the exact form is a LOWER bound (Jensen: log-sum-exp is convex), equal for
// collapsed strata. The lemmas' "there exists lambda > 0" is then the smallest lambda from which
// B stays above L: B is convex in lambda and grows without bound (A_zz > 0), so it exists
// unless every mean is 0; smallest_strata_lambda computes the smallest lambda from which it holds.
//
// The mean classifier at its best scale: §4.3.1 defines the classifier at scale 1 (logits
// f(x)^T W), where its cross-entropy grows as the means shorten, whatever their distances. The
// same classifier with logits lambda f(x)^T W, at the lambda >= 0 that minimises its mean
// cross-entropy on the given points (convex in lambda), removes that scale; *_best_scale is that
// lambda (capped at kMaxMeanClassifierScale where the points are separated and the loss falls
// to 0 as lambda grows) and *_best_loss the cross-entropy there.
#include <optional>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

inline constexpr double kMaxMeanClassifierScale = 1048576.0;  // 2^20

struct StrataMeanClassifier {
  Matrix stratum_means;              // d x C: column z is m_z = W_z
  Matrix class_means;                // d x K: column y is W_y
  Vector stratum_probability;        // p(z): the strata's frequencies
  std::vector<int> stratum_class;    // S(z)
  Matrix distances;                  // C x C: delta(z, z')
  double transfer_loss = 0.0;        // L(x, z, f), exact
  double original_loss = 0.0;        // L(x, y, f), exact
  double transfer_best_scale = 1.0;  // the lambda minimising L(x, z) with logits lambda f(x)^T W_z
  double transfer_best_loss = 0.0;   // L(x, z) there
  double original_best_scale = 1.0;  // the same for L(x, y)
  double original_best_loss = 0.0;
  int num_strata() const { return static_cast<int>(stratum_class.size()); }
  int num_classes() const { return static_cast<int>(class_means.cols()); }
};

// `points` d x n (columns, finite; unit norm is not required), labels in 0..K-1 and
// subclass_labels in 0..C-1, each id present and each subclass inside one class. Throws
// InvalidArgument("points" / "labels" / "subclass_labels") otherwise.
StrataMeanClassifier strata_mean_classifier(const PointsRef& points, const std::vector<int>& labels,
                                            const std::vector<int>& subclass_labels);

enum class StrataTask { coarse_to_fine, original };  // Lemma 1, Lemma 2
enum class StrataDistanceForm { printed, exact };

// B(lambda) of the lemma for `task` in `form`. Requires lambda >= 0 and finite.
double strata_distance_bound(const StrataMeanClassifier& s, StrataTask task, StrataDistanceForm form, double lambda);

// The smallest lambda >= 0 such that B(lambda') >= the exact loss for every lambda' >= lambda
// (to 1e-13 relative), or nullopt when there is none: B's slope tends to a negative number, so
// B falls below the loss for every large lambda. That happens as printed, for embeddings whose
// strata means are far from unit norm (1 - delta^2/2 << 0 for every class); the lemma's "there
// exists lambda" may then still hold for small lambda, which this function does not report.
std::optional<double> smallest_strata_lambda(const StrataMeanClassifier& s, StrataTask task, StrataDistanceForm form);

}  // namespace geomsim
