#include "geomsim/metrics/group_accuracy.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

GroupAccuracy group_accuracy(const std::vector<int>& predicted, const std::vector<int>& labels, const std::vector<int>& groups,
                             int num_groups) {
  const std::size_t n = labels.size();
  if (n == 0 || predicted.size() != n || groups.size() != n) {
    throw InvalidArgument("groups", "need one prediction, one label and one group per example, and at least one example");
  }
  require_at_least("groups", num_groups, 1);
  GroupAccuracy out;
  out.counts.assign(static_cast<std::size_t>(num_groups), 0);
  std::vector<std::int64_t> correct(static_cast<std::size_t>(num_groups), 0);
  std::int64_t all_correct = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (groups[i] < 0 || groups[i] >= num_groups) {
      throw InvalidArgument("groups", "must be in 0.." + std::to_string(num_groups - 1) + ", got " + std::to_string(groups[i]));
    }
    const bool hit = predicted[i] == labels[i];
    ++out.counts[static_cast<std::size_t>(groups[i])];
    correct[static_cast<std::size_t>(groups[i])] += hit;
    all_correct += hit;
  }
  out.per_group.assign(static_cast<std::size_t>(num_groups), 0.0);
  out.worst = 2.0;
  for (int g = 0; g < num_groups; ++g) {
    const auto c = out.counts[static_cast<std::size_t>(g)];
    if (c == 0) continue;
    out.per_group[static_cast<std::size_t>(g)] = static_cast<double>(correct[static_cast<std::size_t>(g)]) / static_cast<double>(c);
    if (out.per_group[static_cast<std::size_t>(g)] < out.worst) {
      out.worst = out.per_group[static_cast<std::size_t>(g)];
      out.worst_group = g;
    }
  }
  out.average = static_cast<double>(all_correct) / static_cast<double>(n);
  return out;
}

}  // namespace geomsim
