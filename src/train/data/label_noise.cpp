#include "geomsim/train/data/label_noise.hpp"

#include <string>

#include <ATen/CPUGeneratorImpl.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

torch::Tensor symmetric_label_noise(const torch::Tensor& labels, int64_t num_classes, double rate, std::uint64_t seed) {
  if (!(rate >= 0.0 && rate <= 1.0)) {
    throw InvalidArgument("label-noise", "must be in [0, 1] (the chance that a training label is replaced), got " + format_number(rate));
  }
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be one label per image (1-D)");
  if (rate == 0.0) return labels;
  require_at_least("classes", num_classes, 2);
  const auto cpu = labels.to(torch::kCPU, torch::kLong);
  if (cpu.numel() > 0 && (cpu.min().item<int64_t>() < 0 || cpu.max().item<int64_t>() >= num_classes)) {
    throw InvalidArgument("labels", "must be in 0.." + std::to_string(num_classes - 1));
  }
  torch::NoGradGuard no_grad;
  auto g = at::make_generator<at::CPUGeneratorImpl>(seed);
  const int64_t n = cpu.size(0);
  // Both draws for every label, so that one label's draw never shifts another's.
  const auto replaced = torch::rand({n}, g, torch::kDouble) < rate;
  const auto shift = torch::randint(1, num_classes, {n}, g, torch::kLong);  // to another label: y + 1..K-1 mod K
  const auto noisy = torch::where(replaced, (cpu + shift).remainder(num_classes), cpu);
  return noisy.to(labels.device());
}

}  // namespace geomsim::train
