#pragma once
// What `geomsim measure` reports on a set of embeddings, whether a model made them from images or
// a user saved them, and what the Python module's measure() returns: one JSON layout for all of
// them, built here from the core's metrics alone (no libtorch), so that the numbers and keys agree
// to the last bit.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/metrics/embedding_geometry.hpp"

namespace geomsim {

// s_f(y), sigma_f(z), their ratio (mean and max; null when every class is one point), and
// Theorem 3 at gamma for the classes with two subclasses (null bound when vacuous for every pair;
// null margin error when no class has two).
nlohmann::json geometry_json(const EmbeddingGeometry& geometry);

// geometry_json of measure_embedding_geometry, plus "subgroup_recovery_f1", Wang & Isola's
// "uniformity" (t = 2) and same-class/-subclass "alignment", Papyan et al.'s NC1/NC2 of the
// classes and of the subclasses, and NC4 ("nc4_agreement") when predictions are given.
// `points` d x N.
nlohmann::json measured_geometry_json(const Matrix& points, const std::vector<int>& labels, const std::vector<int>& subclasses,
                                      double gamma, std::uint64_t seed, const Matrix* reference = nullptr,
                                      const std::vector<int>* reference_subclasses = nullptr,
                                      const std::vector<int>* predictions = nullptr);

// "embedding_norm": {"min", "max"} of the columns.
nlohmann::json norm_json(const Matrix& points);

}  // namespace geomsim
