#pragma once
// The geometry summary: is each class collapsed to one point, split into a few atoms,
// or continuous?
//
// The regimes have one name each wherever geomsim writes them (CSV, JSON, text, pages):
// collapsed, atoms, continuous. "spread" is only the measure s(y), never a regime.
//
// Within each class, points closer than `tolerance` (Euclidean distance) are joined,
// and atoms are the connected components (single linkage). The optimiser places
// coincident points to ~1e-6, and distinct atoms of the problems studied here are
// >= 0.05 apart, so the default 1e-3 separates the two regimes cleanly.
//
// Classification:
//   collapsed  every class is one atom;
//   atoms      otherwise, when every class has at most half as many atoms as points
//              (so atoms hold two points on average, e.g. mu_theta's 4+4 split);
//   continuous some class has more than half as many atoms as points (for n_y = 8,
//              five or more distinct positions). (Before issue 31 this was "spread";
//              readers of geomsim's CSVs still accept that name, geometry_kind_name.)
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

enum class GeometryKind { kCollapsed, kAtoms, kContinuous };
std::string to_string(GeometryKind kind);  // "collapsed", "atoms", "continuous"

struct ClassAtoms {
  int label = 0;
  std::vector<Index> atom_sizes;  // descending
  std::vector<int> atom_of_point; // atom index (into atom_sizes) of each point of the class, in index order
};

struct GeometrySummary {
  GeometryKind kind = GeometryKind::kCollapsed;
  double tolerance = 0.0;
  std::vector<ClassAtoms> classes;  // indexed by label
  // e.g. "split into 2 atoms per class (sizes 4+4 | 4+4 | 5+3)".
  std::string describe() const;
};

constexpr double kDefaultAtomTolerance = 1e-3;

// Throws InvalidArgument("cluster-tol") unless tolerance is finite and > 0.
GeometrySummary summarize_geometry(const Matrix& points, const std::vector<int>& labels,
                                   double tolerance = kDefaultAtomTolerance);

}  // namespace geomsim
