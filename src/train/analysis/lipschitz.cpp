#include "geomsim/train/analysis/lipschitz.hpp"

#include <torch/fft.h>

#include <cmath>
#include <map>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim::train {
namespace {

void check_pairs(const torch::Tensor& a, const torch::Tensor& b) {
  if (a.dim() < 2 || !a.sizes().equals(b.sizes()) || a.size(0) == 0) {
    throw InvalidArgument("pairs", "need two equal-shaped batches of at least one input");
  }
}

torch::Tensor row_distance(const torch::Tensor& a, const torch::Tensor& b) {
  return (a - b).flatten(1).to(torch::kDouble).norm(2, 1);
}

// The scatter of (input, output) distances and its largest ratio; pairs at input distance 0 dropped.
PairScatter scatter(const torch::Tensor& input_distance, const torch::Tensor& output_distance) {
  PairScatter s;
  const auto in = input_distance.to(torch::kCPU).contiguous(), out = output_distance.to(torch::kCPU).contiguous();
  for (int64_t i = 0; i < in.size(0); ++i) {
    const double x = in[i].item<double>(), y = out[i].item<double>();
    if (!(x > 0.0)) continue;
    s.input_distance.push_back(x);
    s.output_distance.push_back(y);
    s.constant = std::max(s.constant, y / x);
  }
  return s;
}

// Rows of t scaled to unit norm (over all but the first dimension).
torch::Tensor unit_rows(const torch::Tensor& t) {
  auto shape = std::vector<int64_t>(static_cast<std::size_t>(t.dim()), 1);
  shape[0] = t.size(0);
  return t / t.flatten(1).norm(2, 1).clamp_min(1e-300).view(shape);
}

}  // namespace

std::pair<torch::Tensor, torch::Tensor> same_label_pairs(const torch::Tensor& labels, int64_t count, uint64_t seed) {
  require_at_least("pairs", count, 1);
  if (labels.dim() != 1) throw InvalidArgument("labels", "must be a vector");
  const auto l = labels.to(torch::kLong).contiguous();
  std::map<int64_t, std::vector<int64_t>> members;
  for (int64_t i = 0; i < l.size(0); ++i) members[l[i].item<int64_t>()].push_back(i);
  std::vector<int64_t> eligible;  // the first index is drawn from these: labels weighted by size
  for (const auto& [label, rows] : members) {
    if (rows.size() >= 2) eligible.insert(eligible.end(), rows.begin(), rows.end());
  }
  if (eligible.empty()) throw InvalidArgument("labels", "have no label with two or more members to pair");
  Rng rng(seed);
  std::vector<int64_t> first, second;
  for (int64_t p = 0; p < count; ++p) {
    const int64_t i = eligible[static_cast<std::size_t>(rng.uniform_index(eligible.size()))];
    const auto& rows = members[l[i].item<int64_t>()];
    int64_t j = i;
    while (j == i) j = rows[static_cast<std::size_t>(rng.uniform_index(rows.size()))];
    first.push_back(i);
    second.push_back(j);
  }
  return {torch::tensor(first), torch::tensor(second)};
}

PairScatter encoder_ratio_estimate(EmbeddingModel& model, const torch::Tensor& a, const torch::Tensor& b) {
  check_pairs(a, b);
  torch::NoGradGuard no_grad;
  const auto fa = model.forward(a), fb = model.forward(b);
  return scatter(row_distance(a, b), row_distance(fa, fb));
}

PairScatter decoder_reverse_estimate(Autoencoder autoencoder, const torch::Tensor& a, const torch::Tensor& b,
                                     const torch::Tensor& labels) {
  if (!autoencoder) throw InvalidArgument("checkpoint", "has no autoencoder: K_g needs a THANOS checkpoint of geomsim train");
  check_pairs(a, b);
  if (labels.dim() != 1 || labels.size(0) != a.size(0)) throw InvalidArgument("labels", "must give one class per pair");
  torch::NoGradGuard no_grad;
  autoencoder->eval();
  const auto dtype = autoencoder->parameters().front().scalar_type();
  const auto x = a.to(dtype), y = b.to(dtype);
  const auto za = autoencoder->encode(x), zb = autoencoder->encode(y);
  const auto ra = autoencoder->reconstruct(x, labels), rb = autoencoder->reconstruct(y, labels);
  // Plotted as in Figure 3: decoded-image distance on the x axis, latent distance on the y axis.
  return scatter(row_distance(ra, rb), row_distance(za, zb));
}

