// Every registered batch loss on PyTorch's meta device, which has shapes and dtypes but no data:
// a value read back to the host (.item(), nonzero, a copy to the CPU) throws there, and so does
// an operation between a meta tensor and one made without the input's device (on the CPU). A
// loss that passes here makes every tensor on its inputs' device and never synchronises with
// the host, without a GPU in CI.
//
// Debian's libtorch 1.13 lacks meta kernels for some operations the losses used (where,
// logical_*, logsumexp, index_select, cdist, cholesky_solve, clamp's backward); the losses use
// the equivalents in src/train/losses/device_ops.hpp, held here to torch's own on the CPU.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <string>
#include <vector>

#include "geomsim/train/losses/conditioning_kernels.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "train/losses/device_ops.hpp"         // src/: the losses' internal helpers
#include "train/losses/loss_inputs.hpp"

using namespace geomsim::train;
namespace gt = geomsim::train;

namespace {
using geomsim::train::testing::batch_loss_names;

// The first line of an exception's message (c10 appends a backtrace).
std::string first_line(const std::exception& e) {
  const std::string what = e.what();
  return what.substr(0, what.find('\n'));
}

torch::TensorOptions on_meta(torch::ScalarType dtype) { return torch::TensorOptions().device(torch::kMeta).dtype(dtype); }

// The named loss forward and backward on a meta batch: empty, or what went wrong (the first line
// of what it threw, or the loss's device, shape or dtype).
std::string meta_failure(const std::string& name, const LossBatch& batch, const LossOptions& options, torch::ScalarType dtype) {
  try {
    const auto loss = batch_loss(name, batch, options);
    if (!loss.device().is_meta()) return "the loss is not on the meta device";
    if (loss.dim() != 0) return "the loss is not a scalar";
    if (loss.scalar_type() != dtype) return "the loss's dtype is not the embeddings'";
    loss.backward();
  } catch (const std::exception& e) {
    return first_line(e);
  }
  return "";
}

}  // namespace

TEST_CASE("The meta device refuses host reads and CPU tensors", "[train][losses][meta]") {
  // The premise of the tests below, checked on this libtorch.
  const auto z = torch::empty({4, 3}, on_meta(torch::kFloat));
  CHECK_THROWS(z.sum().item<double>());
  CHECK_THROWS(z.to(torch::kCPU));
  CHECK_THROWS(torch::nonzero(z.gt(0)));
  CHECK_THROWS(z + torch::zeros({4, 3}));
}

TEST_CASE("Every registered batch loss runs forward and backward on the meta device", "[train][losses][meta]") {
  const std::string name = GENERATE(from_range(batch_loss_names()));
  const auto dtype = GENERATE(torch::kFloat, torch::kDouble);
  CAPTURE(name, dtype);
  const int64_t B = 8, d = 4, classes = 3;
  auto z = torch::empty({2 * B, d}, on_meta(dtype)).requires_grad_(true);
  const LossBatch batch{z, torch::empty({B}, on_meta(torch::kLong)), torch::empty({2 * B}, on_meta(torch::kLong)), classes};
  const std::string failure = meta_failure(name, batch, LossOptions{}, dtype);
  INFO(failure);
  REQUIRE(failure.empty());
  REQUIRE(z.grad().defined());
  CHECK(z.grad().device().is_meta());
  CHECK(z.grad().sizes() == z.sizes());
  CHECK(z.grad().scalar_type() == dtype);
}

