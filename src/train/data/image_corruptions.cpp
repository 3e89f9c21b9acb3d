#include "geomsim/train/data/image_corruptions.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <ATen/CPUGeneratorImpl.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

constexpr std::array<double, kCorruptionSeverities> kNoise = {0.08, 0.12, 0.18, 0.26, 0.38};
constexpr std::array<double, kCorruptionSeverities> kImpulse = {0.03, 0.06, 0.09, 0.17, 0.27};
constexpr std::array<double, kCorruptionSeverities> kBlur = {0.5, 0.75, 1.0, 1.5, 2.0};
constexpr std::array<double, kCorruptionSeverities> kContrast = {0.4, 0.3, 0.2, 0.1, 0.05};

// A generator of its own for each (seed, corruption, severity), so that one draw never shifts another's.
torch::Generator generator_for(std::uint64_t seed, std::size_t corruption, int severity) {
  return at::make_generator<at::CPUGeneratorImpl>(seed * 1000003ULL + corruption * 16ULL + static_cast<std::uint64_t>(severity));
}

// The 1-D Gaussian filter of standard deviation sigma, truncated at 3 sigma, summing to 1.
torch::Tensor gaussian_filter(double sigma, const torch::TensorOptions& options) {
  const int64_t radius = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(3.0 * sigma)));
  auto x = torch::arange(-radius, radius + 1, torch::TensorOptions().dtype(torch::kDouble));
  auto w = torch::exp(-x * x / (2.0 * sigma * sigma));
  return (w / w.sum()).to(options);
}

}  // namespace

const std::vector<std::string>& image_corruption_names() {
  static const std::vector<std::string> names = {"gaussian_noise", "impulse_noise", "gaussian_blur", "contrast"};
  return names;
}

torch::Tensor corrupt_images(const torch::Tensor& images, const std::string& corruption, int severity, std::uint64_t seed) {
  const auto& names = image_corruption_names();
  const auto found = std::find(names.begin(), names.end(), corruption);
  if (found == names.end()) {
    throw InvalidArgument("corruption", "must be gaussian_noise, impulse_noise, gaussian_blur or contrast; got '" + corruption + "'");
  }
  if (severity < 1 || severity > kCorruptionSeverities) {
    throw InvalidArgument("severity", "must be in 1..5, got " + std::to_string(severity));
  }
  if (images.dim() != 4) throw InvalidArgument("images", "must be B x C x H x W");
  const auto index = static_cast<std::size_t>(found - names.begin());
  const auto level = static_cast<std::size_t>(severity - 1);
  torch::NoGradGuard no_grad;
  const auto cpu_double = torch::TensorOptions().dtype(torch::kDouble);
  torch::Tensor out;
  if (corruption == "gaussian_noise") {
    auto g = generator_for(seed, index, severity);
    const auto noise = torch::randn(images.sizes(), g, cpu_double) * kNoise[level];
    out = images + noise.to(images.options());
  } else if (corruption == "impulse_noise") {
    auto g = generator_for(seed, index, severity);
    const auto hit = torch::rand(images.sizes(), g, cpu_double) < kImpulse[level];
    const auto salt = torch::rand(images.sizes(), g, cpu_double) < 0.5;
    out = torch::where(hit.to(images.device()), salt.to(images.options()), images);
  } else if (corruption == "gaussian_blur") {
    // Separable: rows, then columns, each channel alone.
    const int64_t channels = images.size(1);
    const auto w = gaussian_filter(kBlur[level], images.options());
    const int64_t radius = (w.size(0) - 1) / 2;
    namespace F = torch::nn::functional;
    const auto across = w.view({1, 1, 1, -1}).repeat({channels, 1, 1, 1});
    const auto down = w.view({1, 1, -1, 1}).repeat({channels, 1, 1, 1});
    out = F::conv2d(images, across, F::Conv2dFuncOptions().padding({0, radius}).groups(channels));
    out = F::conv2d(out, down, F::Conv2dFuncOptions().padding({radius, 0}).groups(channels));
  } else {  // contrast
    const auto mean = images.mean({1, 2, 3}, /*keepdim=*/true);
    out = (images - mean) * kContrast[level] + mean;
  }
  return out.clamp(0.0, 1.0);
}

}  // namespace geomsim::train
