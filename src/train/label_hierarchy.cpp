#include "geomsim/train/label_hierarchy.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim::train {
namespace {
const std::vector<std::string> kFashionNames{"T-shirt/top", "Trouser", "Pullover", "Dress", "Coat",
                                             "Sandal",      "Shirt",   "Sneaker",  "Bag",   "Ankle boot"};
}

std::vector<std::string> fashion_mnist_hierarchy_names() { return {"fmnist-2", "fmnist-4", "fmnist-4-imbalanced"}; }

LabelHierarchy fashion_mnist_hierarchy(const std::string& name) {
  LabelHierarchy h;
  h.name = name;
  h.fine_names = kFashionNames;
  h.keep_fraction.assign(10, 1.0);
  if (name == "fmnist-2") {
    h.coarse_names = {"clothing", "shoes and bags"};
    h.coarse_of_fine = {0, 0, 0, 0, 0, 1, 0, 1, 1, 1};
  } else if (name == "fmnist-4" || name == "fmnist-4-imbalanced") {
    h.coarse_names = {"tops", "bottoms and dresses", "footwear", "bags"};
    h.coarse_of_fine = {0, 1, 0, 1, 0, 2, 0, 2, 3, 2};
    if (name == "fmnist-4-imbalanced") {
      std::vector<bool> first_seen(4, false);
      for (int fine = 0; fine < 10; ++fine) {
        const int coarse = h.coarse_of_fine[static_cast<std::size_t>(fine)];
        h.keep_fraction[static_cast<std::size_t>(fine)] = first_seen[static_cast<std::size_t>(coarse)] ? 0.2 : 1.0;
        first_seen[static_cast<std::size_t>(coarse)] = true;
      }
    }
  } else {
    std::string valid;
    for (const auto& n : fashion_mnist_hierarchy_names()) valid += (valid.empty() ? "" : ", ") + n;
    throw InvalidArgument("hierarchy", "must be one of " + valid + "; got '" + name + "'");
  }
  return h;
}

std::vector<int> coarse_labels(const LabelHierarchy& h, const std::vector<int>& fine_labels) {
  std::vector<int> out;
  out.reserve(fine_labels.size());
  for (int fine : fine_labels) {
    if (fine < 0 || fine >= h.num_fine()) {
      throw InvalidArgument("labels", "fine label " + std::to_string(fine) + " is outside 0.." + std::to_string(h.num_fine() - 1));
    }
    out.push_back(h.coarse_of_fine[static_cast<std::size_t>(fine)]);
  }
  return out;
}

std::vector<std::size_t> kept_indices(const LabelHierarchy& h, const std::vector<int>& fine_labels, std::uint64_t seed) {
  coarse_labels(h, fine_labels);  // validates the labels
  std::vector<std::vector<std::size_t>> by_fine(static_cast<std::size_t>(h.num_fine()));
  for (std::size_t i = 0; i < fine_labels.size(); ++i) by_fine[static_cast<std::size_t>(fine_labels[i])].push_back(i);
  Rng rng(seed);
  std::vector<std::size_t> kept;
  for (std::size_t fine = 0; fine < by_fine.size(); ++fine) {
    auto& idx = by_fine[fine];
    rng.shuffle(idx);
    const auto keep = static_cast<std::size_t>(std::llround(h.keep_fraction[fine] * static_cast<double>(idx.size())));
    kept.insert(kept.end(), idx.begin(), idx.begin() + static_cast<std::ptrdiff_t>(keep));
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

}  // namespace geomsim::train
