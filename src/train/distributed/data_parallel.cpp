#include "geomsim/train/distributed/data_parallel.hpp"

#include <algorithm>
#include <unordered_set>
#include <utility>

namespace geomsim::train {
namespace {

// The context, kept alive in the autograd graph until the gather's backward has run.
struct ContextHolder : torch::CustomClassHolder {
  explicit ContextHolder(DistributedContext c) : context(std::move(c)) {}
  DistributedContext context;
};

// Forward: the rank-major all-gather. Backward: the sum over ranks of the incoming gradient,
// this rank's rows of it (data_parallel.hpp derives why).
class GatherWithGradient : public torch::autograd::Function<GatherWithGradient> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* autograd, const torch::Tensor& local,
                               const c10::intrusive_ptr<ContextHolder>& holder) {
    autograd->saved_data["context"] = c10::IValue::make_capsule(holder);
    autograd->saved_data["rows"] = local.size(0);
    return holder->context.all_gather(local, "all-gather of embeddings");
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* autograd,
                                                 torch::autograd::variable_list gradients) {
    const auto holder = c10::static_intrusive_pointer_cast<ContextHolder>(autograd->saved_data["context"].toCapsule());
    const int64_t rows = autograd->saved_data["rows"].toInt();
    auto total = gradients[0].clone(at::MemoryFormat::Contiguous);
    holder->context.all_reduce_(total, ReduceOperation::sum, "all-reduce of embedding gradients");
    return {total.narrow(0, holder->context.rank() * rows, rows), torch::Tensor()};
  }
};

// Tensors cut into runs of one dtype and device, each at most `bucket_bytes` (a larger tensor
// alone), in their order.
std::vector<std::vector<std::size_t>> buckets_of(const std::vector<torch::Tensor>& tensors, int64_t bucket_bytes) {
  std::vector<std::vector<std::size_t>> buckets;
  int64_t bytes = 0;
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    const auto& t = tensors[i];
    const auto size = static_cast<int64_t>(t.numel() * t.element_size());
    const bool fits = !buckets.empty() && bytes + size <= bucket_bytes &&
                      tensors[buckets.back().front()].scalar_type() == t.scalar_type() &&
                      tensors[buckets.back().front()].device() == t.device();
    if (!fits) {
      buckets.emplace_back();
      bytes = 0;
    }
    buckets.back().push_back(i);
    bytes += size;
  }
  return buckets;
}

std::vector<torch::Tensor> weights_of(const torch::nn::Module& module) {
  std::vector<torch::Tensor> tensors = module.parameters();
  for (const auto& buffer : module.buffers()) tensors.push_back(buffer);
  return tensors;
}

// The integer type with the width of a floating type, to compare values bit for bit.
torch::ScalarType bits_type(torch::ScalarType type) {
  switch (c10::elementSize(type)) {
    case 1: return torch::kUInt8;
    case 2: return torch::kInt16;
    case 4: return torch::kInt32;
    default: return torch::kInt64;
  }
}

}  // namespace

int64_t local_batch_size(int world_size, int64_t global_batch_size) {
  if (global_batch_size < world_size || global_batch_size % world_size != 0) {
    throw InvalidArgument("batch-size", "must be a multiple of the world size " + std::to_string(world_size) +
                                            " (each rank takes an equal share of the global batch), got " +
                                            std::to_string(global_batch_size));
  }
  return global_batch_size / world_size;
}

int64_t local_batch_size(const DistributedContext& context, int64_t global_batch_size) {
  return local_batch_size(context.world_size(), global_batch_size);
}

torch::Tensor shard_rows(const DistributedContext& context, const torch::Tensor& global_batch) {
  const int64_t b = local_batch_size(context, global_batch.size(0));
  return global_batch.narrow(0, context.rank() * b, b);
}

RowRange uneven_shard(const DistributedContext& context, int64_t rows) {
  require_at_least("rows", rows, 0);
  const int64_t w = context.world_size(), r = context.rank();
  const int64_t first = rows * r / w;
  return {first, rows * (r + 1) / w - first};
}

