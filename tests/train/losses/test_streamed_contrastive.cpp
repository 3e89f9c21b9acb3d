// The streaming engine of the contrastive losses (streamed_contrastive_loss.hpp) against the
// dense formulas: each loss written here once more with its N x N similarity matrix and masks,
// differentiated by autograd. Both implementations of the two passes (the CPU engine and the ATen
// row blocks) are held to it, in value and gradient, in float64 to 1e-12.
#include "train/catch_with_torch.hpp"
#include "train/scoped_torch_threads.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/streamed_contrastive_loss.hpp"

using namespace geomsim::train;

namespace {

constexpr double kInf = INFINITY;

// logsumexp over the true entries of each row; -inf for a row with none (no NaN in its gradient).
torch::Tensor masked_lse(const torch::Tensor& s, const torch::Tensor& mask) {
  const auto empty = mask.any(1).logical_not();
  const auto lse = torch::logsumexp(s.masked_fill(mask.logical_or(empty.unsqueeze(1)).logical_not(), -kInf), 1);
  return lse.masked_fill(empty, -kInf);
}

torch::Tensor mean_over(const torch::Tensor& term, const torch::Tensor& valid) {
  return term.masked_fill(valid.logical_not(), 0.0).sum() / valid.sum().clamp_min(1).to(term.dtype());
}

// The loss with its N x N matrices.
torch::Tensor dense_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                         const torch::Tensor& anchors, const ContrastiveLossSpec& spec) {
  const int64_t n = z.size(0);
  const auto s = z.mm(z.t()) / spec.tau;
  const auto eye = torch::eye(n, torch::kBool);
  const auto same = labels.unsqueeze(1).eq(labels.unsqueeze(0));
  const auto positives = same.logical_and(eye.logical_not());
  const auto count = positives.sum(1).to(z.dtype());
  const auto anchor = anchors.defined() ? anchors : torch::ones({n}, torch::kBool);
  const auto with_positive = anchor.logical_and(count.gt(0));
  if (spec.kind == ContrastiveKind::supcon_out || spec.kind == ContrastiveKind::supcon_in) {
    const auto all = masked_lse(s, eye.logical_not());
    const auto term = spec.kind == ContrastiveKind::supcon_out
                          ? all - s.masked_fill(positives.logical_not(), 0.0).sum(1) / count.clamp_min(1)
                          : all - masked_lse(s, positives) + count.clamp_min(1).log();
    return spec.scale * mean_over(term, with_positive);
  }
  const auto negatives = masked_lse(s, same.logical_not()).unsqueeze(1);
  const auto per_positive = torch::logaddexp(s, negatives) - s;
  const auto sup = per_positive.masked_fill(positives.logical_not(), 0.0).sum(1) / count.clamp_min(1);
  torch::Tensor cnce = torch::zeros({}, z.options());
  if (partner.defined()) {
    const auto is_partner = torch::zeros({n, n}, torch::kBool).scatter_(1, partner.unsqueeze(1), true);
    const auto denominator = spec.include_partner ? positives : positives.logical_and(is_partner.logical_not());
    const auto term = masked_lse(s, denominator) - s.gather(1, partner.unsqueeze(1)).squeeze(1);
    cnce = mean_over(term, anchor.logical_and(denominator.any(1)));
  }
  return spec.scale * ((1.0 - spec.alpha) * mean_over(sup, with_positive) + spec.alpha * cnce);
}

struct Batch {
  torch::Tensor z, labels, partner;
};

// A two-view batch of B samples: unsorted, unbalanced classes with label values far apart.
Batch two_views(int64_t B, int64_t d, uint64_t seed, torch::ScalarType dtype = torch::kDouble) {
  torch::manual_seed(seed);
  const auto classes = torch::tensor(std::vector<int64_t>{-3, 7, 1000000007, 7, -3, 7, 2}, torch::kLong);
  const auto sample = classes.index_select(0, torch::randint(0, classes.size(0), {B}, torch::kLong));
  Batch b;
  b.z = torch::nn::functional::normalize(torch::randn({2 * B, d}, torch::kDouble),
                                         torch::nn::functional::NormalizeFuncOptions().dim(1))
            .to(dtype);
  b.labels = torch::cat({sample, sample});
  b.partner = two_view_partners(B);
  return b;
}

