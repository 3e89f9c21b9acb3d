#include "geomsim/train/data/augmentations.hpp"

#include <algorithm>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/device.hpp"

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
  // The shift and the flip move pixels only: both are integer index arithmetic and gathers on
  // the images' device (gathering copies the values, so the result is the padded image's window,
  // mirrored or not, exactly), with their draws made there: nothing is read back to the host.
  const auto index_options = torch::TensorOptions().dtype(torch::kLong).device(images.device());
  const int64_t C = images.size(1);
  if (o.max_shift > 0) {
    const int64_t s = o.max_shift, side = 2 * s + 1;
    const auto padded = torch::constant_pad_nd(images, {s, s, s, s}, 0.0);
    const auto offset = torch::randint(0, side * side, {B}, index_options);  // one window per sample
    const auto dy = offset.div(side, "floor"), dx = offset.remainder(side);
    const int64_t padded_w = W + 2 * s;
    const auto rows = (dy.view({B, 1, 1, 1}) + torch::arange(H, index_options).view({1, 1, H, 1})).expand({B, C, H, padded_w});
    const auto cols = (dx.view({B, 1, 1, 1}) + torch::arange(W, index_options).view({1, 1, 1, W})).expand({B, C, H, W});
    x = padded.gather(2, rows).gather(3, cols);
  }
  const auto per_sample = [&](double lo, double hi) {
    return torch::rand({B, 1, 1, 1}, images.options()) * (hi - lo) + lo;
  };
  if (o.flip) {
    // Column j of a flipped sample is column W - 1 - j: j + flip (W - 1 - 2 j).
    const auto flip = torch::rand({B, 1, 1, 1}, images.options()).lt(0.5).to(torch::kLong);
    const auto j = torch::arange(W, index_options).view({1, 1, 1, W});
    x = x.gather(3, (j + flip * j.mul(-2).add(W - 1)).expand({B, C, H, W}));
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
  // The draws depend only on the shape, so replaying the generator of the device that holds
  // the images (the one augment() draws from) replays the augmentation. A device without a
  // generator (meta) draws nothing to replay.
  auto generator = default_generator(a.device());
  if (!generator) return {augment(a, options), augment(b, options)};
  const auto state = generator->get_state();
  auto first = augment(a, options);
  generator->set_state(state);
  auto second = augment(b, options);
  return {first, second};
}

torch::Tensor two_views(const torch::Tensor& images, const AugmentationOptions& options) {
  return torch::cat({augment(images, options), augment(images, options)});
}

}  // namespace geomsim::train
