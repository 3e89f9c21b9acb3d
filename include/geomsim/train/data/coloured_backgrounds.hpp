#pragma once
// Coloured-background images for seed 002's fair contrastive learning (§4.2 and Appendix F.4):
// its ColorMNIST "randomly assigns a continuous RBG color value for the background in each
// handwritten digit image", and "only the background is augmented with the sampled color while
// the digit stroke pixel remains black". Here the grey images are Fashion-MNIST's (or any
// one-channel images), and the colour can be made to carry class information in the training
// split, so that an encoder that keeps the colour is hurt where it is not (the test split):
//
// For a grey image x (1 x H x W, values in [0, 1], the object bright on a dark background, as
// Fashion-MNIST's) and its colour c in [0, 1]^3, the coloured image is the 3 x H x W image
//   rgb_ch = (1 - x) c_ch        (the background takes the colour, the object darkens to black).
// Each image's colour is, with probability `correlation`, its class's colour: the hue
// class / num_classes at full saturation and value (HSV), each channel moved by a uniform draw
// in [-kColourJitter, kColourJitter] and clamped to [0, 1]; otherwise a uniform draw in [0, 1]^3.
// correlation = 0 is the seed's ColorMNIST (colours independent of the class).
//
// Deterministic: the draws come from a CPU generator seeded with `seed`, the same bits on any
// device and thread count. The per-channel maximum over an image's pixels is its colour exactly
// wherever one pixel of x is 0 (image_attributes' "colour" reads it so).
#include <torch/torch.h>

#include <cstdint>

namespace geomsim::train {

inline constexpr double kColourJitter = 0.15;

struct ColouredImages {
  torch::Tensor images;   // N x 3 x H x W floats in [0, 1], on the grey images' device
  torch::Tensor colours;  // N x 3 floats in [0, 1]: each image's background colour
};

// The class colour of `label` among `num_classes` (3 values in [0, 1], before the jitter).
torch::Tensor class_colour(int64_t label, int64_t num_classes);

// grey: N x 1 x H x W; labels: N int64 in [0, num_classes). Throws InvalidArgument naming
// "images" (not N x 1 x H x W), "labels" (not one per image, or out of range),
// "colour-backgrounds" (correlation outside [0, 1]).
ColouredImages colour_backgrounds(const torch::Tensor& grey, const torch::Tensor& labels, int64_t num_classes,
                                  double correlation, std::uint64_t seed);

}  // namespace geomsim::train
