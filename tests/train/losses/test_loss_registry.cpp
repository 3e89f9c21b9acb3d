// The loss registry (loss_registry.hpp): every name resolves, every batch function is the direct
// call the trainer made before the registry (the same bits), and unknown names and parameters
// are refused by name.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>
#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/baseline_losses.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"
#include "geomsim/train/losses/label_noise_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "train/losses/loss_inputs.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
using geomsim::train::testing::batch_loss_names;

// The trainer's if-chain before the registry (two_view_loss), verbatim but for the options'
// new home: the reference the registry is held to.
torch::Tensor direct_call(const std::string& loss, const LossOptions& o, const torch::Tensor& z, const torch::Tensor& labels,
                          const torch::Tensor& partner, int64_t num_classes) {
  const auto y2 = torch::cat({labels, labels});
  if (loss == "triplet") {
    const auto [positive, negative] = draw_triplets(y2);
    return triplet_loss(z, positive, negative, o.tau);
  }
  if (loss == "noise-aware-attract") {  // added with the registry: its own functions, called directly
    const auto [positives, negatives] = draw_noisy_pairs(y2, partner, static_cast<int64_t>(o.denominator_size));
    return noise_aware_attract_loss(z, positives, negatives, o.label_accuracy, o.tau);
  }
  if (loss == "clip-positives") return clipped_positives_loss(z, y2, o.tau, o.clip_cosine);
  if (loss == "weighted-positives") return weighted_denominator_loss(z, y2, o.tau, o.positive_weight, 1.0);
  if (loss == "upweighted-negatives") return weighted_denominator_loss(z, y2, o.tau, 0.0, o.negative_weight);
  if (loss == "spread" || loss == "thanos") return spread_loss(z, y2, partner, o.tau, o.alpha, o.include_partner);
  if (loss == "supcon") return o.base_temperature > 0 ? supcon_out_loss_scaled(z, y2, o.tau, o.base_temperature) : supcon_out_loss(z, y2, o.tau);
  if (loss == "supcon-in") return supcon_in_loss(z, y2, o.tau);
  if (loss == "simclr") return info_nce_loss(z, partner, o.tau);
  if (loss == "supcon+simclr") return supcon_out_loss(z, y2, o.tau) + info_nce_loss(z, partner, o.tau);
  if (loss == "attract-repel") return spread_loss_seed000(z, y2, partner, o.tau, o.alpha);
  const int64_t b = labels.size(0);
  const auto x = z.narrow(0, 0, b), y = z.narrow(0, b, b);
  if (loss == "cclk-hardneg") return cclk_hard_negative_loss(x, y, o.kernel_bandwidth, o.kernel_lambda, o.tau);
  if (loss == "weaksup-infonce") return weakly_supervised_info_nce_loss(x, y, labels, o.tau);
  if (loss == "fair-infonce") return fair_info_nce_loss(x, y, labels, o.tau);
  if (loss == "hardneg-infonce") return hard_negative_info_nce_loss(x, y, num_classes, o.tau);
  const auto kernel = delta_kernel(labels);
  if (loss == "cclk-weak") return cclk_weakly_supervised_loss(x, y, kernel, o.kernel_lambda, o.tau);
  if (loss == "cclk-fair") return cclk_fair_loss(x, y, kernel, o.kernel_lambda, o.tau);
  // The released conventions (issue 29), added after the registry.
  if (loss == "spread-thanos-code") return spread_loss_thanos_code(x, y, labels, o.tau, o.alpha, o.clip_pos);
  if (loss == "cclk-weak-released") return cclk_weakly_supervised_released_loss(x, y, kernel, o.kernel_lambda, o.tau);
  if (loss == "cclk-fair-released") return cclk_fair_released_loss(x, y, kernel, o.kernel_lambda, o.tau);
  throw std::logic_error("direct_call: no loss " + loss);
}

}  // namespace

