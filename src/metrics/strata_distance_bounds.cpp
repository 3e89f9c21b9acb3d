#include "geomsim/metrics/strata_distance_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/manifold/point_magnitude.hpp"
#include "geomsim/metrics/class_means.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

// log sum_j exp(v_j) - v_t, without overflow, and without cancellation when v_t is the
// largest (then it is log1p of the others' exp(v_j - v_t), however small the result).
double log_sum_exp_minus(const Eigen::Ref<const Vector>& v, Index t) {
  const double top = v.maxCoeff();
  if (v(t) == top) {
    double rest = 0.0;
    for (Index j = 0; j < v.size(); ++j) rest += j == t ? 0.0 : std::exp(v(j) - top);
    return std::log1p(rest);
  }
  return (top - v(t)) + std::log((v.array() - top).exp().sum());
}

// The average over the points of -f(x)^T W_t(x) + log sum_j exp(f(x)^T W_j), in blocks of
// columns so that the scores never hold more than J x 4096 numbers.
double mean_cross_entropy(const PointsRef& points, const Matrix& weights, const std::vector<int>& target) {
  constexpr Index kBlock = 4096;
  double total = 0.0;
  Matrix scores;
  for (Index start = 0; start < points.cols(); start += kBlock) {
    const Index width = std::min(kBlock, points.cols() - start);
    scores.noalias() = weights.transpose() * points.middleCols(start, width);
    for (Index i = 0; i < width; ++i) {
      total += log_sum_exp_minus(scores.col(i), target[static_cast<std::size_t>(start + i)]);
    }
  }
  return total / static_cast<double>(points.cols());
}

// The mean cross-entropy of the logits lambda f(x)^T W_j and its slope in lambda,
// E[sum_j softmax_j f(x)^T W_j - f(x)^T W_t(x)] = E[sum_{j != t} softmax_j (f(x)^T W_j - f(x)^T W_t)],
// summed in that form so that a slope of 1e-300 stays negative rather than 1 - 1 = 0; in blocks
// as mean_cross_entropy.
struct ScaledLoss {
  double value = 0.0;
  double slope = 0.0;
};

ScaledLoss scaled_cross_entropy(const PointsRef& points, const Matrix& weights, const std::vector<int>& target, double lambda) {
  constexpr Index kBlock = 4096;
  ScaledLoss out;
  Matrix scores;
  for (Index start = 0; start < points.cols(); start += kBlock) {
    const Index width = std::min(kBlock, points.cols() - start);
    scores.noalias() = weights.transpose() * points.middleCols(start, width);
    for (Index i = 0; i < width; ++i) {
      const Index t = target[static_cast<std::size_t>(start + i)];
      const Vector scaled = lambda * scores.col(i);
      const double above_target = log_sum_exp_minus(scaled, t);
      const Vector softmax = (scaled.array() - (scaled(t) + above_target)).exp().matrix();
      out.value += above_target;
      for (Index j = 0; j < scores.rows(); ++j) {
        if (j != t) out.slope += softmax(j) * (scores(j, i) - scores(t, i));
      }
    }
  }
  out.value /= static_cast<double>(points.cols());
  out.slope /= static_cast<double>(points.cols());
  return out;
}

// The lambda in [0, kMaxMeanClassifierScale] minimising the convex scaled_cross_entropy: 0 where
// its slope is not negative there, else the root of its increasing slope (bisection), or the cap
// where the slope stays negative or the loss reaches 0 (separated points: the loss falls towards 0
// as lambda grows, and its slope underflows).
void best_scale(const PointsRef& points, const Matrix& weights, const std::vector<int>& target, double& scale, double& loss) {
  const auto at = [&](double lambda) { return scaled_cross_entropy(points, weights, target, lambda); };
  if (at(0.0).slope >= 0.0) {
    scale = 0.0;
    loss = at(0.0).value;
    return;
  }
  double lo = 0.0, hi = 1.0;
  for (ScaledLoss h = at(hi); h.slope < 0.0 || h.value == 0.0; h = at(hi)) {
    lo = hi;
    hi *= 2.0;
    if (hi > kMaxMeanClassifierScale || h.value == 0.0) {
      scale = kMaxMeanClassifierScale;
      loss = at(scale).value;
      return;
    }
  }
  for (int k = 0; k < 100 && hi - lo > 1e-12 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (at(mid).slope < 0.0 ? lo : hi) = mid;
  }
  scale = 0.5 * (lo + hi);
  loss = at(scale).value;
}

