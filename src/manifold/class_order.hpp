#pragma once
// Labelled points sorted by class (stable). In this order a row's same-class entries are
// one contiguous segment and its other-class entries the two segments around it, so
// kernels over a row run on contiguous vectors (vectorised exp) with no per-element label
// test. Internal header.
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::detail {

class ClassOrder {
 public:
  // labels must be 0..num_classes-1 (validated by the caller).
  ClassOrder(const std::vector<int>& labels, int num_classes);

  // The class at sorted position k, and the positions class y occupies: [begin(y), end(y)).
  int label(Index k) const { return label_[static_cast<std::size_t>(k)]; }
  Index begin(int y) const { return begin_[static_cast<std::size_t>(y)]; }
  Index size(int y) const { return begin_[static_cast<std::size_t>(y) + 1] - begin(y); }
  int num_classes() const { return static_cast<int>(begin_.size()) - 1; }

  // Columns from the input order to the sorted order, and back. Plain copies (no
  // permutation) when the labels are already sorted.
  Matrix gather(const Eigen::Ref<const Matrix>& U) const;
  void scatter(const Matrix& sorted, Eigen::Ref<Matrix> out) const;

 private:
  std::vector<Index> order_;  // sorted position k holds input column order_[k]; empty if already sorted
  std::vector<Index> begin_;  // num_classes + 1 offsets
  std::vector<int> label_;
};

}  // namespace geomsim::detail
