#include "geomsim/metrics/cosine_similarity.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

SortedCosineSimilarity cosine_similarity_by_class(const PointSet& set) {
  const Index N = set.size();
  if (static_cast<Index>(set.labels.size()) != N) throw InvalidArgument("labels", "must have one entry per point");
  const bool has_sub = !set.subclass_labels.empty();
  if (has_sub && static_cast<Index>(set.subclass_labels.size()) != N) {
    throw InvalidArgument("subclass_labels", "must be empty or have one entry per point");
  }
  SortedCosineSimilarity out;
  out.order.resize(static_cast<std::size_t>(N));
  std::iota(out.order.begin(), out.order.end(), Index{0});
  std::stable_sort(out.order.begin(), out.order.end(), [&](Index a, Index b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (set.labels[ua] != set.labels[ub]) return set.labels[ua] < set.labels[ub];
    return has_sub && set.subclass_labels[ua] < set.subclass_labels[ub];
  });
  Matrix sorted(set.dim(), N);
  for (Index k = 0; k < N; ++k) {
    const double norm = set.points.col(out.order[static_cast<std::size_t>(k)]).norm();
    if (!(norm > 0.0)) throw InvalidArgument("points", "column " + std::to_string(k) + " is zero; its cosine is undefined");
    sorted.col(k) = set.points.col(out.order[static_cast<std::size_t>(k)]) / norm;
  }
  out.matrix = sorted.transpose() * sorted;
  return out;
}

}  // namespace geomsim
