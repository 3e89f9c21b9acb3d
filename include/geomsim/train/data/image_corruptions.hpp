#pragma once
// Image corruptions at five severities, in the manner of ImageNet-C (Hendrycks & Dietterich,
// "Benchmarking Neural Network Robustness to Common Corruptions and Perturbations", ICLR 2019),
// which seed 001 uses for its mean corruption error and calibration under shift (§4.2, Table 2,
// Fig. 5): "common naturally occurring perturbations such as noise, blur and contrast changes".
// ImageNet-C's images are 224 pixels wide; here they are Fashion-MNIST's 28, so the blur's widths
// are geomsim's own, chosen so that severity 5 leaves the garment's outline barely legible, and
// the noise and contrast levels are ImageNet-C's (they act per pixel, whatever the size).
//
// On B x C x H x W images with values in [0, 1] (the result is clamped back to [0, 1]):
//   gaussian_noise  x + N(0, s^2),            s = 0.08, 0.12, 0.18, 0.26, 0.38 (ImageNet-C's)
//   impulse_noise   salt and pepper on a fraction p of the pixels, p = 0.03, 0.06, 0.09, 0.17, 0.27
//                   (ImageNet-C's), each set to 0 or 1 with probability 1/2
//   gaussian_blur   a Gaussian filter of standard deviation b pixels, b = 0.5, 0.75, 1, 1.5, 2,
//                   zero-padded (Fashion-MNIST's background is 0)
//   contrast        (x - m) c + m about each image's mean m, c = 0.4, 0.3, 0.2, 0.1, 0.05
//                   (ImageNet-C's)
// Deterministic: the random ones draw from a CPU generator seeded with `seed` (and the
// corruption and severity), so the same call gives the same bits on any device and thread count.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::train {

// The corruptions' names, in the order above.
const std::vector<std::string>& image_corruption_names();
inline constexpr int kCorruptionSeverities = 5;

// The corrupted images, on the images' device. Throws InvalidArgument naming "corruption" for an
// unknown name and "severity" outside 1..5, and "images" for a tensor that is not 4-D.
torch::Tensor corrupt_images(const torch::Tensor& images, const std::string& corruption, int severity, std::uint64_t seed);

}  // namespace geomsim::train
