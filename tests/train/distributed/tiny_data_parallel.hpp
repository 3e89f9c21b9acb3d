#pragma once
// A tiny data-parallel training run shared by the distributed tests and their worker program:
// a two-layer encoder (8 -> 16 -> 4, unit rows) trained with SupCon L_out on the gathered
// global batch (two views of each sample), AdamW, for a few steps on deterministic data. Run
// on W ranks it must end where one process ends on the same global batches.
#include <string>

#include <torch/torch.h>

#include "geomsim/train/distributed/data_parallel.hpp"

namespace geomsim::train::testing {

struct TinyRun {
  torch::Dtype dtype = torch::kFloat32;
  int64_t steps = 6;
  int64_t global_batch = 16;   // samples per step, two views each
  double learning_rate = 0.05;
  int64_t die_at_step = -1;    // rank 1 SIGKILLs itself at this step (before the gather)
  int64_t stall_at_step = -1;  // rank 1 stops answering (sleeps) at this step
};

struct TinyResult {
  torch::Tensor weights;       // every parameter, flattened, in the run's dtype
  double last_loss = 0.0;
  WeightAgreement agreement;   // across ranks, at the end
};

// Rank r initialises its model from seed 100 + r, then takes rank 0's weights by
// broadcast_parameters: one process (rank 0) starts from the same weights.
TinyResult train_tiny(const DistributedContext& context, const TinyRun& run);

}  // namespace geomsim::train::testing
