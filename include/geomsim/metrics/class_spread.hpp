#pragma once
// Spread of each class: s(y) = 1/n_y sum_{h(u)=y} | u - mean_y |, the empirical s_f(y)
// of seed 004 (Section 4 and Appendix H), and its average over classes, which is the
// number Appendix H reports. Works for simulated points and trained embeddings alike.
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct ClassSpread {
  std::vector<double> per_class;  // indexed by class label
  double mean = 0.0;              // unweighted mean over classes
};

// `points` is d x N (columns), `labels` in 0..K-1 with every class present.
ClassSpread class_spread(const Matrix& points, const std::vector<int>& labels);

}  // namespace geomsim