torch::Tensor gather_row_shards(const DistributedContext& context, int64_t rows,
                                const std::function<torch::Tensor(int64_t first, int64_t count)>& compute) {
  require_at_least("rows", rows, 1);
  if (!context.distributed()) return compute(0, rows);
  const int64_t w = context.world_size(), per = (rows + w - 1) / w;
  // Rank r owns rows [r per, min((r + 1) per, rows)) and computes the `per` rows from start(r):
  // its own, extended backwards where the last ranks own fewer (or none).
  const auto start = [&](int64_t r) { return std::min(r * per, rows - per); };
  const auto mine = compute(start(context.rank()), per).to(context.device()).contiguous();
  if (mine.dim() == 0 || mine.size(0) != per) {
    throw InvalidArgument("rows", "the shard's computation must return one row per input row (" + std::to_string(per) + ")");
  }
  const auto gathered = context.all_gather(mine, "all-gather of evaluated rows");  // [W per x ...], rank-major
  std::vector<int64_t> order;
  order.reserve(static_cast<std::size_t>(rows));
  for (int64_t r = 0; r < w; ++r) {
    for (int64_t i = r * per; i < std::min((r + 1) * per, rows); ++i) order.push_back(r * per + (i - start(r)));
  }
  return gathered.index_select(0, torch::tensor(order, torch::kLong).to(gathered.device()));
}

torch::Tensor global_value_local_gradient(const torch::Tensor& global, const torch::Tensor& local) {
  return global.detach() + (local - local.detach());
}

torch::Tensor all_gather_with_grad(const DistributedContext& context, const torch::Tensor& local) {
  if (!context.distributed()) return local;
  if (local.dim() == 0) throw InvalidArgument("embeddings", "must have at least one dimension (rows) to gather");
  return GatherWithGradient::apply(local, c10::make_intrusive<ContextHolder>(context));
}

torch::Tensor view_major_order(int world_size, int64_t local_rows, int64_t views) {
  require_at_least("views", views, 1);
  if (local_rows % views != 0) {
    throw InvalidArgument("views", "must divide the local rows " + std::to_string(local_rows) + ", got " +
                                       std::to_string(views));
  }
  const int64_t b = local_rows / views;
  auto order = torch::empty({world_size * local_rows}, torch::kInt64);
  auto* out = order.data_ptr<int64_t>();
  for (int64_t v = 0; v < views; ++v) {
    for (int64_t r = 0; r < world_size; ++r) {
      for (int64_t i = 0; i < b; ++i) *out++ = r * local_rows + v * b + i;
    }
  }
  return order;
}

torch::Tensor gather_views_with_grad(const DistributedContext& context, const torch::Tensor& local, int64_t views) {
  const auto order = view_major_order(context.world_size(), local.dim() > 0 ? local.size(0) : 0, views);
  if (!context.distributed()) return local;  // the order is the identity
  return all_gather_with_grad(context, local).index_select(0, order.to(local.device()));
}

void all_reduce_gradients(const DistributedContext& context, const std::vector<torch::Tensor>& parameters,
                          const GradientReduceOptions& options) {
  if (!context.distributed()) return;
  require_at_least("bucket-bytes", options.bucket_bytes, 1);
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> trained;
  std::unordered_set<const void*> seen;  // a parameter shared by two modules is reduced once
  for (const auto& p : parameters) {
    if (p.requires_grad() && seen.insert(p.unsafeGetTensorImpl()).second) trained.push_back(p);
  }
  const auto buckets = buckets_of(trained, options.bucket_bytes);
  std::vector<torch::Tensor> flats;
  for (const auto& bucket : buckets) {
    std::vector<torch::Tensor> pieces;
    for (const auto i : bucket) {
      const auto& grad = trained[i].grad();
      pieces.push_back(grad.defined() ? grad.reshape(-1) : torch::zeros({trained[i].numel()}, trained[i].options()));
    }
    flats.push_back(torch::cat(pieces));
  }
  context.all_reduce_(flats, ReduceOperation::sum, "all-reduce of parameter gradients");
  for (std::size_t k = 0; k < buckets.size(); ++k) {
    if (options.reduction == GradientReduction::mean) flats[k].div_(context.world_size());
    int64_t offset = 0;
    for (const auto i : buckets[k]) {
      auto& p = trained[i];
      const auto reduced = flats[k].narrow(0, offset, p.numel()).view(p.sizes());
      if (p.grad().defined()) {
        p.mutable_grad().copy_(reduced);
      } else {
        p.mutable_grad() = reduced.clone();
      }
      offset += p.numel();
    }
  }
}