AugmentationScatter augmentation_estimate(EmbeddingModel& model, const torch::Tensor& a, const torch::Tensor& b,
                                          const AugmentationOptions& options, int augmentations, uint64_t seed) {
  check_pairs(a, b);
  require_at_least("augmentations", augmentations, 1);
  torch::NoGradGuard no_grad;
  torch::manual_seed(seed);
  std::vector<torch::Tensor> inputs, outputs;
  for (int k = 0; k < augmentations; ++k) {
    const auto [x, y] = augment_identically(a, b, options);
    inputs.push_back(row_distance(x, y));
    outputs.push_back(row_distance(model.forward(x), model.forward(y)));
  }
  const auto in = torch::stack(inputs, 1), out = torch::stack(outputs, 1);  // pairs x augmentations
  // A pair whose augmented images coincide has no ratio: it never wins the min or the max.
  const auto ratio = out / in;
  const auto valid = in.gt(0);
  const auto pick = [&](bool smallest) {
    const auto masked = torch::where(valid, ratio, torch::full_like(ratio, smallest ? INFINITY : -INFINITY));
    const auto k = smallest ? masked.argmin(1, true) : masked.argmax(1, true);
    const auto keep = valid.any(1);
    return scatter(in.gather(1, k).squeeze(1).index({keep}), out.gather(1, k).squeeze(1).index({keep}));
  };
  return {pick(true), pick(false)};
}

JacobianBound jacobian_lower_bound(EmbeddingModel& model, const torch::Tensor& x, int max_iterations, double tolerance,
                                   uint64_t seed) {
  require_at_least("iterations", max_iterations, 1);
  if (x.dim() < 2 || x.size(0) == 0) throw InvalidArgument("points", "need a batch of at least one input");
  torch::manual_seed(seed);
  const auto input = x.to(model.dtype()).detach().requires_grad_(true);  // image-shaped; forward() flattens if asked
  const auto y = model.forward(input);
  JacobianBound out;
  out.points = x.size(0);
  // A map that does not depend on its input (a constant model: a fully collapsed encoder) has
  // the Jacobian 0; autograd has no graph from it to the input.
  const auto constant = [&] { return out; };
  if (!y.requires_grad()) return constant();
  const auto u = torch::zeros_like(y).requires_grad_(true);
  // g(u) = J^T u, built with a graph so that its derivative in u, J v, is one more backward pass.
  const auto g = torch::autograd::grad({y}, {input}, {u}, /*retain_graph=*/true, /*create_graph=*/true, /*allow_unused=*/true)[0];
  if (!g.defined() || !g.requires_grad()) return constant();
  auto v = unit_rows(torch::randn_like(input));
  torch::Tensor sigma = torch::zeros({x.size(0)}, input.options().dtype(torch::kDouble));
  for (int it = 1; it <= max_iterations; ++it) {
    const auto Jv = torch::autograd::grad({g}, {u}, {v}, /*retain_graph=*/true)[0];
    const auto next = Jv.flatten(1).to(torch::kDouble).norm(2, 1);  // |J v| <= sigma_max for unit v
    const auto JtJv = torch::autograd::grad({y}, {input}, {Jv}, /*retain_graph=*/true)[0];
    out.iterations = it;
    const bool settled = ((next - sigma).abs() <= tolerance * next.abs()).all().item<bool>();
    sigma = torch::maximum(sigma, next);
    if (settled) break;
    v = unit_rows(JtJv.detach());
  }
  out.max = sigma.max().item<double>();
  out.mean = sigma.mean().item<double>();
  return out;
}

