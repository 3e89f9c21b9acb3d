#include "geomsim/metrics/embedding_geometry.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "geomsim/manifold/point_magnitude.hpp"
#include "geomsim/metrics/strata_distance_bounds.hpp"
#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

void require_margin_gamma(double gamma) {
  if (!(gamma > 1.0) || !std::isfinite(gamma)) throw InvalidArgument("gamma", "must be a finite number > 1, got " + format_number(gamma));
}

EmbeddingGeometry measure_embedding_geometry(const Matrix& points, const std::vector<int>& labels,
                                             const std::vector<int>& subclass_labels, double gamma, const Matrix* reference,
                                             const std::vector<int>* reference_subclasses) {
  require_margin_gamma(gamma);
  require_moderate_points(points, "embeddings");
  if (reference) require_moderate_points(*reference, "reference");
  if ((reference == nullptr) != (reference_subclasses == nullptr)) {
    throw InvalidArgument("reference", "needs both the reference points and their subclass labels");
  }
  if (reference && reference->rows() != points.rows()) {
    throw InvalidArgument("reference", "has dimension " + std::to_string(reference->rows()) + ", the points " + std::to_string(points.rows()));
  }
  const SubclassGeometry g = measure_subclass_geometry(points, labels, subclass_labels);
  EmbeddingGeometry out;
  out.spread = g.spread.mean;
  out.class_spread = g.spread.per_class;
  std::vector<int> subclasses_of(g.spread.per_class.size(), 0);
  double ratio_sum = 0.0;
  int ratios = 0;
  for (const auto& s : g.subclasses) {
    out.subclass_sigma += s.sigma / static_cast<double>(g.subclasses.size());
    std::optional<double> ratio;
    if (g.spread.per_class[static_cast<std::size_t>(s.label)] > 0.0) {  // else 0/0: the class is one point
      ratio = s.sigma_over_spread;
      ratio_sum += *ratio;
      ++ratios;
      out.sigma_over_spread_max = std::max(out.sigma_over_spread_max.value_or(*ratio), *ratio);
    }
    out.subclasses.push_back({s.subclass, s.label, static_cast<long long>(s.count), s.sigma, ratio});
    ++subclasses_of[static_cast<std::size_t>(s.label)];
  }
  if (ratios > 0) out.sigma_over_spread = ratio_sum / ratios;
  for (std::size_t y = 0; y < subclasses_of.size(); ++y) {
    EmbeddingGeometry::ClassTheorem3 c;
    c.label = static_cast<int>(y);
    c.subclasses = subclasses_of[y];
    c.applies = c.subclasses == 2;
    if (c.subclasses < 2) {
      c.reason = "one subclass: there is no pair (z, z') to separate";
    } else if (c.subclasses > 2) {
      c.reason = std::to_string(c.subclasses) +
                 " subclasses: Theorem 3's delta_f needs exactly two (section 2.1, |S_y| = 2), since s_f(y) then holds "
                 "the other subclasses' spread too";
    }
    out.theorem3_classes.push_back(c);
  }
  const MeanClassifier classifier = reference ? MeanClassifier(*reference, *reference_subclasses) : MeanClassifier(points, subclass_labels);
  out.gamma = gamma;
  // m_z: the labelled points of each subclass in the set the mean classifier is fit on.
  std::map<int, double> labelled;
  for (int z : reference ? *reference_subclasses : subclass_labels) labelled[z] += 1.0;
  const int d = static_cast<int>(points.rows());
  double bound_sum = 0.0, error_sum = 0.0;
  for (const auto& pair : g.pairs) {
    const int y = g.subclasses[static_cast<std::size_t>(pair.z)].label;
    if (!out.theorem3_classes[static_cast<std::size_t>(y)].applies) continue;
    const double error = classifier.margin_error(points, subclass_labels, pair.z, pair.z_prime, gamma);
    error_sum += error;
    ++out.pairs;
    const auto bound = theorem3_bound(g.subclasses[static_cast<std::size_t>(pair.z)].sigma, pair.r, gamma);
    if (bound) {
      ++out.bounded_pairs;
      bound_sum += *bound;
      if (error <= *bound) ++out.bound_holds;
    }
    const double boundary = theorem3_boundary(d, kTheorem3Delta, std::max(1.0, labelled[pair.z]), std::max(1.0, labelled[pair.z_prime]));
    const bool in_force = pair.r - 2.0 * std::log(gamma) >= boundary;
    if (in_force) ++out.boundary_holds;
    out.pair_details.push_back({pair.z, pair.z_prime, error, pair.delta, pair.r, bound, boundary, in_force});
  }
  if (out.pairs > 0) out.margin_error = error_sum / out.pairs;
  if (out.bounded_pairs > 0) out.theorem3_bound = bound_sum / out.bounded_pairs;
  const StrataMeanClassifier strata = strata_mean_classifier(points, labels, subclass_labels);
  out.strata.transfer_loss = strata.transfer_loss;
  out.strata.original_loss = strata.original_loss;
  out.strata.transfer_best_loss = strata.transfer_best_loss;
  out.strata.transfer_best_scale = strata.transfer_best_scale;
  out.strata.original_best_loss = strata.original_best_loss;
  out.strata.original_best_scale = strata.original_best_scale;
  out.strata.lemma1_lambda = smallest_strata_lambda(strata, StrataTask::coarse_to_fine, StrataDistanceForm::exact);
  out.strata.lemma2_lambda = smallest_strata_lambda(strata, StrataTask::original, StrataDistanceForm::exact);
  out.strata.lemma1_lambda_printed = smallest_strata_lambda(strata, StrataTask::coarse_to_fine, StrataDistanceForm::printed);
  out.strata.lemma2_lambda_printed = smallest_strata_lambda(strata, StrataTask::original, StrataDistanceForm::printed);
  out.strata.mean_norm_squared = strata.stratum_probability.dot(strata.stratum_means.colwise().squaredNorm().transpose());
  return out;
}

}  // namespace geomsim
