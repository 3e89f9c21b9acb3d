#include "geomsim/train/data/augmentations.hpp"

#include <algorithm>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

AugmentationOptions no_augmentation() {
  AugmentationOptions o;
  o.max_shift = 0;
  o.flip = false;
  o.brightness = 0.0;
  o.contrast = 0.0;
  o.noise_std = 0.0;
  return o;
}

void validate(const AugmentationOptions& o) {
  require_at_least("max_shift", o.max_shift, 0);
  require_non_negative("brightness", o.brightness);
  require_in_closed_range("contrast", o.contrast, 0.0, 1.0);
  require_non_negative("noise_std", o.noise_std);
  require_in_closed_range("saturation", o.saturation, 0.0, 1.0);
}

AugmentationOptions default_augmentations(int64_t channels, int64_t image_size) {
  AugmentationOptions o;
  if (channels == 3) o.max_shift = std::max<int64_t>(1, image_size / 8);
  return o;
}

torch::Tensor augment(const torch::Tensor& images, const AugmentationOptions& o) {
  validate(o);
  if (images.dim() != 4) throw InvalidArgument("images", "must be B x C x H x W, got " + std::to_string(images.dim()) + " dimensions");
  const int64_t B = images.size(0), H = images.size(2), W = images.size(3);
  torch::Tensor x = images;
  if (o.max_shift > 0) {
    const int64_t s = o.max_shift;
    const auto padded = torch::constant_pad_nd(images, {s, s, s, s}, 0.0);
    // One crop per distinct offset, (2s+1)^2 of them, rather than one per sample.
    const auto offset = torch::randint(0, (2 * s + 1) * (2 * s + 1), {B}, torch::kLong);
    x = torch::empty_like(images);
    for (int64_t k = 0; k < (2 * s + 1) * (2 * s + 1); ++k) {
      const auto members = offset.eq(k).nonzero().squeeze(1);
      if (members.numel() == 0) continue;
      const int64_t dy = k / (2 * s + 1), dx = k % (2 * s + 1);
      x.index_copy_(0, members, padded.index_select(0, members).narrow(2, dy, H).narrow(3, dx, W));
    }
  }
  const auto per_sample = [&](double lo, double hi) {
    return torch::rand({B, 1, 1, 1}, images.options()) * (hi - lo) + lo;
  };
  if (o.flip) {
    const auto flip = torch::rand({B, 1, 1, 1}, images.options()).lt(0.5);
    x = torch::where(flip, x.flip({3}), x);
  }
  if (o.contrast > 0) {
    const auto mean = x.mean({1, 2, 3}, true);
    x = (x - mean) * per_sample(1.0 - o.contrast, 1.0 + o.contrast) + mean;
  }
  if (o.saturation > 0 && images.size(1) == 3) {
    const auto grey = x.mean(1, true);
    x = (x - grey) * per_sample(1.0 - o.saturation, 1.0 + o.saturation) + grey;
  }
  if (o.brightness > 0) x = x + per_sample(-o.brightness, o.brightness);
  if (o.noise_std > 0) x = x + o.noise_std * torch::randn_like(x);
  return x.clamp(0.0, 1.0);
}

std::pair<torch::Tensor, torch::Tensor> augment_identically(const torch::Tensor& a, const torch::Tensor& b,
                                                            const AugmentationOptions& options) {
  if (!a.sizes().equals(b.sizes())) throw InvalidArgument("images", "a pair must have equal shapes");
  // The draws depend only on the shape, so replaying the generator replays the augmentation.
  auto generator = at::detail::getDefaultCPUGenerator();
  const auto state = generator.get_state();
  auto first = augment(a, options);
  generator.set_state(state);
  auto second = augment(b, options);
  return {first, second};
}

torch::Tensor two_views(const torch::Tensor& images, const AugmentationOptions& options) {
  return torch::cat({augment(images, options), augment(images, options)});
}

}  // namespace geomsim::train
