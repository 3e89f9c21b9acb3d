#pragma once
// The cosine-similarity heat map `geomsim measure --out` draws, sorted by class, then subclass
// (the numbers it reports are measure_json's).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// The files a figure with --out STEM writes: STEM.csv, STEM.gp, STEM.png, STEM.svg, and the
// paper's PDFs STEM.pdf (one column) and STEM-2col.pdf (two).
std::vector<std::string> figure_files(const std::string& stem);

// The cosine-similarity matrix of at most `max_points` of the points (a seeded uniform sample
// when there are more), sorted by class, then subclass: STEM.csv (index, class, subclass, then
// one column per point in the same order) and the heat map as STEM.png/.svg/.gp and the PDFs,
// all or none; `subtitle` (may be empty) names the settings it holds fixed.
// Returns how many points it shows.
Index write_cosine_heatmap(const std::string& stem, const Matrix& points, const std::vector<int>& labels,
                           const std::vector<int>& subclasses, Index max_points, std::uint64_t seed, const std::string& title,
                           const std::string& subtitle = "");

}  // namespace geomsim