// The lemma's A (C x J), its targets t(z) and the weights p(z).
struct LemmaTerms {
  Matrix A;
  std::vector<int> target;
  const Vector* weight = nullptr;
};

LemmaTerms lemma_terms(const StrataMeanClassifier& s, StrataTask task, StrataDistanceForm form) {
  const int C = s.num_strata();
  Matrix c(C, C);
  if (form == StrataDistanceForm::exact) {
    c.noalias() = s.stratum_means.transpose() * s.stratum_means;
  } else {
    c = (1.0 - 0.5 * s.distances.array().square()).matrix();
  }
  LemmaTerms t;
  t.weight = &s.stratum_probability;
  if (task == StrataTask::coarse_to_fine) {
    t.A = std::move(c);
    for (int z = 0; z < C; ++z) t.target.push_back(z);
    return t;
  }
  // A_zy = sum_{z' in S_y} p(z'|y) c_zz'.
  const int K = s.num_classes();
  Vector class_probability = Vector::Zero(K);
  for (int z = 0; z < C; ++z) class_probability(s.stratum_class[static_cast<std::size_t>(z)]) += s.stratum_probability(z);
  t.A = Matrix::Zero(C, K);
  for (int zp = 0; zp < C; ++zp) {
    const int y = s.stratum_class[static_cast<std::size_t>(zp)];
    t.A.col(y) += (s.stratum_probability(zp) / class_probability(y)) * c.col(zp);
  }
  t.target = s.stratum_class;
  return t;
}

// B(lambda) and its slope dB/dlambda.
struct BoundValue {
  double value = 0.0;
  double slope = 0.0;
};

// B(lambda) = E_z[(LSE_j(lambda A_zj) - lambda A_zt) + (lambda - 1) A_zt], the first part
// without cancellation (B is as small as the loss it bounds, which can be 1e-8 and less).
BoundValue bound_value(const LemmaTerms& t, double lambda) {
  BoundValue b;
  for (Index z = 0; z < t.A.rows(); ++z) {
    const Vector scaled = lambda * t.A.row(z).transpose();
    const Index target = t.target[static_cast<std::size_t>(z)];
    const double above_target = log_sum_exp_minus(scaled, target);
    const Vector softmax = (scaled.array() - (scaled(target) + above_target)).exp().matrix();
    const double p = (*t.weight)(z);
    b.value += p * (above_target + (lambda - 1.0) * t.A(z, target));
    b.slope += p * softmax.dot(t.A.row(z).transpose());
  }
  return b;
}

}  // namespace

StrataMeanClassifier strata_mean_classifier(const PointsRef& points, const std::vector<int>& labels,
                                            const std::vector<int>& subclass_labels) {
  const Index n = points.cols();
  if (n == 0 || points.rows() == 0) throw InvalidArgument("points", "must hold at least one point of dimension >= 1");
  require_moderate_points(points, "points");
  if (static_cast<Index>(labels.size()) != n) {
    throw InvalidArgument("labels", "must have one entry per point (" + std::to_string(n) + "), got " + std::to_string(labels.size()));
  }
  if (static_cast<Index>(subclass_labels.size()) != n) {
    throw InvalidArgument("subclass_labels",
                          "must have one entry per point (" + std::to_string(n) + "), got " + std::to_string(subclass_labels.size()));
  }
  const int C = count_label_ids(subclass_labels, "subclass_labels");
  count_label_ids(labels, "labels");
  StrataMeanClassifier s;
  s.stratum_class.assign(static_cast<std::size_t>(C), -1);
  for (Index i = 0; i < n; ++i) {
    const int z = subclass_labels[static_cast<std::size_t>(i)], y = labels[static_cast<std::size_t>(i)];
    int& owner = s.stratum_class[static_cast<std::size_t>(z)];
    if (owner >= 0 && owner != y) {
      throw InvalidArgument("subclass_labels", "subclass " + std::to_string(z) + " spans classes " + std::to_string(owner) +
                                                   " and " + std::to_string(y) + ": each stratum lies inside one class");
    }
    owner = y;
  }
  const ClassMeans strata = class_means(points, subclass_labels);
  const ClassMeans classes = class_means(points, labels);
  s.stratum_means = strata.means;
  s.class_means = classes.means;
  s.stratum_probability.resize(C);
  for (int z = 0; z < C; ++z) {
    s.stratum_probability(z) = static_cast<double>(strata.counts[static_cast<std::size_t>(z)]) / static_cast<double>(n);
  }
  s.distances.resize(C, C);
  for (int z = 0; z < C; ++z) {
    for (int zp = 0; zp < C; ++zp) s.distances(z, zp) = (s.stratum_means.col(z) - s.stratum_means.col(zp)).norm();
  }
  s.transfer_loss = mean_cross_entropy(points, s.stratum_means, subclass_labels);
  s.original_loss = mean_cross_entropy(points, s.class_means, labels);
  best_scale(points, s.stratum_means, subclass_labels, s.transfer_best_scale, s.transfer_best_loss);
  best_scale(points, s.class_means, labels, s.original_best_scale, s.original_best_loss);
  return s;
}