TEST_CASE("Every training loss resolves to its registry entry", "[train][losses][registry]") {
  const std::vector<std::string> expected = {"spread",          "supcon",         "supcon-in",       "simclr",
                                             "supcon+simclr",   "attract-repel",  "cclk-weak",       "cclk-fair",
                                             "cclk-hardneg",    "ce",             "thanos",          "autoencoder",
                                             "weaksup-infonce", "fair-infonce",   "hardneg-infonce", "noise-aware-attract", "triplet",
                                             "clip-positives",  "weighted-positives", "upweighted-negatives",
                                             "spread-thanos-code", "cclk-weak-released", "cclk-fair-released"};
  CHECK(train_loss_names() == expected);
  CHECK(train_loss_list().rfind("spread, supcon, supcon-in, simclr, ", 0) == 0);
  for (const auto& name : expected) {
    CAPTURE(name);
    const LossEntry& entry = loss_entry(name);
    CHECK(entry.name == name);
    CHECK_FALSE(entry.help.empty());
    for (const auto& parameter : entry.parameters) CHECK_NOTHROW(loss_parameter(parameter));
    // Only the trainer's two special cases have no batch function.
    CHECK((entry.batch == nullptr) == (name == "ce" || name == "autoencoder"));
    CHECK(entry.needs.autoencoder == (name == "thanos" || name == "autoencoder"));
    CHECK(entry.needs.linear_head == (name == "ce"));
    CHECK(entry.needs.trains_encoder == (name != "autoencoder"));
    CHECK(entry.needs.num_classes == (name == "hardneg-infonce"));
    CHECK(entry.needs.random == (name == "triplet" || name == "noise-aware-attract"));
    CHECK(entry.needs.two_views == (entry.batch != nullptr));
    CHECK(entry.reads("tau") == (entry.batch != nullptr));
    CHECK(entry.reads("alpha") == (name == "spread" || name == "thanos" || name == "attract-repel" || name == "spread-thanos-code"));
  }
  CHECK(loss_entry("cclk-hardneg").reads("kernel_bandwidth"));  // the experiment definitions' spelling
  CHECK_FALSE(loss_entry("simclr").needs.labels);
}

TEST_CASE("Every loss parameter has its LossOptions default and refuses values outside its range", "[train][losses][registry]") {
  const LossOptions defaults;
  for (const auto& p : loss_parameters()) {
    CAPTURE(p.name);
    CHECK(p.get(defaults) == p.default_value);
    CHECK(loss_parameter_value(defaults, p.name) == p.default_value);
    CHECK_FALSE(p.meaning.empty());
    CHECK_NOTHROW(validate_loss_parameter(p.name, p.default_value));
  }
  LossOptions o;
  set_loss_parameter(o, "kernel-lambda", 0.25);
  set_loss_parameter(o, "clip_cosine", -0.5);
  set_loss_parameter(o, "exclude-partner", 1);
  CHECK(o.kernel_lambda == 0.25);
  CHECK(o.clip_cosine == -0.5);
  CHECK_FALSE(o.include_partner);
  CHECK_THROWS_WITH(set_loss_parameter(o, "kernel-lambda", -1.0), Catch::StartsWith("kernel-lambda must be a finite number > 0"));
  CHECK(o.kernel_lambda == 0.25);  // a refused value is not set
  CHECK_THROWS_WITH(validate_loss_parameter("alpha", 1.5), Catch::StartsWith("alpha must be in [0, 1]"));
  CHECK_THROWS_WITH(validate_loss_parameter("tau", 0.0), Catch::StartsWith("tau must be in"));
  CHECK_THROWS_WITH(validate_loss_parameter("clip-cosine", 2.0), Catch::StartsWith("clip-cosine must be in [-1, 1]"));
  CHECK_THROWS_WITH(validate_loss_parameter("negative-weight", -0.1), Catch::StartsWith("negative-weight must be"));
  CHECK_THROWS_WITH(validate_loss_parameter("exclude-partner", 0.5), Catch::StartsWith("exclude-partner is a flag"));
  CHECK_NOTHROW(validate_loss_parameter("base-temperature", 0.0));  // no factor
  CHECK_NOTHROW(validate_loss_parameter("base-temperature", 0.07));
  CHECK_THROWS_WITH(validate_loss_parameter("base-temperature", -0.07), Catch::StartsWith("base-temperature must be 0 (no factor) or in"));
  CHECK(loss_entry("supcon").reads("base-temperature"));
  CHECK_NOTHROW(validate_loss_parameter("clip-pos", 0.95));
  CHECK_THROWS_WITH(validate_loss_parameter("clip-pos", std::nan("")), Catch::StartsWith("clip-pos must be a finite number (1: clip at 1"));
  CHECK(loss_entry("spread-thanos-code").reads("clip-pos"));
  CHECK_FALSE(loss_entry("spread").reads("clip-pos"));
  CHECK_FALSE(loss_entry("supcon-in").reads("base-temperature"));
  LossOptions bad;
  bad.positive_weight = -1;
  CHECK_THROWS_WITH(validate(bad), Catch::StartsWith("positive-weight must be"));
}