struct Errors {
  double value, gradient;  // relative to max(1, |value|) and max(1, max |gradient|)
};

Errors against_dense(const Batch& b, const torch::Tensor& anchors, const ContrastiveLossSpec& spec) {
  auto z = b.z.detach().clone().requires_grad_(true);
  const auto streamed = streamed_contrastive_loss(z, b.labels, b.partner, anchors, spec);
  streamed.backward();
  auto w = b.z.detach().to(torch::kDouble).clone().requires_grad_(true);
  const auto dense = dense_loss(w, b.labels, b.partner, anchors, spec);
  dense.backward();
  const double value = dense.item<double>();
  const double scale = std::max(1.0, w.grad().abs().max().item<double>());
  return {std::abs(streamed.item<double>() - value) / std::max(1.0, std::abs(value)),
          (z.grad().to(torch::kDouble) - w.grad()).abs().max().item<double>() / scale};
}

ContrastiveLossSpec spec_of(ContrastiveKind kind, double tau, double alpha = 0.5, bool include_partner = true,
                            ContrastivePath path = ContrastivePath::automatic) {
  ContrastiveLossSpec spec;
  spec.kind = kind;
  spec.tau = tau;
  spec.alpha = alpha;
  spec.include_partner = include_partner;
  spec.path = path;
  return spec;
}

}  // namespace

TEST_CASE("The streamed losses equal the dense formulas in float64", "[train][losses][streamed]") {
  // B = 300 (N = 600) spans three of the engine's 256-row blocks, with tiles off the diagonal.
  const int64_t B = GENERATE(5, 40, 300);
  const auto path = GENERATE(ContrastivePath::automatic, ContrastivePath::aten_blocks);
  const double tau = GENERATE(0.1, 1.0);
  const std::string anchors_are = GENERATE("all", "first view", "a random half");
  const Batch b = two_views(B, 6, static_cast<uint64_t>(B));
  torch::Tensor anchors;
  if (anchors_are == "first view") anchors = torch::arange(2 * B).lt(B);
  if (anchors_are == "a random half") anchors = torch::rand({2 * B}).lt(0.5);
  struct Case {
    ContrastiveKind kind;
    double alpha;
    bool include_partner;
  };
  for (const Case c : {Case{ContrastiveKind::supcon_out, 0, true}, Case{ContrastiveKind::supcon_in, 0, true},
                       Case{ContrastiveKind::spread, 0.0, true}, Case{ContrastiveKind::spread, 0.35, true},
                       Case{ContrastiveKind::spread, 1.0, true}, Case{ContrastiveKind::spread, 0.35, false},
                       Case{ContrastiveKind::spread, 1.0, false}}) {
    CAPTURE(B, static_cast<int>(path), tau, anchors_are, contrastive_kind_name(c.kind), c.alpha, c.include_partner);
    const Errors e = against_dense(b, anchors, spec_of(c.kind, tau, c.alpha, c.include_partner, path));
    CHECK(e.value < 1e-12);
    CHECK(e.gradient < 1e-12);
  }
}

TEST_CASE("The streamed losses in float32 agree with float64", "[train][losses][streamed]") {
  // The similarities are rounded to eps / tau (|s| <= 1/tau, eps = 2^-23 ~ 1.2e-7) and each row
  // sums at most N such terms, so float32 agrees with the dense float64 loss to N eps max(1, 1/tau).
  const int64_t B = GENERATE(40, 300);
  const double tau = GENERATE(0.1, 1.0);
  const auto kind = GENERATE(ContrastiveKind::supcon_out, ContrastiveKind::supcon_in, ContrastiveKind::spread);
  CAPTURE(B, tau, contrastive_kind_name(kind));
  const Batch b = two_views(B, 16, 9, torch::kFloat);
  const double tolerance = 2.0 * static_cast<double>(B) * 1.2e-7 * std::max(1.0, 1.0 / tau);
  const Errors e = against_dense(b, {}, spec_of(kind, tau));
  CHECK(e.value < tolerance);
  CHECK(e.gradient < tolerance);
}

