#pragma once
// Just Train Twice (JTT, Liu et al. 2021): train an ERM model for a few epochs, take its error
// set E (the training examples it misclassifies), then train the final model by ERM on the
// training set with every example of E upsampled lambda_up times.
#include <cstdint>
#include <torch/torch.h>
#include <vector>

#include "geomsim/train/robustness/robust_training.hpp"

namespace geomsim::train {

// The indices (ascending) of the examples `model` misclassifies. With a data-parallel job, the
// predictions are sharded over its ranks (predict) and every rank gets the whole set.
std::vector<int64_t> error_set(Classifier& model, const torch::Tensor& images, const torch::Tensor& labels,
                               const DistributedContext& job = DistributedContext());

// Each example's copies per epoch for EndModelData::repeats: upweight for the examples of the
// error set, 1 for the others. Throws InvalidArgument("jtt-upweight") unless upweight >= 1, and
// for an index outside 0..n-1.
std::vector<int64_t> upsampling_repeats(int64_t n, const std::vector<int64_t>& errors, int64_t upweight);

}  // namespace geomsim::train