TEST_CASE("The conditioned losses run on the meta device with every conditioning kernel", "[train][losses][meta][kernels]") {
  // cclk-weak and cclk-fair with --cond-kernel NAME, on the labels and on a batch's
  // conditioning values (--condition-on attributes:...): no host read on the way.
  const std::string kernel = GENERATE(from_range(conditioning_kernel_names()));
  const bool attributes = GENERATE(false, true);
  const auto dtype = GENERATE(torch::kFloat, torch::kDouble);
  for (const std::string name : {"cclk-weak", "cclk-fair"}) {
    CAPTURE(name, kernel, attributes, dtype);
    const int64_t B = 8, d = 4;
    auto z = torch::empty({2 * B, d}, on_meta(dtype)).requires_grad_(true);
    LossBatch batch{z, torch::empty({B}, on_meta(torch::kLong)), torch::empty({2 * B}, on_meta(torch::kLong)), 3};
    if (attributes) batch.condition = torch::empty({B, 3}, on_meta(dtype));
    LossOptions options;
    options.cond_kernel = kernel;
    const auto K = attributes ? conditioning_kernel(batch.condition, conditioning_kernel_of(options))
                              : label_conditioning_kernel(batch.labels, conditioning_kernel_of(options));
    CHECK(K.device().is_meta());
    const std::string failure = meta_failure(name, batch, options, dtype);
    INFO(failure);
    REQUIRE(failure.empty());
    CHECK(z.grad().device().is_meta());
    CHECK(z.grad().sizes() == z.sizes());
  }
}

TEST_CASE("The losses' meta-capable operations give torch's own bits on the CPU", "[train][losses][meta][determinism]") {
  const auto dtype = GENERATE(torch::kFloat, torch::kDouble);
  CAPTURE(dtype);
  torch::manual_seed(5);
  const int64_t n = 40;
  const auto mask = torch::rand({n, n}).gt(0.4);
  mask[3].fill_(false);  // a row with nothing to sum: -inf, and no NaN in its gradient
  const auto s0 = torch::randn({n, n}, dtype) * 5;
  const auto weights = torch::randn({n}, dtype);

  SECTION("logsumexp over masked rows: value and gradient") {
    auto a = s0.clone().requires_grad_(true), b = s0.clone().requires_grad_(true);
    const auto ours = gt::detail::logsumexp(gt::detail::keep(a, mask, -INFINITY), 1);
    const auto theirs = torch::logsumexp(torch::where(mask, b, torch::full_like(b, -INFINITY)), 1);
    CHECK(torch::equal(ours, theirs));
    (ours.masked_fill(mask.any(1).logical_not(), 0) * weights).sum().backward();
    (theirs.masked_fill(mask.any(1).logical_not(), 0) * weights).sum().backward();
    CHECK(torch::equal(a.grad(), b.grad()));
  }
  SECTION("rows taken by index: value and gradient, with repeated rows") {
    const auto index = torch::randint(0, n, {2 * n}, torch::kLong);
    auto a = s0.clone().requires_grad_(true), b = s0.clone().requires_grad_(true);
    const auto ours = gt::detail::take_rows(a, index), theirs = b.index_select(0, index);
    CHECK(torch::equal(ours, theirs));
    const auto g = torch::randn({2 * n, n}, dtype);
    (ours * g).sum().backward();
    (theirs * g).sum().backward();
    CHECK(torch::equal(a.grad(), b.grad()));
  }
  SECTION("the Cholesky solve") {
    const auto x = torch::randn({n, 6}, torch::kDouble);
    const auto K = torch::exp(-torch::cdist(x, x).pow(2) / 2.0);
    const auto L = torch::linalg_cholesky(K + 0.1 * torch::eye(n, K.options()));
    CHECK(torch::equal(gt::detail::cholesky_solve(K, L), torch::cholesky_solve(K, L)));
  }
  SECTION("distances: cdist's bits on its matrix-product path, and within rounding on its direct one") {
    const auto x = torch::randn({n, 6}, dtype), centres = torch::randn({5, 6}, dtype);
    CHECK(torch::equal(gt::detail::euclidean_distances(x, centres), torch::cdist(x, centres)));
    // cdist takes its direct path for 25 rows or fewer, and for a matrix with itself; the squares
    // of unit-scale distances agree there to a few ulps of the squared norms (|x|^2 ~ 6 here).
    const double eps = dtype == torch::kFloat ? 1.2e-7 : 2.3e-16;
    const auto few = x.narrow(0, 0, 10);
    CHECK((gt::detail::euclidean_distances(few, centres).pow(2) - torch::cdist(few, centres).pow(2)).abs().max().item<double>() < 64 * eps * 36);
    CHECK((gt::detail::euclidean_distances(x, x).pow(2) - torch::cdist(x, x).pow(2)).abs().max().item<double>() < 64 * eps * 36);
  }
}
