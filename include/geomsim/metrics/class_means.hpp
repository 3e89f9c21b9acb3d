#pragma once
// The mean of each class, mu_k = (1/n_k) sum_{y_i = k} x_i, and its size n_k: the shared first
// step of the class spread, neural collapse and same-class alignment.
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

struct ClassMeans {
  Matrix means;               // d x K, column k is mu_k
  std::vector<Index> counts;  // n_k
  int num_classes() const { return static_cast<int>(counts.size()); }
};

// `points` is d x N (columns), `labels` in 0..K-1 with every class present. Sums in index order.
// Throws InvalidArgument("labels") on a size mismatch or a missing class.
ClassMeans class_means(const PointsRef& points, const std::vector<int>& labels);

}  // namespace geomsim