TEST_CASE("The streamed losses at a temperature beyond float's exponent range", "[train][losses][streamed]") {
  // tau = 0.01 puts similarities 200 apart: each set's log-sum-exp is taken relative to its own
  // running maximum, so float32 stays finite and within rounding of float64.
  const Batch b64 = two_views(40, 5, 8);
  for (const auto kind : {ContrastiveKind::supcon_out, ContrastiveKind::supcon_in, ContrastiveKind::spread}) {
    CAPTURE(contrastive_kind_name(kind));
    Batch b32 = b64;
    b32.z = b64.z.to(torch::kFloat);
    const Errors e = against_dense(b32, {}, spec_of(kind, 0.01));
    CHECK(e.value < 1e-4);
    CHECK(e.gradient < 1e-4);
  }
}

TEST_CASE("A batch without positives gives 0 and a zero gradient", "[train][losses][streamed]") {
  // Every row its own class, no partner: no anchor has a positive (pytorch-metric-learning's
  // convention: 0, never NaN).
  torch::manual_seed(3);
  auto z = torch::randn({7, 4}, torch::kDouble).requires_grad_(true);
  const auto labels = torch::arange(7);
  for (const auto path : {ContrastivePath::automatic, ContrastivePath::aten_blocks}) {
    for (const auto kind : {ContrastiveKind::supcon_out, ContrastiveKind::supcon_in, ContrastiveKind::spread}) {
      CAPTURE(static_cast<int>(path), contrastive_kind_name(kind));
      z.mutable_grad() = torch::Tensor();
      const auto loss = streamed_contrastive_loss(z, labels, {}, {}, spec_of(kind, 0.5, 0.0, true, path));
      loss.backward();
      CHECK(loss.item<double>() == 0.0);
      CHECK(z.grad().abs().max().item<double>() == 0.0);
    }
  }
  // Two views of single samples, without a(x) in D(i): L_cNCE has no anchor, L_sup has them all.
  const Batch singles = two_views(3, 4, 4);
  const auto labels3 = torch::cat({torch::arange(3), torch::arange(3)});
  auto w = singles.z.clone().requires_grad_(true);
  const auto cnce = streamed_contrastive_loss(w, labels3, singles.partner, {}, spec_of(ContrastiveKind::spread, 0.5, 1.0, false));
  cnce.backward();
  CHECK(cnce.item<double>() == 0.0);
  CHECK(w.grad().abs().max().item<double>() == 0.0);
  // One row: nothing to contrast.
  auto one = torch::randn({1, 3}, torch::kDouble).requires_grad_(true);
  CHECK(supcon_out_loss(one, torch::zeros({1}, torch::kLong), 0.5).item<double>() == 0.0);
}

TEST_CASE("The streamed losses give the same bits on 1 and 2 threads, with or without autograd",
          "[train][losses][streamed][determinism]") {
  const auto kind = GENERATE(ContrastiveKind::supcon_out, ContrastiveKind::supcon_in, ContrastiveKind::spread);
  CAPTURE(contrastive_kind_name(kind));
  const Batch b = two_views(700, 16, 21, torch::kFloat);  // 1400 rows: six blocks, three tiles a round
  const auto run = [&](int threads) {
    const geomsim::train::testing::ScopedTorchThreads scoped(threads);
    auto z = b.z.clone().requires_grad_(true);
    const auto loss = streamed_contrastive_loss(z, b.labels, b.partner, {}, spec_of(kind, 0.5));
    loss.backward();
    return std::make_pair(loss.item<float>(), z.grad());
  };
  const auto [one_value, one_gradient] = run(1);
  const auto [two_value, two_gradient] = run(2);
  CHECK(one_value == two_value);
  CHECK(torch::equal(one_gradient, two_gradient));
  torch::NoGradGuard no_grad;
  CHECK(streamed_contrastive_loss(b.z, b.labels, b.partner, {}, spec_of(kind, 0.5)).item<float>() == one_value);
}

