#pragma once
// Torch tensors in the core's types: embeddings as points (the core's d x N column layout) and
// label tensors as integer vectors, for the core's metrics.
#include <torch/torch.h>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::train {

// N x d embeddings (any floating dtype, any device) as the d x N matrix of the core (float64).
Matrix to_points(const torch::Tensor& embeddings);

// A 1-D integer tensor (any device) as ints.
std::vector<int> to_ints(const torch::Tensor& values);
// A tensor's values (any numeric dtype, any device), flattened, as doubles.
std::vector<double> to_doubles(const torch::Tensor& values);

}  // namespace geomsim::train
