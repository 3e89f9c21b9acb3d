#include "geomsim/train/robustness/group_dro.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

void validate(const GroupDroOptions& o) {
  require_positive("dro-eta", o.step_size);
  require_non_negative("dro-adjustment", o.adjustment);
}

namespace {

// The group means without checks: no read-back from the device. Sums by scatter_add (the same
// sums as index_add, in the same order; its backward is a gather, which the meta device has,
// where index_add's is an index_select, which it has not in libtorch 1.13); the counts a sum of
// ones (exact, as bincount's, which has no meta kernel).
torch::Tensor group_means(const torch::Tensor& losses, const torch::Tensor& groups, int64_t num_groups) {
  const GroupTotals totals = group_totals(losses, groups, num_groups);
  return totals.sums / totals.counts.clamp_min(1);
}

// log(sum(exp(x))) of a vector, in the steps of torch::logsumexp (the maximum, set to 0 where it
// is infinite, taken out before exp), so the same numbers; its infinity test compares with +-inf
// and ors the booleans bitwise (libtorch 1.13 has no meta kernel for abs or logical_or).
torch::Tensor log_sum_exp(const torch::Tensor& x) {
  const double inf = std::numeric_limits<double>::infinity();
  auto m = torch::amax(x, {0}, /*keepdim=*/true);
  m = m.masked_fill(m.eq(inf).bitwise_or(m.eq(-inf)), 0);
  return (x - m).exp().sum(0).log().add(m.squeeze(0));
}

}  // namespace

GroupTotals group_totals(const torch::Tensor& losses, const torch::Tensor& groups, int64_t num_groups) {
  const auto g = groups.to(torch::kLong);
  return {torch::zeros({num_groups}, losses.options()).scatter_add(0, g, losses),
          torch::zeros({num_groups}, losses.options()).scatter_add(0, g, torch::ones_like(losses))};
}

torch::Tensor group_mean_losses(const torch::Tensor& losses, const torch::Tensor& groups, int64_t num_groups) {
  if (losses.dim() != 1 || groups.dim() != 1 || losses.size(0) != groups.size(0)) {
    throw InvalidArgument("groups", "need one group per loss");
  }
  require_at_least("groups", num_groups, 1);
  const auto g = groups.to(torch::kLong);
  if (g.numel() > 0 && (g.min().item<int64_t>() < 0 || g.max().item<int64_t>() >= num_groups)) {
    throw InvalidArgument("groups", "must be in 0.." + std::to_string(num_groups - 1));
  }
  return group_means(losses, g, num_groups);
}

GroupDro::GroupDro(std::vector<int64_t> group_counts, const GroupDroOptions& options)
    : counts_(std::move(group_counts)), options_(options) {
  validate(options_);
  if (counts_.empty()) throw InvalidArgument("groups", "must hold at least one group");
  std::vector<double> adjustment;
  for (int64_t n : counts_) {
    if (n < 1) throw InvalidArgument("groups", "must each have at least one training example (Group DRO divides by sqrt(n_g))");
    adjustment.push_back(options_.adjustment / std::sqrt(static_cast<double>(n)));
  }
  adjustment_ = torch::tensor(adjustment, torch::kDouble);
  log_weights_ = torch::full({num_groups()}, -std::log(static_cast<double>(num_groups())), torch::kDouble);
}

torch::Tensor GroupDro::robust_loss(const torch::Tensor& losses, const torch::Tensor& groups, bool groups_checked) {
  if (!groups_checked) group_mean_losses(losses.detach(), groups, num_groups());  // the checks alone
  if (losses.dim() != 1 || groups.dim() != 1 || losses.size(0) != groups.size(0)) throw InvalidArgument("groups", "need one group per loss");
  const auto group_losses = group_means(losses, groups, num_groups());
  return (update_weights(group_losses) * group_losses).sum();
}

torch::Tensor GroupDro::update_weights(const torch::Tensor& group_losses) {
  if (group_losses.dim() != 1 || group_losses.size(0) != num_groups()) {
    throw InvalidArgument("groups", "need one mean loss per group (" + std::to_string(num_groups()) + ")");
  }
  // q lives on the losses' device: the update needs no copy to the host and back.
  if (log_weights_.device() != group_losses.device()) {
    log_weights_ = log_weights_.to(group_losses.device());
    adjustment_ = adjustment_.to(group_losses.device());
  }
  const auto adjusted = group_losses.detach().to(torch::kDouble) + adjustment_;
  log_weights_ = log_weights_ + options_.step_size * adjusted;
  log_weights_ = log_weights_ - log_sum_exp(log_weights_);
  return weights().to(group_losses.scalar_type());
}

void GroupDro::set_log_weights(const torch::Tensor& log_weights) {
  if (log_weights.dim() != 1 || log_weights.size(0) != num_groups() || log_weights.scalar_type() != torch::kDouble) {
    throw InvalidArgument("checkpoint", "holds Group DRO weights that do not match the groups");
  }
  log_weights_ = log_weights.clone();
}

}  // namespace geomsim::train
