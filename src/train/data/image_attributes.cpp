#include "geomsim/train/data/image_attributes.hpp"

#include <algorithm>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

void check_images(const torch::Tensor& images) {
  if (images.dim() != 4 || images.size(1) < 1 || images.size(2) < 1 || images.size(3) < 1) {
    throw InvalidArgument("images", "must be N x C x H x W with C, H, W >= 1");
  }
}

// The first and last index (along the last dimension of `any`, N x L) that is true, as float64;
// for a row with none, first = L and last = -1.
std::pair<torch::Tensor, torch::Tensor> extent(const torch::Tensor& any) {
  const int64_t L = any.size(1);
  const auto index = torch::arange(L, torch::TensorOptions().dtype(torch::kDouble).device(any.device())).expand_as(any);
  const auto first = std::get<0>(index.masked_fill(any.bitwise_not(), static_cast<double>(L)).min(1));
  const auto last = std::get<0>(index.masked_fill(any.bitwise_not(), -1.0).max(1));
  return {first, last};
}

}  // namespace

const std::vector<std::string>& image_attribute_names() {
  static const std::vector<std::string> names = {"ink", "aspect", "intensity", "colour", "fine"};
  return names;
}

std::string image_attribute_list() {
  std::string list;
  for (const auto& name : image_attribute_names()) list += (list.empty() ? "" : ", ") + name;
  return list;
}

torch::Tensor image_attribute(const torch::Tensor& images, const std::string& name) {
  check_images(images);
  const auto grey = images.to(torch::kDouble).mean(1);  // N x H x W
  if (name == "ink") return grey.mean({1, 2});
  const auto inked = grey.gt(kInkThreshold);
  const auto count = inked.sum({1, 2}).to(torch::kDouble);
  const auto empty = count.eq(0);
  if (name == "intensity") return ((grey * inked).sum({1, 2}) / count.clamp_min(1.0)).masked_fill(empty, 0.0);
  if (name == "aspect") {
    const auto [top, bottom] = extent(inked.any(2));  // rows holding ink
    const auto [left, right] = extent(inked.any(1));  // columns holding ink
    return ((right - left + 1.0) / (bottom - top + 1.0)).masked_fill(empty, 1.0);
  }
  throw InvalidArgument("condition-on", "names a continuous attribute: ink, aspect or intensity; got '" + name + "'");
}

torch::Tensor image_colours(const torch::Tensor& images) {
  check_images(images);
  if (images.size(1) != 3) {
    throw InvalidArgument("condition-on", "names the attribute 'colour', which needs colour images (3 channels, e.g. "
                                          "--colour-backgrounds); these have " + std::to_string(images.size(1)));
  }
  return images.to(torch::kDouble).amax({2, 3});
}

torch::Tensor standardise_columns(const torch::Tensor& columns) {
  if (columns.dim() != 2 || columns.size(0) < 1) throw InvalidArgument("attributes", "must be N x k with N >= 1");
  const auto c = columns.to(torch::kDouble);
  const auto mean = c.mean(0, true);
  const auto sd = (c - mean).pow(2).mean(0, true).sqrt();
  return ((c - mean) / sd.masked_fill(sd.eq(0), 1.0)).masked_fill(sd.eq(0).expand_as(c), 0.0);
}

torch::Tensor image_attributes(const torch::Tensor& images, const torch::Tensor& fine_labels, int64_t num_fine,
                               const std::vector<std::string>& names) {
  check_images(images);
  if (names.empty()) throw InvalidArgument("condition-on", "must name at least one attribute (" + image_attribute_list() + ")");
  std::vector<torch::Tensor> columns;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& name = names[i];
    if (std::find(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(i), name) != names.begin() + static_cast<std::ptrdiff_t>(i)) {
      throw InvalidArgument("condition-on", "names the attribute '" + name + "' twice");
    }
    if (name == "fine") {
      if (fine_labels.dim() != 1 || fine_labels.size(0) != images.size(0)) {
        throw InvalidArgument("fine labels", "must hold one label per image");
      }
      require_at_least("fine classes", num_fine, 1);
      const auto classes = torch::arange(num_fine, torch::TensorOptions().dtype(torch::kLong).device(fine_labels.device()));
      columns.push_back(fine_labels.to(torch::kLong).unsqueeze(1).eq(classes.unsqueeze(0)).to(torch::kDouble));
    } else if (name == "colour") {
      columns.push_back(standardise_columns(image_colours(images)));
    } else if (name == "ink" || name == "aspect" || name == "intensity") {
      columns.push_back(standardise_columns(image_attribute(images, name).unsqueeze(1)));
    } else {
      throw InvalidArgument("condition-on", "must name attributes among " + image_attribute_list() + "; got '" + name + "'");
    }
  }
  return torch::cat(columns, 1);
}

std::vector<std::string> parse_condition_on(const std::string& text) {
  const std::string syntax = "must be labels or attributes:NAME[,NAME...] with names among " + image_attribute_list();
  if (text == "labels") return {};
  const std::string prefix = "attributes:";
  if (text.compare(0, prefix.size(), prefix) != 0) throw InvalidArgument("condition-on", syntax + "; got '" + text + "'");
  std::vector<std::string> names;
  std::string rest = text.substr(prefix.size());
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = rest.find(',', start);
    const std::string name = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const auto& known = image_attribute_names();
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw InvalidArgument("condition-on", syntax + "; got '" + text + "'");
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      throw InvalidArgument("condition-on", "names the attribute '" + name + "' twice; got '" + text + "'");
    }
    names.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return names;
}

}  // namespace geomsim::train
