#include "geomsim/experiments/measure_json.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/metrics/neural_collapse.hpp"
#include "geomsim/metrics/subgroup_recovery.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

using nlohmann::json;

namespace {

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

// Papyan et al.'s NC1 and NC2 of the classes given by `ids` (null when fewer than two).
json neural_collapse_json(const Matrix& points, const std::vector<int>& ids) {
  if (*std::max_element(ids.begin(), ids.end()) < 1) return nullptr;
  const NeuralCollapse nc = neural_collapse(points, ids);
  return {{"classes", nc.num_classes},
          {"between_rank", nc.between_rank},
          {"nc1", optional_json(nc.nc1)},
          {"nc2_equinorm", optional_json(nc.equinorm)},
          {"nc2_equiangularity", optional_json(nc.equiangularity)},
          {"nc2_max_cosine_deviation", optional_json(nc.max_cosine_deviation)},
          {"nc2_cosine_sd", optional_json(nc.cosine_sd)}};
}

}  // namespace

json geometry_json(const EmbeddingGeometry& g) {
  json out = {{"spread", g.spread},
              {"subclass_sigma", g.subclass_sigma},
              {"sigma_over_spread", optional_json(g.sigma_over_spread)},
              {"sigma_over_spread_max", optional_json(g.sigma_over_spread_max)},
              {"gamma", g.gamma},
              {"subclass_pairs", g.pairs},
              {"margin_error", optional_json(g.margin_error)},
              {"theorem3_bounded_pairs", g.bounded_pairs},
              {"theorem3_bound", optional_json(g.theorem3_bound)},
              {"theorem3_bound_holds", g.bound_holds},
              {"theorem3_delta", kTheorem3Delta},
              {"theorem3_boundary_holds", g.boundary_holds}};
  out["class_spread"] = g.class_spread;
  json classes = json::array();
  for (const auto& c : g.theorem3_classes) {
    classes.push_back({{"class", c.label}, {"subclasses", c.subclasses}, {"theorem3_applies", c.applies},
                       {"reason", c.applies ? json(nullptr) : json(c.reason)}});
  }
  out["theorem3_classes"] = classes;
  json subclasses = json::array();
  for (const auto& s : g.subclasses) {
    subclasses.push_back({{"subclass", s.subclass}, {"class", s.label}, {"count", s.count}, {"sigma", s.sigma},
                          {"sigma_over_spread", optional_json(s.sigma_over_spread)}});
  }
  out["subclasses"] = subclasses;
  json pairs = json::array();
  for (const auto& p : g.pair_details) {
    pairs.push_back({{"z", p.z}, {"z_prime", p.z_prime}, {"margin_error", p.margin_error}, {"delta", p.delta}, {"r", p.r},
                     {"theorem3_bound", optional_json(p.bound)}, {"theorem3_boundary", p.boundary},
                     {"theorem3_boundary_holds", p.boundary_holds}});
  }
  out["pairs"] = pairs;
  out["strata_lemmas"] = {{"transfer_loss", g.strata.transfer_loss},
                          {"original_loss", g.strata.original_loss},
                          {"transfer_best_loss", g.strata.transfer_best_loss},
                          {"transfer_best_scale", g.strata.transfer_best_scale},
                          {"original_best_loss", g.strata.original_best_loss},
                          {"original_best_scale", g.strata.original_best_scale},
                          {"lemma1_lambda", optional_json(g.strata.lemma1_lambda)},
                          {"lemma2_lambda", optional_json(g.strata.lemma2_lambda)},
                          {"lemma1_lambda_printed", optional_json(g.strata.lemma1_lambda_printed)},
                          {"lemma2_lambda_printed", optional_json(g.strata.lemma2_lambda_printed)},
                          {"mean_norm_squared", g.strata.mean_norm_squared}};
  return out;
}


json measured_geometry_json(const Matrix& points, const std::vector<int>& labels, const std::vector<int>& subclasses, double gamma,
                            std::uint64_t seed, const Matrix* reference, const std::vector<int>* reference_subclasses,
                            const std::vector<int>* predictions) {
  json out = geometry_json(measure_embedding_geometry(points, labels, subclasses, gamma, reference, reference_subclasses));
  out["subgroup_recovery_f1"] = subgroup_recovery(points, labels, subclasses, seed).macro_f1;
  // Wang & Isola (t = 2); alignment over every ordered same-class pair (no augmented pairs here).
  out["uniformity"] = points.cols() >= 2 ? json(uniformity(points)) : json(nullptr);
  const auto alignment_of = [&](const std::vector<int>& ids) {
    std::vector<int> size(static_cast<std::size_t>(*std::max_element(ids.begin(), ids.end())) + 1, 0);
    for (int id : ids) ++size[static_cast<std::size_t>(id)];
    return *std::max_element(size.begin(), size.end()) >= 2 ? json(same_class_alignment(points, ids)) : json(nullptr);
  };
  out["alignment_same_class"] = alignment_of(labels);
  out["alignment_same_subclass"] = alignment_of(subclasses);
  out["neural_collapse_classes"] = neural_collapse_json(points, labels);
  out["neural_collapse_subclasses"] = neural_collapse_json(points, subclasses);
  out["nc4_agreement"] = nullptr;
  if (predictions) {
    if (predictions->size() != labels.size()) {
      throw InvalidArgument("predictions", "holds " + std::to_string(predictions->size()) + " labels but there are " +
                                               std::to_string(labels.size()) + " embeddings");
    }
    out["nc4_agreement"] = nearest_class_mean_agreement(points, labels, *predictions);
  }
  return out;
}

json norm_json(const Matrix& points) {
  const Eigen::ArrayXd norms = points.colwise().norm().transpose().array();
  return {{"min", norms.minCoeff()}, {"max", norms.maxCoeff()}};
}

}  // namespace geomsim
