#include "manifold/class_order.hpp"

namespace geomsim::detail {

ClassOrder::ClassOrder(const std::vector<int>& labels, int num_classes)
    : begin_(static_cast<std::size_t>(num_classes) + 1, 0), label_(labels.size()) {
  for (int y : labels) ++begin_[static_cast<std::size_t>(y) + 1];
  for (std::size_t y = 1; y < begin_.size(); ++y) begin_[y] += begin_[y - 1];
  std::vector<Index> next(begin_.begin(), begin_.end() - 1);
  std::vector<Index> order(labels.size());
  bool sorted = true;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const auto k = static_cast<std::size_t>(next[static_cast<std::size_t>(labels[i])]++);
    order[k] = static_cast<Index>(i);
    label_[k] = labels[i];
    sorted = sorted && k == i;
  }
  if (!sorted) order_ = std::move(order);
}

Matrix ClassOrder::gather(const Eigen::Ref<const Matrix>& U) const {
  if (order_.empty()) return U;
  Matrix sorted(U.rows(), U.cols());
  for (std::size_t k = 0; k < order_.size(); ++k) sorted.col(static_cast<Index>(k)) = U.col(order_[k]);
  return sorted;
}

void ClassOrder::scatter(const Matrix& sorted, Eigen::Ref<Matrix> out) const {
  if (order_.empty()) {
    out = sorted;
    return;
  }
  for (std::size_t k = 0; k < order_.size(); ++k) out.col(order_[k]) = sorted.col(static_cast<Index>(k));
}

}  // namespace geomsim::detail