double strata_distance_bound(const StrataMeanClassifier& s, StrataTask task, StrataDistanceForm form, double lambda) {
  require_non_negative("lambda", lambda);
  return bound_value(lemma_terms(s, task, form), lambda).value;
}

std::optional<double> smallest_strata_lambda(const StrataMeanClassifier& s, StrataTask task, StrataDistanceForm form) {
  const LemmaTerms t = lemma_terms(s, task, form);
  const double loss = task == StrataTask::coarse_to_fine ? s.transfer_loss : s.original_loss;
  const auto holds = [&](double lambda) { return bound_value(t, lambda).value >= loss; };
  // B is convex in lambda; its slope tends to sum_z p(z) max_j A_zj.
  double final_slope = 0.0;
  for (Index z = 0; z < t.A.rows(); ++z) final_slope += (*t.weight)(z) * t.A.row(z).maxCoeff();
  if (final_slope < 0.0) return std::nullopt;  // B -> -infinity
  if (final_slope == 0.0) {
    // B never increases (a convex function whose slope tends to 0), so it holds from 0 on
    // exactly when it holds in the limit, where log sum_j exp(lambda A_zj) = lambda max_j A_zj
    // + log(the number of j at the max) + o(1) and the lambda terms cancel.
    double limit = 0.0;
    for (Index z = 0; z < t.A.rows(); ++z) {
      const double top = t.A.row(z).maxCoeff();
      const double ties = static_cast<double>((t.A.row(z).array() == top).count());
      limit += (*t.weight)(z) * (std::log(ties) - t.A(z, t.target[static_cast<std::size_t>(z)]));
    }
    return limit >= loss ? std::optional<double>(0.0) : std::nullopt;
  }
  // A lambda from which B holds and rises (so holds for every larger one).
  double hi = 1.0;
  while (true) {
    const BoundValue b = bound_value(t, hi);
    if (b.value >= loss && b.slope >= 0.0) break;
    hi *= 2.0;
    if (hi > 1e300) return std::nullopt;
  }
  // B's minimum on [0, hi]: 0, or the root of its increasing slope. Where B holds there, it
  // holds everywhere.
  double minimiser = 0.0;
  if (bound_value(t, 0.0).slope < 0.0) {
    double lo = 0.0, top = hi;
    for (int k = 0; k < 200 && top - lo > 1e-15 * top; ++k) {
      const double mid = 0.5 * (lo + top);
      (bound_value(t, mid).slope < 0.0 ? lo : top) = mid;
    }
    minimiser = top;
  }
  if (holds(minimiser)) return 0.0;
  // B rises on [minimiser, hi] from below the loss to above it: bisect for the crossing.
  double lo = minimiser;
  for (int k = 0; k < 200 && hi - lo > 1e-13 * hi; ++k) {
    const double mid = 0.5 * (lo + hi);
    (holds(mid) ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace geomsim
