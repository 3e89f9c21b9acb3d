#pragma once
// Augmentations on image tensors (B x C x H x W, values in [0, 1]), drawn on the images' device
// from its default generator (the CPU's or the CUDA device's; seed them with torch::manual_seed),
// without reading anything back to the host: a random shift (zero padding, then a random
// crop back to size), a horizontal flip, brightness, contrast and (colour images) saturation
// jitter, and Gaussian noise.
// two_views() makes the two-view batch the contrastive losses expect: [a(x); a'(x)].
#include <torch/torch.h>

namespace geomsim::train {

struct AugmentationOptions {
  int64_t max_shift = 2;      // pixels, each direction
  bool flip = true;           // horizontal, with probability 1/2
  double brightness = 0.2;    // add U(-b, b)
  double contrast = 0.2;      // scale about the image mean by U(1 - c, 1 + c)
  double noise_std = 0.02;    // add N(0, s^2) per pixel
  // Colour images (C = 3) only: scale each image's distance from its grey version (the channel
  // mean) by U(1 - s, 1 + s), the saturation jitter of SimCLR's colour distortion. Other channel
  // counts draw nothing for it, so grey-scale runs are unchanged by it.
  double saturation = 0.4;
};

// Every augmentation off: augment() returns the images as they are (the ablation "SupCon +
// cNCE - augmentation" of seed 004's Table 10, where the two views of a sample are identical).
AugmentationOptions no_augmentation();
// The augmentations the training commands use for C x S x S images: the defaults above for
// grey-scale (Fashion-MNIST), and for colour images (CIFAR) a shift of S/8 pixels (4 for 32 x 32,
// the usual pad-and-crop of CIFAR training) with the saturation jitter.
AugmentationOptions default_augmentations(int64_t channels, int64_t image_size);

// Throws InvalidArgument naming the field for a negative setting.
void validate(const AugmentationOptions& options);

torch::Tensor augment(const torch::Tensor& images, const AugmentationOptions& options);

// The same random augmentation of a and of b (equal shapes): row i of both gets the same shift,
// flip, jitter and noise. For Lemma 3's K_aug, where one augmentation a is applied to a pair.
std::pair<torch::Tensor, torch::Tensor> augment_identically(const torch::Tensor& a, const torch::Tensor& b,
                                                            const AugmentationOptions& options);
// 2B x C x H x W: two independent augmentations of the batch, stacked.
torch::Tensor two_views(const torch::Tensor& images, const AugmentationOptions& options);

}  // namespace geomsim::train