TEST_CASE("Unknown losses and parameters are refused by name", "[train][losses][registry][errors]") {
  try {
    loss_entry("quadruplet");
    FAIL("quadruplet was accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.argument() == "loss");
    CHECK_THAT(e.what(), Catch::Contains("must be one of spread, supcon") && Catch::Contains("got 'quadruplet'"));
  }
  try {
    loss_parameter("temperature");
    FAIL("temperature was accepted");
  } catch (const InvalidArgument& e) {
    CHECK(e.argument() == "temperature");
    CHECK_THAT(e.what(), Catch::Contains("is not a loss parameter") && Catch::Contains("tau, alpha, exclude-partner, kernel-lambda"));
  }
  LossOptions o;
  CHECK_THROWS_WITH(set_loss_parameter(o, "margin", 1.0), Catch::StartsWith("margin is not a loss parameter"));
  CHECK_THROWS_WITH(require_loss_reads("spread", "clip-cosine"),
                    Catch::StartsWith("clip-cosine is not read by --loss spread (it reads tau, alpha, exclude-partner, noise-correction)"));
  CHECK_THROWS_WITH(require_loss_reads("ce", "tau"), Catch::StartsWith("tau is not read by --loss ce (it reads none)"));
  CHECK_THROWS_WITH(require_loss_reads("quadruplet", "tau"), Catch::Contains("loss must be one of"));
  CHECK_NOTHROW(require_loss_reads("clip-positives", "clip_cosine"));
  const LossBatch batch{torch::zeros({4, 2}), torch::zeros({2}, torch::kLong), two_view_partners(2), 2};
  CHECK_THROWS_WITH(batch_loss("ce", batch, o), Catch::Contains("ce has no loss on a batch of embeddings"));
  CHECK_THROWS_WITH(batch_loss("autoencoder", batch, o), Catch::Contains("autoencoder has no loss on a batch"));
}

TEST_CASE("Each registered batch loss is the trainer's former direct call, bit for bit", "[train][losses][registry][determinism]") {
  const std::string name = GENERATE(from_range(batch_loss_names()));
  const auto dtype = GENERATE(torch::kFloat, torch::kDouble);
  const int64_t B = GENERATE(6, 40);  // 40 > 25: cdist's matrix-product path in the k-means and kernels
  CAPTURE(name, dtype, B);
  // Options off their defaults, so that each is seen to reach its loss.
  LossOptions o;
  o.tau = 0.4;
  o.alpha = 0.7;
  o.include_partner = B == 6;
  o.kernel_lambda = 0.2;
  o.kernel_bandwidth = 0.8;
  o.clip_cosine = 0.3;
  o.positive_weight = 0.6;
  o.negative_weight = 1.7;
  o.base_temperature = 0.07;
  o.label_accuracy = 0.85;
  o.denominator_size = 3;
  const int64_t classes = 3;
  torch::manual_seed(static_cast<uint64_t>(B));
  const auto z0 = torch::nn::functional::normalize(torch::randn({2 * B, 5}, torch::kDouble),
                                                   torch::nn::functional::NormalizeFuncOptions().dim(1)).to(dtype);
  // Every class appears: each view has a positive (its partner) and a negative.
  const auto labels = torch::remainder(torch::arange(B, torch::kLong) * 7, classes);
  const auto partner = two_view_partners(B);
  const auto run = [&](bool registry) {
    auto z = z0.clone().requires_grad_(true);
    torch::manual_seed(99);  // the triplets' draws
    const auto loss = registry ? batch_loss(name, {z, labels, partner, classes}, o) : direct_call(name, o, z, labels, partner, classes);
    loss.backward();
    return std::make_pair(loss.detach(), z.grad());
  };
  const auto [registry_value, registry_gradient] = run(true);
  const auto [direct_value, direct_gradient] = run(false);
  REQUIRE(std::isfinite(registry_value.item<double>()));
  CHECK(registry_value.scalar_type() == dtype);
  CHECK(torch::equal(registry_value, direct_value));
  CHECK(torch::equal(registry_gradient, direct_gradient));
}

TEST_CASE("A dense loss too large for memory and more k-means clusters than rows are refused by name",
          "[train][losses][registry][errors]") {
  // 60000 samples, two views: cclk-weak's N x N matrices would need about 0.5 TB; the engine's
  // losses hold O(N d) and are not refused. Nothing is computed before the refusal.
  LossBatch big;
  big.labels = torch::arange(60000, torch::kLong).remainder(5);
  big.z = torch::zeros({120000, 2});
  big.partner = two_view_partners(60000);
  CHECK_THROWS_WITH(batch_loss("cclk-weak", big, LossOptions{}), Catch::StartsWith("features would need"));
  const LossEntry& supcon = loss_entry("supcon");
  CHECK(loss_memory_bytes(supcon, LossOptions{}, 120000, 2, 4) < 1e9);
  CHECK(loss_memory_bytes(loss_entry("cclk-weak"), LossOptions{}, 120000, 2, 4) > 4e11);
  // hardneg-infonce's clusters: at most one per row of the batch.
  LossBatch small;
  small.labels = torch::arange(4, torch::kLong);
  small.z = torch::nn::functional::normalize(torch::randn({8, 3}), torch::nn::functional::NormalizeFuncOptions().dim(1));
  small.partner = two_view_partners(4);
  small.num_classes = 5;
  CHECK_THROWS_WITH(batch_loss("hardneg-infonce", small, LossOptions{}),
                    Catch::StartsWith("num_classes (the k-means clusters of the batch's embeddings) must be at most the batch's 4 rows"));
}
