// Seed 002's conditioning kernels (conditioning_kernels.hpp) against their formulas in plain
// loops, their positive semi-definiteness, their refusals, and CCL-K's gradients with each.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>
#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/conditioning_kernels.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "train/gradient_error.hpp"
#include "train/losses/loss_inputs.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
using geomsim::train::testing::unit_rows;

ConditioningKernel kernel_named(const std::string& name) {
  ConditioningKernel k;
  k.name = name;
  k.bandwidth = 0.7;
  k.degree = 3;
  k.offset = 0.5;
  return k;
}

// The formula of conditioning_kernels.hpp for one pair of rows, in plain loops.
double formula(const ConditioningKernel& k, const std::vector<double>& u, const std::vector<double>& v, bool same_row) {
  double dot = 0, uu = 0, vv = 0, d2 = 0;
  for (std::size_t c = 0; c < u.size(); ++c) {
    dot += u[c] * v[c];
    uu += u[c] * u[c];
    vv += v[c] * v[c];
    d2 += (u[c] - v[c]) * (u[c] - v[c]);
  }
  if (k.name == "cosine") {
    if (same_row) return 1.0;
    return uu == 0 || vv == 0 ? 0.0 : dot / (std::sqrt(uu) * std::sqrt(vv));
  }
  if (k.name == "rbf") return std::exp(-d2 / (2 * k.bandwidth * k.bandwidth));
  if (k.name == "laplacian") return std::exp(-std::sqrt(d2) / k.bandwidth);
  if (k.name == "linear") return dot;
  return std::pow(dot + k.offset, k.degree);
}

std::vector<std::vector<double>> rows_of(const torch::Tensor& t) {
  std::vector<std::vector<double>> rows(static_cast<std::size_t>(t.size(0)));
  for (int64_t i = 0; i < t.size(0); ++i) {
    for (int64_t c = 0; c < t.size(1); ++c) rows[static_cast<std::size_t>(i)].push_back(t[i][c].item<double>());
  }
  return rows;
}

}  // namespace

TEST_CASE("Each conditioning kernel is its formula to 1e-12 in float64", "[train][losses][cclk][kernels]") {
  const std::string name = GENERATE(from_range(conditioning_kernel_names()));
  CAPTURE(name);
  torch::manual_seed(11);
  auto values = torch::randn({7, 3}, torch::kDouble);
  values[3] = torch::zeros({3}, torch::kDouble);  // a zero row (cosine: similar to itself alone)
  values[5] = values[1] + 1e-9;                   // a near duplicate (the distances' small end)
  const ConditioningKernel k = kernel_named(name);
  const auto K = conditioning_kernel(values, k);
  REQUIRE(K.scalar_type() == torch::kDouble);
  REQUIRE(K.sizes() == torch::IntArrayRef({7, 7}));
  const auto rows = rows_of(values);
  for (int64_t i = 0; i < 7; ++i) {
    for (int64_t j = 0; j < 7; ++j) {
      const double expected = formula(k, rows[static_cast<std::size_t>(i)], rows[static_cast<std::size_t>(j)], i == j);
      CAPTURE(i, j);
      CHECK(std::abs(K[i][j].item<double>() - expected) <= 1e-12 * std::max(1.0, std::abs(expected)));
    }
  }
}

TEST_CASE("The polynomial kernel of degree 1 and offset 0 is the linear kernel", "[train][losses][cclk][kernels]") {
  torch::manual_seed(12);
  const auto values = torch::randn({5, 4}, torch::kDouble);
  ConditioningKernel polynomial = kernel_named("polynomial");
  polynomial.degree = 1;
  polynomial.offset = 0;
  CHECK(torch::allclose(conditioning_kernel(values, polynomial), conditioning_kernel(values, kernel_named("linear")), 0, 1e-15));
}

TEST_CASE("Each conditioning kernel is positive semi-definite", "[train][losses][cclk][kernels]") {
  // All five are, for any values (conditioning_kernels.hpp), so K_Z + lambda I is positive definite.
  const std::string name = GENERATE(from_range(conditioning_kernel_names()));
  const uint64_t seed = GENERATE(1, 2, 3);
  CAPTURE(name, seed);
  torch::manual_seed(seed);
  const auto values = torch::randn({12, 3}, torch::kDouble);
  const auto K = conditioning_kernel(values, kernel_named(name));
  CHECK(torch::allclose(K, K.t(), 0, 1e-15));
  const double smallest = torch::linalg_eigvalsh(K).min().item<double>();
  const double scale = K.abs().max().item<double>();
  CHECK(smallest >= -1e-12 * scale * 12);
  CHECK_NOTHROW(conditional_embedding_weights(K, 0.1));
}

