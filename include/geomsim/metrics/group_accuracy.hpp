#pragma once
// Accuracy by group, for robustness: the accuracy of every group, the worst of them and the
// average over all examples. Groups are any partition of the examples (true subgroups,
// pseudo-groups from clusters, or one group for plain accuracy).
#include <cstdint>
#include <vector>

namespace geomsim {

struct GroupAccuracy {
  std::vector<double> per_group;   // indexed by group; groups without examples are left out of worst
  std::vector<std::int64_t> counts;
  double worst = 0.0;              // min over groups with examples
  int worst_group = 0;
  double average = 0.0;            // over all examples
};

// predicted, labels and groups have one entry per example (n >= 1); groups in 0..num_groups-1.
GroupAccuracy group_accuracy(const std::vector<int>& predicted, const std::vector<int>& labels,
                             const std::vector<int>& groups, int num_groups);

}  // namespace geomsim