TEST_CASE("float16 and bfloat16 embeddings are computed in float32, their gradient in their dtype",
          "[train][losses][streamed]") {
  const Batch b = two_views(40, 8, 5, torch::kFloat);
  for (const auto dtype : {torch::kHalf, torch::kBFloat16}) {
    auto low = b.z.to(dtype).requires_grad_(true);
    const auto loss = streamed_contrastive_loss(low, b.labels, b.partner, {}, spec_of(ContrastiveKind::spread, 0.5));
    loss.backward();
    CHECK(loss.scalar_type() == torch::kFloat);
    CHECK(low.grad().scalar_type() == dtype);
    // The same as float32 on the rounded inputs: only the gradient's final rounding differs.
    auto rounded = low.detach().to(torch::kFloat).requires_grad_(true);
    const auto reference = streamed_contrastive_loss(rounded, b.labels, b.partner, {}, spec_of(ContrastiveKind::spread, 0.5));
    reference.backward();
    CHECK(loss.item<float>() == reference.item<float>());
    CHECK(torch::equal(low.grad(), rounded.grad().to(dtype)));
  }
}

TEST_CASE("The streamed losses' two passes on the meta device give shapes", "[train][losses][streamed][meta]") {
  const auto meta = torch::TensorOptions().device(torch::kMeta);
  const auto z = torch::empty({10, 4}, meta.dtype(torch::kFloat));
  const auto labels = torch::empty({10}, meta.dtype(torch::kLong));
  const ContrastiveForward f = contrastive_forward(z, labels, {}, {}, spec_of(ContrastiveKind::supcon_out, 0.5));
  CHECK(f.loss.device().is_meta());
  CHECK(f.loss.dim() == 0);
  CHECK(f.statistics.sizes() == torch::IntArrayRef({10, kContrastiveStatistics}));
  const auto g = contrastive_backward(torch::empty({}, meta.dtype(torch::kFloat)), z, labels, {}, {}, f.statistics,
                                      spec_of(ContrastiveKind::supcon_out, 0.5));
  CHECK(g.device().is_meta());
  CHECK(g.sizes() == z.sizes());
  // The partner may stay on the CPU (checked there, moved beside z: the trainer's fixed partners);
  // the labels may not.
  const auto spread = spec_of(ContrastiveKind::spread, 0.5, 0.5);
  const auto host_partner = torch::remainder(torch::arange(10) + 5, 10);
  CHECK(contrastive_forward(z, labels, host_partner, {}, spread).statistics.device().is_meta());
  CHECK_THROWS_WITH(contrastive_forward(z, labels, torch::arange(10), {}, spread),
                    Catch::Contains("a row cannot be its own partner"));
  CHECK_THROWS_WITH(contrastive_forward(z, torch::zeros({10}, torch::kLong), {}, {}, spread),
                    Catch::StartsWith("labels is on cpu but z on meta"));
}

