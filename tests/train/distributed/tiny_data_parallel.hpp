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
  // > 0: adds this weight x a term on the local shard alone, the mean over this rank's rows of
  // the squared norm of the features before normalisation (as a reconstruction or
  // cross-entropy term would be), to check that it composes with the gathered loss.
  double local_weight = 0.0;
  // AdamW does not see a constant factor on the gradient (it divides by sqrt(v)); SGD does.
  bool sgd = false;
  // The gradients' reduction over ranks: the mean is right (data_parallel.hpp); the sum is
  // there to show that the tests would see a wrong scale.
  GradientReduction reduction = GradientReduction::mean;
  int64_t die_at_step = -1;    // rank 1 SIGKILLs itself at this step (before the gather)
  int64_t stall_at_step = -1;  // rank 1 stops answering (sleeps) at this step
  int64_t die_in_backward_at_step = -1;  // rank 1 SIGKILLs itself after the gather, before the backward
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
