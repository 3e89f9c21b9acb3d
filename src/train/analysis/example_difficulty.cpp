#include "geomsim/train/analysis/example_difficulty.hpp"

#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

void require_labels(const torch::Tensor& labels, int64_t n, int64_t classes) {
  if (!labels.defined() || labels.dim() != 1 || labels.size(0) != n || labels.scalar_type() != torch::kLong) {
    throw InvalidArgument("labels", "must be " + std::to_string(n) + " int64 labels, one per example");
  }
  if (n > 0 && (labels.min().item<int64_t>() < 0 || labels.max().item<int64_t>() >= classes)) {
    throw InvalidArgument("labels", "must be in 0.." + std::to_string(classes - 1));
  }
}

}  // namespace

torch::Tensor forgetting_events(const torch::Tensor& correct) {
  if (!correct.defined() || correct.dim() != 2 || correct.size(0) < 1 || correct.scalar_type() != torch::kBool) {
    throw InvalidArgument("correct", "must be an R x N boolean tensor with R >= 1 records");
  }
  const auto& c = correct;
  const int64_t records = c.size(0);
  auto events = torch::zeros({c.size(1)}, c.options().dtype(torch::kDouble));
  if (records > 1) {
    // A forgetting event: correct at record r, incorrect at record r + 1.
    events = c.narrow(0, 0, records - 1).logical_and(c.narrow(0, 1, records - 1).logical_not()).sum(0).to(torch::kDouble);
  }
  const auto never = c.any(0).logical_not();
  return torch::where(never, torch::full_like(events, static_cast<double>(records)), events);
}

torch::Tensor el2n_scores(const torch::Tensor& logits, const torch::Tensor& labels) {
  if (!logits.defined() || logits.dim() != 2 || logits.size(1) < 2 || !logits.is_floating_point()) {
    throw InvalidArgument("logits", "must be an N x K floating-point tensor with K >= 2 classes");
  }
  const auto l = logits.to(torch::kDouble);
  const auto y = labels.to(l.device());
  require_labels(y, l.size(0), l.size(1));
  if (!torch::isfinite(l).all().item<bool>()) throw InvalidArgument("logits", "must be finite");
  const auto error = torch::softmax(l, 1) - torch::one_hot(y, l.size(1)).to(torch::kDouble);
  return error.norm(2, {1});
}

torch::Tensor gradient_norm_scores(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& images, const torch::Tensor& labels) {
  if (!encoder || !head) throw InvalidArgument("model", "needs an encoder and a classifier head");
  if (!images.defined() || images.dim() != 4) throw InvalidArgument("images", "must be N x C x H x W");
  require_labels(labels, images.size(0), head->options.out_features());
  encoder->eval();
  head->eval();
  std::vector<torch::Tensor> weights;
  for (const auto& p : encoder->parameters()) {
    if (p.requires_grad()) weights.push_back(p);
  }
  for (const auto& p : head->parameters()) {
    if (p.requires_grad()) weights.push_back(p);
  }
  const auto device = weights.front().device();
  const auto x = images.to(device), y = labels.to(device);
  auto squares = torch::zeros({images.size(0)}, torch::TensorOptions().dtype(torch::kDouble).device(device));
  for (int64_t i = 0; i < images.size(0); ++i) {
    const auto loss = torch::nn::functional::cross_entropy(head->forward(encoder->features(x.narrow(0, i, 1))), y.narrow(0, i, 1));
    // autograd::grad leaves the weights' .grad untouched; the sum of squares stays on the device.
    const auto grads = torch::autograd::grad({loss}, weights);
    auto total = torch::zeros({}, squares.options());
    for (const auto& g : grads) total = total + g.to(torch::kDouble).pow(2).sum();
    squares[i] = total;
  }
  return squares.sqrt();
}

}  // namespace geomsim::train