TEST_CASE("The streamed losses refuse bad batches by name", "[train][losses][streamed][errors]") {
  const Batch b = two_views(3, 4, 1);
  const auto spec = spec_of(ContrastiveKind::spread, 0.5);
  const auto refusal = [&](const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                           const torch::Tensor& anchors, const ContrastiveLossSpec& s) {
    try {
      streamed_contrastive_loss(z, labels, partner, anchors, s);
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("(no refusal)");
  };
  using Catch::StartsWith;
  CHECK_THAT(refusal(b.z, b.labels, b.partner, {}, spec_of(ContrastiveKind::spread, 0.0)), StartsWith("tau must be"));
  CHECK_THAT(refusal(b.z, b.labels, b.partner, {}, spec_of(ContrastiveKind::spread, 0.5, 1.5)), StartsWith("alpha must be"));
  auto scaled = spec;
  scaled.scale = -1;
  CHECK_THAT(refusal(b.z, b.labels, b.partner, {}, scaled), StartsWith("scale must be"));
  CHECK_THAT(refusal(b.z.unsqueeze(0), b.labels, b.partner, {}, spec), StartsWith("z must be an N x d matrix"));
  CHECK_THAT(refusal(b.z.to(torch::kLong), b.labels, b.partner, {}, spec), StartsWith("z must be of a floating dtype"));
  CHECK_THAT(refusal(b.z.to_sparse(), b.labels, b.partner, {}, spec), StartsWith("z must be"));
  CHECK_THAT(refusal(b.z, {}, b.partner, {}, spec), StartsWith("labels are needed"));
  CHECK_THAT(refusal(b.z, b.labels.narrow(0, 0, 5), b.partner, {}, spec), StartsWith("labels must hold one value per row of z (6)"));
  CHECK_THAT(refusal(b.z, b.labels.to(torch::kFloat), b.partner, {}, spec), StartsWith("labels must be of an integer dtype"));
  CHECK_THAT(refusal(b.z, b.labels, {}, {}, spec), StartsWith("partner is needed by L_spread's L_cNCE term"));
  CHECK_THAT(refusal(b.z, b.labels, torch::arange(6), {}, spec), Catch::Contains("own partner"));
  CHECK_THAT(refusal(b.z, b.labels, torch::full({6}, 6, torch::kLong), {}, spec), StartsWith("partner indices must be in [0, N)"));
  CHECK_THAT(refusal(b.z, b.labels, b.partner, torch::ones({6}, torch::kLong), spec), StartsWith("anchors must be of dtype bool"));
  CHECK_THAT(refusal(b.z, b.labels, b.partner, torch::ones({5}, torch::kBool), spec), StartsWith("anchors must hold one value"));
  CHECK_THROWS_WITH(contrastive_kind("simclr"), StartsWith("kind must be supcon, supcon-in or spread"));
  // The CUDA kernels: z on the CPU, or a build without them; the process-wide path by name.
  for (const ContrastivePath path : {ContrastivePath::cuda_fused, ContrastivePath::cuda_products}) {
    auto kernel = spec;
    kernel.path = path;
    const std::string name = contrastive_path_name(path);
    CHECK_THAT(refusal(b.z, b.labels, b.partner, {}, kernel),
               StartsWith(contrastive_cuda_kernels_built() ? "path " + name + " needs z on a CUDA device, got cpu"
                                                           : "path " + name + " needs a build with the contrastive CUDA kernels"));
    if (contrastive_cuda_kernels_built()) {
      const ContrastivePath before = use_contrastive_cuda_path(path);
      CHECK(use_contrastive_cuda_path(before) == path);
    } else {
      CHECK_THROWS_WITH(use_contrastive_cuda_path(path), StartsWith("path " + name + " needs a build with"));
    }
  }
  CHECK_THROWS_WITH(use_contrastive_cuda_path(ContrastivePath::automatic), StartsWith("path on CUDA must be aten_blocks"));
  // The default: the products kernels where the build has them.
  const ContrastivePath initial = use_contrastive_cuda_path(ContrastivePath::aten_blocks);
  CHECK(initial == (contrastive_cuda_kernels_built() ? ContrastivePath::cuda_products : ContrastivePath::aten_blocks));
  use_contrastive_cuda_path(initial);
  CHECK(contrastive_path("cuda_products") == ContrastivePath::cuda_products);
  CHECK_THROWS_WITH(contrastive_path("fused"), StartsWith("path must be automatic, aten_blocks, cuda_fused or cuda_products"));
}