void all_reduce_gradients(const DistributedContext& context, const torch::nn::Module& module,
                          const GradientReduceOptions& options) {
  all_reduce_gradients(context, module.parameters(), options);
}

void broadcast_parameters(const DistributedContext& context, torch::nn::Module& module, int root) {
  if (!context.distributed()) return;
  torch::NoGradGuard no_grad;
  auto tensors = weights_of(module);
  for (const auto& bucket : buckets_of(tensors, GradientReduceOptions().bucket_bytes)) {
    std::vector<torch::Tensor> pieces;
    for (const auto i : bucket) pieces.push_back(tensors[i].reshape(-1));
    auto flat = torch::cat(pieces);
    context.broadcast_(flat, root, "broadcast of parameters");
    int64_t offset = 0;
    for (const auto i : bucket) {
      tensors[i].copy_(flat.narrow(0, offset, tensors[i].numel()).view(tensors[i].sizes()));
      offset += tensors[i].numel();
    }
  }
}

WeightAgreement compare_weights_across_ranks(const DistributedContext& context, const torch::nn::Module& module) {
  torch::NoGradGuard no_grad;
  WeightAgreement agreement;
  const auto tensors = weights_of(module);
  for (const auto& t : tensors) agreement.values += t.numel();
  if (!context.distributed()) return agreement;
  auto counts = torch::zeros({1}, torch::TensorOptions(torch::kInt64).device(context.device()));
  auto largest = torch::zeros({1}, torch::TensorOptions(torch::kFloat64).device(context.device()));
  for (const auto& bucket : buckets_of(tensors, GradientReduceOptions().bucket_bytes)) {
    std::vector<torch::Tensor> pieces;
    for (const auto i : bucket) pieces.push_back(tensors[i].reshape(-1));
    const auto mine = torch::cat(pieces);
    auto reference = mine.clone();
    context.broadcast_(reference, 0, "weight comparison");
    const auto type = mine.scalar_type();
    const bool floating = torch::isFloatingType(type);
    const auto differ = floating ? mine.view(bits_type(type)).ne(reference.view(bits_type(type))) : mine.ne(reference);
    counts += differ.sum();
    if (mine.numel() > 0) {
      largest = torch::maximum(largest, (mine.to(torch::kFloat64) - reference.to(torch::kFloat64)).abs().max().reshape({1}));
    }
  }
  context.all_reduce_(counts, ReduceOperation::sum, "weight comparison");
  context.all_reduce_(largest, ReduceOperation::max, "weight comparison");
  agreement.differing_values = counts.cpu().item<int64_t>();
  agreement.max_abs_difference = largest.cpu().item<double>();
  return agreement;
}

std::vector<int64_t> values_of_rank0(const DistributedContext& context, const std::vector<int64_t>& values, const std::string& what) {
  if (!context.distributed() || values.empty()) return values;
  auto shared = torch::tensor(values, torch::kLong).to(context.device());
  context.broadcast_(shared, 0, what);
  shared = shared.to(torch::kCPU).contiguous();
  return std::vector<int64_t>(shared.data_ptr<int64_t>(), shared.data_ptr<int64_t>() + shared.numel());
}

void require_identical_weights(const DistributedContext& context, const torch::nn::Module& module, const std::string& what) {
  if (!context.distributed()) return;
  const WeightAgreement agreement = compare_weights_across_ranks(context, module);
  if (!agreement.identical()) {
    throw ComputationFailed("the data-parallel ranks ended with different weights of the " + what + " (" +
                            std::to_string(agreement.differing_values) + " values differ, by up to " +
                            format_number(agreement.max_abs_difference) + "): a bug, please report it");
  }
}

}  // namespace geomsim::train