std::pair<double, int> affine_operator_norm(const std::function<torch::Tensor(const torch::Tensor&)>& map,
                                            const torch::Tensor& example, int max_iterations, double tolerance,
                                            uint64_t seed) {
  torch::manual_seed(seed);
  const auto zero = torch::zeros_like(example).requires_grad_(true);
  const auto offset = map(zero);
  auto v = unit_rows(torch::randn_like(example));
  double sigma = 0.0;
  int it = 1;
  for (; it <= max_iterations; ++it) {
    torch::Tensor Av;
    {
      torch::NoGradGuard no_grad;
      Av = map(v) - offset.detach();
    }
    const double next = Av.to(torch::kDouble).norm().item<double>();
    const auto AtAv = torch::autograd::grad({offset}, {zero}, {Av}, /*retain_graph=*/true)[0];
    const bool settled = std::abs(next - sigma) <= tolerance * next;
    sigma = std::max(sigma, next);
    if (settled || !(next > 0.0)) break;
    v = unit_rows(AtAv.detach());
  }
  return {sigma, std::min(it, max_iterations)};
}

double circular_convolution_bound(const torch::Tensor& kernel, int64_t height, int64_t width, int64_t dilation) {
  if (kernel.dim() != 4) throw InvalidArgument("kernel", "must be C_out x C_in x kh x kw");
  require_at_least("dilation", dilation, 1);
  const int64_t kh = kernel.size(2), kw = kernel.size(3);
  const int64_t m1 = height + (kh - 1) * dilation, m2 = width + (kw - 1) * dilation;
  auto grid = torch::zeros({kernel.size(0), kernel.size(1), m1, m2}, torch::kDouble);
  grid.index_put_({torch::indexing::Slice(), torch::indexing::Slice(), torch::indexing::Slice(0, (kh - 1) * dilation + 1, dilation),
                   torch::indexing::Slice(0, (kw - 1) * dilation + 1, dilation)},
                  kernel.detach().to(torch::kCPU).to(torch::kDouble));
  // Per frequency, the C_out x C_in transfer matrix; its singular values over all frequencies
  // are those of the (unitarily block-diagonalised) circular operator.
  const auto transfer = torch::fft::fft2(grid).permute({2, 3, 0, 1});
  return torch::linalg_svdvals(transfer).max().item<double>();
}

UpperBound layer_product_bound(EmbeddingModel& model, const torch::Tensor& example, int max_iterations, double tolerance) {
  UpperBound out;
  const LayerChain chain = model.layer_chain();
  if (!chain.unsupported.empty()) {
    out.unsupported = chain.unsupported;
    return out;
  }
  if (example.dim() < 2 || example.size(0) != 1) throw InvalidArgument("example", "must be one input (1 x ...)");
  auto x = model.prepare(example);
  double product = 1.0;
  for (const ChainLayer& layer : chain.layers) {
    LayerConstant c;
    c.name = layer.name;
    if (layer.weight) {
      c.constant = torch::linalg_svdvals(layer.weight->detach().to(torch::kDouble)).max().item<double>();
      c.method = "svd";
    } else if (layer.conv_kernel && x.dim() == 4) {
      c.constant = circular_convolution_bound(*layer.conv_kernel, x.size(2), x.size(3), layer.conv_dilation);
      c.method = "fft";
      c.estimate = affine_operator_norm(layer.apply, x, max_iterations, tolerance).first;
    } else if (layer.affine) {
      const auto [norm, iterations] = affine_operator_norm(layer.apply, x, max_iterations, tolerance);
      c.constant = norm;
      c.method = "power iteration (" + std::to_string(iterations) + " iterations, estimate)";
      out.certified = false;
    } else {
      c.constant = layer.lipschitz;
      c.method = "known";
    }
    product *= c.constant;
    out.layers.push_back(c);
    torch::NoGradGuard no_grad;
    x = layer.apply(x);
  }
  out.value = product;
  return out;
}

}  // namespace geomsim::train
