#include "train/distributed/tiny_data_parallel.hpp"

#include <signal.h>

#include <chrono>
#include <memory>
#include <thread>

#include "geomsim/train/losses/contrastive_losses.hpp"

namespace geomsim::train::testing {

TinyResult train_tiny(const DistributedContext& context, const TinyRun& run) {
  torch::manual_seed(static_cast<uint64_t>(100 + context.rank()));
  torch::nn::Sequential model(torch::nn::Linear(8, 16), torch::nn::Tanh(), torch::nn::Linear(16, 4));
  model->to(run.dtype);
  broadcast_parameters(context, *model);
  std::unique_ptr<torch::optim::Optimizer> optimizer;
  if (run.sgd) {
    optimizer = std::make_unique<torch::optim::SGD>(model->parameters(), torch::optim::SGDOptions(run.learning_rate));
  } else {
    optimizer = std::make_unique<torch::optim::AdamW>(model->parameters(),
                                                      torch::optim::AdamWOptions(run.learning_rate).weight_decay(1e-2));
  }
  GradientReduceOptions reduce;
  reduce.reduction = run.reduction;

  // The data of every step, the same on every rank (drawn in float64, then cast, so that the
  // float32 and float64 runs see the same numbers up to rounding).
  torch::manual_seed(7);
  const int64_t rows = run.steps * run.global_batch;
  const auto x = torch::randn({rows, 8}, torch::kFloat64).to(run.dtype);
  const auto jitter0 = (0.1 * torch::randn({rows, 8}, torch::kFloat64)).to(run.dtype);
  const auto jitter1 = (0.1 * torch::randn({rows, 8}, torch::kFloat64)).to(run.dtype);
  const auto labels = torch::arange(rows, torch::kInt64).remainder(4);

  TinyResult result;
  for (int64_t step = 0; step < run.steps; ++step) {
    const int64_t first = step * run.global_batch;
    const auto batch = x.narrow(0, first, run.global_batch);
    const auto view0 = shard_rows(context, batch + jitter0.narrow(0, first, run.global_batch));
    const auto view1 = shard_rows(context, batch + jitter1.narrow(0, first, run.global_batch));
    const auto global_labels = labels.narrow(0, first, run.global_batch);
    const auto features = model->forward(torch::cat({view0, view1}));
    const auto z_local = torch::nn::functional::normalize(features, torch::nn::functional::NormalizeFuncOptions().dim(1));
    if (context.rank() == 1 && step == run.die_at_step) ::raise(SIGKILL);
    if (context.rank() == 1 && step == run.stall_at_step) std::this_thread::sleep_for(std::chrono::hours(1));
    const auto z = gather_views_with_grad(context, z_local, 2);
    if (context.rank() == 1 && step == run.die_in_backward_at_step) ::raise(SIGKILL);
    auto loss = supcon_out_loss(z, torch::cat({global_labels, global_labels}), 0.5);
    if (run.local_weight > 0.0) loss = loss + run.local_weight * features.pow(2).sum(1).mean();
    optimizer->zero_grad();
    loss.backward();
    all_reduce_gradients(context, model->parameters(), reduce);
    optimizer->step();
    result.last_loss = loss.item<double>();
  }
  std::vector<torch::Tensor> pieces;
  for (const auto& p : model->parameters()) pieces.push_back(p.detach().reshape(-1));
  result.weights = torch::cat(pieces);
  result.agreement = compare_weights_across_ranks(context, *model);
  return result;
}

}  // namespace geomsim::train::testing
