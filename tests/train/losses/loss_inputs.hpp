#pragma once
// Inputs the loss tests share: random unit rows, and the names of the losses on one batch.
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "geomsim/train/losses/loss_registry.hpp"

namespace geomsim::train::testing {

// n random rows of R^d (float64, from torch's generator seeded with `seed`) scaled to unit length.
inline torch::Tensor unit_rows(int64_t n, int64_t d, uint64_t seed) {
  torch::manual_seed(seed);
  return torch::nn::functional::normalize(torch::randn({n, d}, torch::kDouble), torch::nn::functional::NormalizeFuncOptions().dim(1));
}

// The registry's losses that take one batch of embeddings (LossEntry::batch).
inline std::vector<std::string> batch_loss_names() {
  std::vector<std::string> names;
  for (const auto& entry : loss_registry()) {
    if (entry.batch != nullptr) names.push_back(entry.name);
  }
  return names;
}

}  // namespace geomsim::train::testing
