#include "geomsim/train/data/coloured_backgrounds.hpp"

#include <cmath>
#include <string>

#include <ATen/CPUGeneratorImpl.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

torch::Tensor class_colour(int64_t label, int64_t num_classes) {
  require_at_least("classes", num_classes, 1);
  if (label < 0 || label >= num_classes) {
    throw InvalidArgument("labels", "must be in 0.." + std::to_string(num_classes - 1) + ", got " + std::to_string(label));
  }
  // HSV (h, 1, 1) to RGB: each channel k in {r: 5, g: 3, b: 1} is 1 - max(0, min(m, 4 - m, 1))
  // with m = (k + 6 h) mod 6.
  const double h = static_cast<double>(label) / static_cast<double>(num_classes);
  double rgb[3];
  const double offsets[3] = {5.0, 3.0, 1.0};
  for (int ch = 0; ch < 3; ++ch) {
    const double m = std::fmod(offsets[ch] + 6.0 * h, 6.0);
    rgb[ch] = 1.0 - std::max(0.0, std::min({m, 4.0 - m, 1.0}));
  }
  return torch::tensor({rgb[0], rgb[1], rgb[2]}, torch::kDouble);
}

ColouredImages colour_backgrounds(const torch::Tensor& grey, const torch::Tensor& labels, int64_t num_classes,
                                  double correlation, std::uint64_t seed) {
  if (grey.dim() != 4 || grey.size(1) != 1) {
    throw InvalidArgument("images", "must be grey (N x 1 x H x W) to take coloured backgrounds");
  }
  if (labels.dim() != 1 || labels.size(0) != grey.size(0)) throw InvalidArgument("labels", "must hold one label per image");
  if (!(correlation >= 0.0 && correlation <= 1.0)) {
    throw InvalidArgument("colour-backgrounds", "must be in [0, 1] (the chance that an image takes its class's colour), got " +
                                                    std::to_string(correlation));
  }
  require_at_least("classes", num_classes, 1);
  torch::NoGradGuard no_grad;
  const int64_t n = grey.size(0);
  const auto cpu_labels = labels.to(torch::kCPU, torch::kLong);
  if (n > 0 && (cpu_labels.min().item<int64_t>() < 0 || cpu_labels.max().item<int64_t>() >= num_classes)) {
    throw InvalidArgument("labels", "must be in 0.." + std::to_string(num_classes - 1));
  }
  std::vector<torch::Tensor> palette;
  for (int64_t k = 0; k < num_classes; ++k) palette.push_back(class_colour(k, num_classes));
  const auto classes = torch::stack(palette);  // num_classes x 3
  auto g = at::make_generator<at::CPUGeneratorImpl>(seed);
  const auto cpu_double = torch::TensorOptions().dtype(torch::kDouble);
  // Three draws per image, always all three, so that one image's colour never shifts another's.
  const auto takes_class = torch::rand({n}, g, cpu_double) < correlation;
  const auto jitter = (torch::rand({n, 3}, g, cpu_double) * 2.0 - 1.0) * kColourJitter;
  const auto uniform = torch::rand({n, 3}, g, cpu_double);
  const auto of_class = (classes.index_select(0, cpu_labels) + jitter).clamp(0.0, 1.0);
  const auto colours = torch::where(takes_class.unsqueeze(1), of_class, uniform).to(torch::kFloat);
  ColouredImages out;
  out.colours = colours.to(grey.device());
  out.images = ((1.0 - grey) * out.colours.view({n, 3, 1, 1})).clamp(0.0, 1.0);
  return out;
}

}  // namespace geomsim::train
