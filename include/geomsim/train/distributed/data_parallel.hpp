#pragma once
// Data-parallel training on a DistributedContext: what an epoch loop calls so that W ranks,
// each with a shard of every global batch, train as one process would on the global batch.
//
// The loop, on every rank (world size 1: every call below is free and changes nothing):
//   start        DistributedContext context = DistributedContext::from_environment({timeout, device});
//                build the model and optimizer from the same seed on every rank, then
//                broadcast_parameters(context, model)             rank 0's initial weights everywhere
//   each step    draw the global batch (the same seed schedule on every rank: same indices,
//                same labels), take this rank's rows:
//                  int64_t b = local_batch_size(context, global_batch);   InvalidArgument("batch-size")
//                  auto mine = shard_rows(context, global_indices);       rows [rank b, (rank + 1) b)
//                augment and embed this rank's samples only, their views stacked as the
//                one-process loop stacks them ([view 0 of its b samples; view 1 of them]); for
//                runs that match one process draw each sample's augmentation from a generator
//                seeded by (seed, epoch, sample index), not from one stream per rank; then
//                  auto z = gather_views_with_grad(context, z_local, 2);  [2 W b x d], the one-process order
//                  auto loss = supcon_out_loss(z, global_labels_twice, tau);   every rank: the same value
//                  loss.backward();
//                  all_reduce_gradients(context, parameters);             the mean over ranks (see below)
//                  optimizer.step();
//   checkpoint   if (context.is_main()) write it;  context.barrier("checkpoint") if others read it next.
//
// The algebra. Let L be a loss on the gathered global batch Z = [z_0; ...; z_{W-1}] (z_r the
// rows rank r computed from its parameters' copy), a mean over the global batch. Every rank
// computes the same L from the same Z. On rank r autograd reaches the parameters only through
// z_r, so the gather's backward must hand z_r the gradient dL/dz_r = (dL/dZ)_r. Its incoming
// gradient G_k = dL/dZ is the same on every rank k, and the backward returns this rank's rows of
// the SUM over ranks: (sum_k G_k)_r = W (dL/dZ)_r. Rank r's parameter gradient is then
// W * g_r, where g_r = (dL/dZ)_r dz_r/dtheta is the part of the one-process gradient that flows
// through rank r's samples. Averaging over ranks gives (1/W) sum_r W g_r = sum_r g_r = dL/dtheta:
// the one-process gradient on the global batch. So: GradientReduction::mean (DDP's default).
// The same mean makes a loss term computed on the local shard alone (a cross-entropy head, a
// reconstruction loss: a mean over the b local samples) the mean over the global batch, so the
// two kinds of term may be added in one loss. (Were each rank to compute only its own anchors'
// share of a sum over the global batch, the G_k would differ, the all-reduce would sum the
// shares, and GradientReduction::sum would be the right choice.)
// In floating point, with W = 2, the sum of the two equal G_k (2 G) and the division by W are
// exact, and every rank ends with the same bits (Gloo's sum of two numbers is the same in
// either order). What differs from a one-process run is the order of the batch sums inside the
// backward (each rank sums over its b rows, the all-reduce adds the partial sums): a few units
// of the dtype's epsilon per step (the tests: 2.5e-7 relative in float32 after 6 AdamW steps,
// 5.6e-16 in float64).
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <torch/torch.h>

#include "geomsim/train/distributed/distributed_context.hpp"

