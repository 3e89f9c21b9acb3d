#include "geomsim/train/training/joint_head.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

// splitmix64's finaliser (Steele, Lea and Flood 2014): a fixed bijection of 64-bit words, so the
// labelled subset is the same wherever it is computed.
uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

void require_unit_interval(const char* name, double value, const char* meaning) {
  if (!(value >= 0.0 && value < 1.0)) {
    throw InvalidArgument(name, std::string("must be in [0, 1) (") + meaning + "), got " + format_number(value));
  }
}

}  // namespace

void validate(const JointHeadOptions& o) {
  if (!(o.weight >= 0.0 && std::isfinite(o.weight))) {
    throw InvalidArgument("head-weight", "must be finite and >= 0 (the cross-entropy head's weight; 0: no head), got " +
                                             format_number(o.weight));
  }
  require_unit_interval("head-label-smoothing", o.label_smoothing, "the cross-entropy head's label smoothing");
  require_unit_interval("head-dropout", o.dropout, "the dropout rate before the cross-entropy head");
  if (!(o.labelled_share > 0.0 && o.labelled_share <= 1.0)) {
    throw InvalidArgument("head-labelled-share", "must be in (0, 1] (the share of training samples whose labels the "
                                                 "cross-entropy head sees), got " + format_number(o.labelled_share));
  }
}

int64_t labelled_count(int64_t n, double share) {
  if (n < 1) return 0;
  const auto count = static_cast<int64_t>(std::llround(share * static_cast<double>(n)));
  return std::clamp<int64_t>(count, 1, n);
}

torch::Tensor labelled_samples(int64_t n, double share, uint64_t seed) {
  require_at_least("samples", n, 0);
  const int64_t count = labelled_count(n, share);
  // A key per sample from the seed; the `count` smallest are labelled.
  const uint64_t base = splitmix64(seed ^ 0x6a6f696e742d6865ULL);  // "joint-he"
  std::vector<uint64_t> keys(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) keys[static_cast<std::size_t>(i)] = splitmix64(base + static_cast<uint64_t>(i));
  std::vector<int64_t> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), int64_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](int64_t a, int64_t b) { return keys[static_cast<std::size_t>(a)] < keys[static_cast<std::size_t>(b)]; });
  auto mask = torch::zeros({n}, torch::kBool);
  auto* m = mask.data_ptr<bool>();
  for (int64_t k = 0; k < count; ++k) m[order[static_cast<std::size_t>(k)]] = true;
  return mask;
}

torch::Tensor joint_head_dropout_scale(int64_t rows, int64_t cols, double dropout, const torch::TensorOptions& options) {
  if (dropout <= 0.0) return torch::ones({rows, cols}, options);
  return torch::empty({rows, cols}, options).bernoulli_(1.0 - dropout).div_(1.0 - dropout);
}

torch::Tensor joint_head_logits(torch::nn::Linear& head, const torch::Tensor& features, double dropout, bool training) {
  // No draw at rate 0: the scale would be ones.
  if (!training || dropout <= 0.0) return head->forward(features);
  return head->forward(features * joint_head_dropout_scale(features.size(0), features.size(1), dropout, features.options()));
}

torch::Tensor joint_head_row_losses(torch::nn::Linear& head, const torch::Tensor& features, const torch::Tensor& labels,
                                    double label_smoothing, const torch::Tensor& scale) {
  namespace F = torch::nn::functional;
  const auto logits = head->forward(scale.defined() ? features * scale : features);
  return F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().label_smoothing(label_smoothing).reduction(torch::kNone));
}

torch::Tensor joint_head_loss(const JointHeadOptions& o, torch::nn::Linear& head, const torch::Tensor& features,
                              const torch::Tensor& labels, const torch::Tensor& labelled, bool training) {
  const torch::Tensor scale = training && o.dropout > 0.0
                                  ? joint_head_dropout_scale(features.size(0), features.size(1), o.dropout, features.options())
                                  : torch::Tensor();
  const auto rows = joint_head_row_losses(head, features, labels, o.label_smoothing, scale);
  if (!labelled.defined()) return rows.mean();
  // The mean over the labelled rows: no count is read back (a batch without one adds 0).
  const auto weight = labelled.to(rows.dtype());
  return (rows * weight).sum() / weight.sum().clamp_min(1.0);
}

}  // namespace geomsim::train
