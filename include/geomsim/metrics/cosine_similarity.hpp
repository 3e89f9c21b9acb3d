#pragma once
// The cosine-similarity matrix with points sorted by class (then subclass), as in the
// heat-map insets of seed 004's Figure 2: blocks on the diagonal are the classes.
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct SortedCosineSimilarity {
  std::vector<Index> order;  // order[k] = original index of the k-th row/column
  Matrix matrix;             // N x N, entry (a, b) = cos(u_order[a], u_order[b])
};

// Sorts stably by (label, subclass label if present); points need not be unit vectors.
SortedCosineSimilarity cosine_similarity_by_class(const PointSet& set);

}  // namespace geomsim
