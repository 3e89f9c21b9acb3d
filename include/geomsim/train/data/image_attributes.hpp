#pragma once
// Auxiliary attributes derived from images, for seed 002's weakly supervised contrastive
// learning ("conditioning on auxiliary information", Abstract; the experiments: §4.1), where the
// attributes are the only supervision. Fashion-MNIST comes with no attribute annotations (the
// seed's UT-Zappos and CUB do); these are computed from the pixels, deterministically (no
// randomness, the same values on every run and machine up to float64 rounding).
//
// For an image x (C x H x W, values in [0, 1]), its grey level g = the mean over the C channels,
// and its inked pixels P = { (r, c) : g_rc > kInkThreshold }:
//   ink        the ink mass, the mean of g over all H W pixels (the total ink / H W)
//   aspect     the aspect ratio of the bounding box of P: its width / its height, in pixels
//              ((max col - min col + 1) / (max row - min row + 1)); 1 when P is empty
//   intensity  the mean of g over P; 0 when P is empty
//   colour     three columns, the maximum of each colour channel over the image's pixels: the
//              background colour of colour_backgrounds' images (coloured_backgrounds.hpp), whose
//              objects are darker than their background; only for 3-channel images
//   fine       the fine label as a one-hot vector (a discrete attribute; not standardised)
// The continuous ones are standardised with the training set's statistics: (a - mean) / sd, with
// the population sd (1/N) of the N training images; a column whose sd is 0 is left at 0.
#include <torch/torch.h>

#include <string>
#include <vector>

namespace geomsim::train {

inline constexpr double kInkThreshold = 0.2;

// ink, aspect, intensity, colour, fine.
const std::vector<std::string>& image_attribute_names();
// "ink, aspect, intensity, colour, fine".
std::string image_attribute_list();

// The raw continuous attribute `name` (ink, aspect or intensity) of each image: N values
// (float64, on the images' device). images: N x C x H x W.
torch::Tensor image_attribute(const torch::Tensor& images, const std::string& name);

// The per-channel maximum over each image's pixels: N x 3 (float64, on the images' device).
// Throws InvalidArgument("condition-on") unless the images have 3 channels.
torch::Tensor image_colours(const torch::Tensor& images);

// (a - mean) / sd per column of `columns` (N x k), the statistics of these N rows (population
// sd; a column with sd 0 becomes 0).
torch::Tensor standardise_columns(const torch::Tensor& columns);

// The conditioning values of the named attributes, columns in the order given: each continuous
// one standardised over these images (the training set), "fine" as num_fine one-hot columns of
// fine_labels. N x k float64. Throws InvalidArgument("condition-on") for an unknown or repeated
// name or an empty list.
torch::Tensor image_attributes(const torch::Tensor& images, const torch::Tensor& fine_labels, int64_t num_fine,
                               const std::vector<std::string>& names);

// What --condition-on names: "labels" (the training labels, the default: an empty list), or
// "attributes:NAME,NAME,..." (the names of image_attribute_names()). Throws
// InvalidArgument("condition-on") otherwise.
std::vector<std::string> parse_condition_on(const std::string& text);

}  // namespace geomsim::train
