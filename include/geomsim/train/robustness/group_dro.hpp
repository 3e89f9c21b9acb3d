#pragma once
// Group DRO (Sagawa et al. 2020): minimise the worst expected loss over groups by keeping
// weights q over the groups, online. After every batch, with L_g the batch's mean loss of group
// g (0 when the batch holds none of it) and n_g the group's size in the training set:
//   q_g <- q_g exp(eta (L_g + C / sqrt(n_g))),  then q <- q / sum(q),
// and the step is taken on sum_g q_g L_g with the updated q. C / sqrt(n_g) is the group
// adjustment (C = 0: none); eta is the step size of the exponentiated-gradient ascent on q.
// q starts uniform and is updated in log space. The strong L2 penalty of the method is the
// optimiser's (robust_training.hpp).
#include <cstdint>
#include <torch/torch.h>
#include <vector>

namespace geomsim::train {

struct GroupDroOptions {
  double step_size = 0.01;  // eta
  double adjustment = 0.0;  // C
};
// Throws InvalidArgument naming dro-eta or dro-adjustment.
void validate(const GroupDroOptions& options);

// The mean of `losses` over the examples of each group (0 for a group with none): a vector of
// num_groups, differentiable in the losses. groups in 0..num_groups-1.
torch::Tensor group_mean_losses(const torch::Tensor& losses, const torch::Tensor& groups, int64_t num_groups);

// The sums of `losses` over each group's examples and the number of examples of each group,
// [num_groups] each (the sums differentiable, the counts in the losses' dtype), without checks:
// nothing is read back from the device. The group means are sums / max(counts, 1); a
// data-parallel step adds both up over the ranks first (robust_training.cpp).
struct GroupTotals {
  torch::Tensor sums, counts;
};
GroupTotals group_totals(const torch::Tensor& losses, const torch::Tensor& groups, int64_t num_groups);

class GroupDro {
 public:
  // group_counts: n_g >= 1 for every group of the training set.
  GroupDro(std::vector<int64_t> group_counts, const GroupDroOptions& options);
  // Updates q with the batch (per-example losses and their groups) and returns sum_g q_g L_g.
  // q moves to the losses' device and is updated there. groups_checked: the caller has checked
  // once that every group is in 0..num_groups-1 (train_end_model does), so the step reads
  // nothing back from the device; otherwise they are checked here (InvalidArgument("groups")).
  torch::Tensor robust_loss(const torch::Tensor& losses, const torch::Tensor& groups, bool groups_checked = false);
  // The update of q alone, from the batch's group mean losses L_g ([num_groups], no gradient
  // needed): returns the new q in their dtype, on their device. robust_loss is this on the
  // batch's means, then sum_g q_g L_g.
  torch::Tensor update_weights(const torch::Tensor& group_losses);
  // q (float64, one entry per group, on the device of the last batch).
  torch::Tensor weights() const { return log_weights_.exp(); }
  // log q, and setting it back (a checkpoint stores log q, so a resume continues bitwise; it
  // moves to the losses' device at the next batch).
  const torch::Tensor& log_weights() const { return log_weights_; }
  void set_log_weights(const torch::Tensor& log_weights);
  int64_t num_groups() const { return static_cast<int64_t>(counts_.size()); }

 private:
  std::vector<int64_t> counts_;
  GroupDroOptions options_;
  torch::Tensor adjustment_;   // C / sqrt(n_g), float64
  torch::Tensor log_weights_;  // log q, float64
};

}  // namespace geomsim::train
