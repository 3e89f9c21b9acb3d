#pragma once
// What `geomsim measure` reports on a set of embeddings, whether a model made them from images
// or a user saved them: the Section 4 geometry with Theorem 3 and subgroup recovery (one JSON
// layout for both paths), and the cosine-similarity heat map sorted by class, then subclass.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::cli {

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

// The files --out STEM writes: STEM.csv, STEM.png, STEM.svg, STEM.gp.
std::vector<std::string> heatmap_files(const std::string& stem);

// The cosine-similarity matrix of at most `max_points` of the points (a seeded uniform sample
// when there are more), sorted by class, then subclass: STEM.csv (index, class, subclass, then
// one column per point in the same order) and the heat map as STEM.png/.svg/.gp, all or none.
// Returns how many points it shows.
Index write_cosine_heatmap(const std::string& stem, const Matrix& points, const std::vector<int>& labels,
                           const std::vector<int>& subclasses, Index max_points, std::uint64_t seed, const std::string& title);

}  // namespace geomsim::cli
