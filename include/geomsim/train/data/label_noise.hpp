#pragma once
// Symmetric label noise for seed 000's noisy-label experiments (§5.3: "we introduce noisy labels
// to the contrastive loss head"; Appendix E.3.2: "introduce symmetric noise into the labels for
// the contrastive loss head"): each label, with probability `rate`, is replaced by one of the
// other num_classes - 1 labels, uniformly. With two classes that is a flip, and a label is then
// correct with probability 1 - rate: seed 000's p~ (theory/label_noise_debiasing.hpp).
// Deterministic: the draws come from a CPU generator seeded with `seed`, the same bits on any
// device; the result is on the labels' device.
#include <torch/torch.h>

#include <cstdint>

namespace geomsim::train {

// labels: N int64 in [0, num_classes). Throws InvalidArgument naming "label-noise" (rate outside
// [0, 1]), "labels" (not 1-D, or out of range) and "classes" (below 2 with a positive rate).
torch::Tensor symmetric_label_noise(const torch::Tensor& labels, int64_t num_classes, double rate, std::uint64_t seed);

}  // namespace geomsim::train