namespace geomsim::train {

// --- the global batch and this rank's shard --------------------------------------------------

// b = global_batch_size / world size. InvalidArgument("batch-size") when it does not divide or
// is < world size.
int64_t local_batch_size(const DistributedContext& context, int64_t global_batch_size);
int64_t local_batch_size(int world_size, int64_t global_batch_size);
// Rows [rank b, (rank + 1) b) of `global_batch` (dim 0 = world * b), a view.
torch::Tensor shard_rows(const DistributedContext& context, const torch::Tensor& global_batch);

// Rows [first, first + count) of a global batch of `rows` for this rank when the batch need not
// divide evenly (an end model's last batch): rank r takes [r rows / W, (r + 1) rows / W), so the
// counts differ by at most one and a rank may get none (rows < W). A loss that is a mean over
// the global batch is then each rank's sum over its rows divided by `rows`, its gradients
// reduced with GradientReduction::sum.
struct RowRange {
  int64_t first = 0, count = 0;
};
RowRange uneven_shard(const DistributedContext& context, int64_t rows);

// f on every row of a data set of `rows` rows, computed in shards and gathered: rank r calls
// compute(first, count) on about rows / W rows (every rank the same count, ceil(rows / W), the
// last ranks' ranges moved back so that they end at `rows`, as all_gather needs one shape) and
// every rank gets the [rows x ...] result in row order, on the context's device. compute returns
// [count x ...] (the same trailing shape and dtype on every rank). World size 1: compute(0, rows)
// itself. rows >= 1. For evaluation (predictions, embeddings) spread over the ranks.
torch::Tensor gather_row_shards(const DistributedContext& context, int64_t rows,
                                const std::function<torch::Tensor(int64_t first, int64_t count)>& compute);

// --- the embeddings a contrastive loss sees ---------------------------------------------------

// Every rank's `local` [b x ...] stacked in rank order, [W b x ...], differentiable: the
// backward all-reduces (sums) the incoming gradient and returns this rank's rows (see the
// algebra above). World size 1: `local` itself.
torch::Tensor all_gather_with_grad(const DistributedContext& context, const torch::Tensor& local);
// For `local` made of `views` blocks of b rows each ([view 0 of the b samples; view 1; ...]):
// the gathered rows reordered view by view, [view 0 of rank 0's samples, of rank 1's, ...;
// view 1 ...]. With rank r holding global samples [r b, (r + 1) b), this is the layout a
// one-process loop builds from the global batch, so two_view_partners(W b) and the labels of the
// global batch, repeated per view, apply unchanged. Differentiable.
torch::Tensor gather_views_with_grad(const DistributedContext& context, const torch::Tensor& local, int64_t views);
// The row order gather_views_with_grad applies to the rank-major gather: entry i is the
// rank-major row that goes to row i. int64, on the CPU.
torch::Tensor view_major_order(int world_size, int64_t local_rows, int64_t views);

// The loss a rank returns when the loss's value is the global batch's (`global`, the same on
// every rank, e.g. all-reduced) and its gradient this rank's share (`local`): global's value
// exactly, local's gradient.
torch::Tensor global_value_local_gradient(const torch::Tensor& global, const torch::Tensor& local);

// --- gradients and weights ---------------------------------------------------------------------

enum class GradientReduction { mean, sum };

struct GradientReduceOptions {
  GradientReduction reduction = GradientReduction::mean;  // the choice for a loss on the gathered batch
  // Gradients are flattened into buckets of at most this many bytes, one all-reduce each (a
  // parameter larger than it gets a bucket of its own). DDP's default, 25 MiB: one bucket for
  // this tool's encoders (the CNN's 0.44 M weights are 1.7 MiB in float32).
  int64_t bucket_bytes = int64_t{25} << 20;
};

// All-reduces the gradients of `parameters` (those that require a gradient, each once however
// often it is listed; the same list on every rank) in buckets, all started before the first is
// waited for, then writes them back:
// the mean (or sum) over ranks. A parameter without a gradient on this rank counts as zeros and
// gets the result as its gradient, so that every rank's buckets line up. World size 1: nothing.
void all_reduce_gradients(const DistributedContext& context, const std::vector<torch::Tensor>& parameters,
                          const GradientReduceOptions& options = {});
void all_reduce_gradients(const DistributedContext& context, const torch::nn::Module& module,
                          const GradientReduceOptions& options = {});

// Rank `root`'s parameters and buffers written into every rank's module (in buckets, as above).
// The modules must have the same structure. Call after building the model, before the
// optimizer's first step.
void broadcast_parameters(const DistributedContext& context, torch::nn::Module& module, int root = 0);

// Rank 0's `values` on every rank (a broadcast: the same count on every rank; world size 1:
// `values`). For the choices a rank makes from what it reads itself (which runs a cache holds,
// which clusters it found) that every rank must make alike. `what` names it in messages.
std::vector<int64_t> values_of_rank0(const DistributedContext& context, const std::vector<int64_t>& values, const std::string& what);

// How far the ranks' weights (parameters and buffers) are from rank 0's.
struct WeightAgreement {
  int64_t values = 0;             // on one rank
  int64_t differing_values = 0;   // values whose bits differ from rank 0's, summed over ranks
  double max_abs_difference = 0;  // over ranks and values
  bool identical() const { return differing_values == 0; }
};
// A collective: every rank must call it, and every rank gets the same answer. For tests and
// for a check after resuming from a checkpoint.
WeightAgreement compare_weights_across_ranks(const DistributedContext& context, const torch::nn::Module& module);
// The end of a data-parallel run: every rank applied the same reduced gradients to the same
// weights, so their bits must agree. Throws ComputationFailed (a bug) naming `what` and how far
// they are apart when they do not. A collective; world size 1: nothing.
void require_identical_weights(const DistributedContext& context, const torch::nn::Module& module, const std::string& what);

}  // namespace geomsim::train