TEST_CASE("The labels' kernel is the kernel of their one-hot vectors", "[train][losses][cclk][kernels]") {
  const std::string name = GENERATE(from_range(conditioning_kernel_names()));
  CAPTURE(name);
  const auto labels = torch::tensor({0, 2, 1, 2, 0, 3}, torch::kLong);
  const auto one_hot = labels.unsqueeze(1).eq(torch::arange(4, torch::kLong).unsqueeze(0)).to(torch::kDouble);
  const ConditioningKernel k = kernel_named(name);
  CHECK(torch::allclose(label_conditioning_kernel(labels, k), conditioning_kernel(one_hot, k), 0, 1e-15));
  if (name == "cosine") CHECK(torch::equal(label_conditioning_kernel(labels, k), delta_kernel(labels)));
}

TEST_CASE("Unusable conditioning kernels are refused, naming the option", "[train][losses][cclk][kernels]") {
  const auto values = torch::randn({4, 2}, torch::kDouble);
  const auto refused = [&](ConditioningKernel k, const std::string& option) {
    try {
      conditioning_kernel(values, k);
    } catch (const InvalidArgument& e) {
      return e.argument() == option;
    }
    return false;
  };
  ConditioningKernel k;
  k.name = "gaussian";
  CHECK(refused(k, "cond-kernel"));
  for (double bandwidth : {0.0, -1.0, std::nan(""), double(INFINITY)}) {
    ConditioningKernel b = kernel_named("rbf");
    b.bandwidth = bandwidth;
    CAPTURE(bandwidth);
    CHECK(refused(b, "cond-bandwidth"));
  }
  for (double degree : {0.0, 2.5, 11.0, std::nan("")}) {
    ConditioningKernel d = kernel_named("polynomial");
    d.degree = degree;
    CAPTURE(degree);
    CHECK(refused(d, "cond-degree"));
  }
  for (double offset : {-0.1, double(INFINITY)}) {
    ConditioningKernel c = kernel_named("polynomial");
    c.offset = offset;
    CAPTURE(offset);
    CHECK(refused(c, "cond-offset"));
  }
  auto bad = values.clone();
  bad[1][1] = std::nan("");
  CHECK_THROWS_AS(conditioning_kernel(bad, kernel_named("cosine")), InvalidArgument);
  ConditioningKernel overflowing = kernel_named("polynomial");
  overflowing.degree = 10;
  CHECK(refused(overflowing, "cond-kernel") == false);  // ordinary values: finite
  try {
    conditioning_kernel(torch::full({3, 2}, 1e40, torch::kDouble), overflowing);
    FAIL("an overflowing polynomial kernel was accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.argument() == "cond-kernel");
  }
  CHECK_THROWS_AS(conditioning_kernel(torch::zeros({4}, torch::kDouble), kernel_named("rbf")), InvalidArgument);
  LossOptions o;
  o.cond_kernel = "sigmoid";
  CHECK_THROWS_AS(validate(o), InvalidArgument);
}

TEST_CASE("CCL-K's gradients with each conditioning kernel agree with central differences",
          "[train][losses][cclk][kernels][gradient]") {
  const std::string name = GENERATE(from_range(conditioning_kernel_names()));
  CAPTURE(name);
  torch::manual_seed(21);
  // Positive attributes: every kernel then gives positive conditional scores on these views.
  const auto attributes = torch::rand({6, 3}, torch::kDouble) + 0.5;
  const auto K = conditioning_kernel(attributes, kernel_named(name));
  const auto x0 = unit_rows(6, 4, 5), y = unit_rows(6, 4, 6);
  CHECK(test::gradient_error([&](const torch::Tensor& x) { return cclk_weakly_supervised_loss(x, y, K, 0.5, 0.5); }, x0) < 1e-6);
  CHECK(test::gradient_error([&](const torch::Tensor& x) { return cclk_fair_loss(x, y, K, 0.5, 0.5); }, x0) < 1e-6);
}

TEST_CASE("With W's negative entries dropped every kernel gives a finite loss on signed attributes",
          "[train][losses][cclk][kernels][gradient]") {
  // Standardised attributes are signed: cosine and linear kernels take negative values there, and
  // the exact W can make a conditional score non-positive; W+ cannot.
  const std::string name = GENERATE(from_range(conditioning_kernel_names()));
  CAPTURE(name);
  torch::manual_seed(31);
  const auto attributes = torch::randn({8, 3}, torch::kDouble);
  const auto K = conditioning_kernel(attributes, kernel_named(name));
  const auto W = conditional_embedding_weights(K, 0.1);
  CHECK(W.diagonal().min().item<double>() > 0.0);
  const auto x0 = unit_rows(8, 4, 32), y = unit_rows(8, 4, 33);
  const auto nonnegative = ConditionalWeights::nonnegative;
  const auto weak = [&](const torch::Tensor& x) { return cclk_weakly_supervised_loss(x, y, K, 0.1, 0.5, nonnegative); };
  const auto fair = [&](const torch::Tensor& x) { return cclk_fair_loss(x, y, K, 0.1, 0.5, nonnegative); };
  CHECK(std::isfinite(weak(x0).item<double>()));
  CHECK(std::isfinite(fair(x0).item<double>()));
  CHECK(test::gradient_error(weak, x0) < 1e-6);
  CHECK(test::gradient_error(fair, x0) < 1e-6);
  // W+ in plain loops: the weak loss's positive score sum_j exp(s_ij) max(W_ji, 0).
  const auto s = torch::matmul(x0, y.t()) / 0.5;
  double expected = 0;
  for (int64_t i = 0; i < 8; ++i) {
    double positive = 0, negatives = 0;
    for (int64_t j = 0; j < 8; ++j) {
      positive += std::exp(s[i][j].item<double>()) * std::max(W[j][i].item<double>(), 0.0);
      if (j != i) negatives += std::exp(s[i][j].item<double>());
    }
    expected += -std::log(positive / (positive + negatives)) / 8;
  }
  CHECK(weak(x0).item<double>() == Approx(expected).epsilon(1e-12));
}

TEST_CASE("cclk-weak and cclk-fair read the batch's conditioning values through --cond-kernel",
          "[train][losses][cclk][kernels][registry]") {
  const int64_t B = 6;
  const auto z = torch::cat({unit_rows(B, 4, 7), unit_rows(B, 4, 8)});
  const auto labels = torch::tensor({0, 1, 0, 1, 2, 2}, torch::kLong);
  const auto partner = two_view_partners(B);
  torch::manual_seed(9);
  const auto attributes = torch::rand({B, 3}, torch::kDouble) + 0.5;
  for (const std::string loss : {"cclk-weak", "cclk-fair"}) {
    CAPTURE(loss);
    CHECK(loss_entry(loss).needs.condition);
    for (const auto& p : {"cond-bandwidth", "cond-degree", "cond-offset"}) CHECK(loss_entry(loss).reads(p));
    LossOptions o;  // cosine on the labels: the delta kernel, as before the kernels were added
    const auto x = z.narrow(0, 0, B), y = z.narrow(0, B, B);
    const auto on_labels = batch_loss(loss, {z, labels, partner, 3}, o);
    const auto delta = loss == "cclk-weak" ? cclk_weakly_supervised_loss(x, y, delta_kernel(labels), o.kernel_lambda, o.tau)
                                           : cclk_fair_loss(x, y, delta_kernel(labels), o.kernel_lambda, o.tau);
    // On the labels the cosine and linear kernels are the delta kernel, with W itself (not W+).
    o.cond_kernel = "linear";
    CHECK(torch::equal(batch_loss(loss, {z, labels, partner, 3}, o), delta));
    o.cond_kernel = "rbf";  // another kernel on the labels: W+
    const auto rbf = label_conditioning_kernel(labels, conditioning_kernel_of(o));
    CHECK(torch::equal(batch_loss(loss, {z, labels, partner, 3}, o),
                       loss == "cclk-weak" ? cclk_weakly_supervised_loss(x, y, rbf, o.kernel_lambda, o.tau, ConditionalWeights::nonnegative)
                                           : cclk_fair_loss(x, y, rbf, o.kernel_lambda, o.tau, ConditionalWeights::nonnegative)));
    CHECK(torch::equal(on_labels, delta));
    for (const auto& name : conditioning_kernel_names()) {
      o.cond_kernel = name;
      const auto K = conditioning_kernel(attributes, conditioning_kernel_of(o));
      const auto nonnegative = ConditionalWeights::nonnegative;
      const auto expected = loss == "cclk-weak" ? cclk_weakly_supervised_loss(x, y, K, o.kernel_lambda, o.tau, nonnegative)
                                                : cclk_fair_loss(x, y, K, o.kernel_lambda, o.tau, nonnegative);
      CHECK(torch::equal(batch_loss(loss, {z, labels, partner, 3, attributes}, o), expected));
    }
    CHECK_THROWS_AS(batch_loss(loss, {z, labels, partner, 3, attributes.narrow(0, 0, B - 1)}, o), InvalidArgument);
  }
  CHECK_FALSE(loss_entry("spread").needs.condition);
  CHECK_FALSE(loss_entry("cclk-hardneg").needs.condition);
}
