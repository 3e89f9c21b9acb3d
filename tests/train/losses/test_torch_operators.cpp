// geomsim.torch's operators (python/torch_ops.cpp), called through PyTorch's dispatcher as
// Python calls them: for every loss with a batch function, geomsim::batch_loss on SupContrast's
// layout [bsz, 2, dim] gives the loss registry's batch_loss on the stacked views bit for bit, and
// so do the gradients autograd takes through it; its option checks name the argument.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <ATen/core/dispatch/Dispatcher.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/losses/streamed_contrastive_loss.hpp"

using namespace geomsim::train;

namespace {

using BatchLossOperator = at::Tensor(c10::string_view, const at::Tensor&, const c10::optional<at::Tensor>&, int64_t,
                                     c10::ArrayRef<double>, c10::string_view, const c10::optional<at::Tensor>&);

c10::TypedOperatorHandle<BatchLossOperator> batch_loss_operator() {
  return c10::Dispatcher::singleton().findSchemaOrThrow("geomsim::batch_loss", "").typed<BatchLossOperator>();
}

std::string check_options(const std::string& loss, const std::string& given, const std::vector<double>& values,
                          const std::string& cond_kernel = "") {
  return c10::Dispatcher::singleton()
      .findSchemaOrThrow("geomsim::check_loss_options", "")
      .typed<std::string(c10::string_view, c10::string_view, c10::ArrayRef<double>, c10::string_view)>()
      .call(loss, given, values, cond_kernel);
}

// Every parameter's value, in loss_parameters()'s order (the operators' float[] options).
std::vector<double> option_values(const LossOptions& options) {
  std::vector<double> values;
  for (const LossParameter& p : loss_parameters()) values.push_back(p.get(options));
  return values;
}

}  // namespace

TEST_CASE("geomsim::batch_loss on [bsz, 2, dim] is the loss registry's batch_loss on the stacked views, value and gradient",
          "[torch_operators]") {
  const int64_t B = 12, d = 5, K = 3;
  torch::manual_seed(7);
  const auto unit = torch::nn::functional::NormalizeFuncOptions().dim(-1);
  const auto features = torch::nn::functional::normalize(torch::randn({B, 2, d}, torch::kDouble), unit);
  const auto labels = torch::arange(B, torch::kLong).remainder(K);
  LossOptions options;
  options.tau = 0.4;
  options.alpha = 0.7;
  options.kernel_lambda = 0.2;
  const std::vector<double> values = option_values(options);
  int compared = 0;
  for (const LossEntry& entry : loss_registry()) {
    if (entry.batch == nullptr) continue;
    INFO("loss " << entry.name);
    const int64_t num_classes = entry.needs.num_classes ? K : 0;
    // Through the operator, as geomsim.torch calls it.
    const auto f_op = features.clone().requires_grad_(true);
    torch::manual_seed(11);  // the triplet loss draws its positives and negatives
    const auto via_operator = batch_loss_operator().call(entry.name, f_op, labels, num_classes, values, "", c10::nullopt);
    via_operator.backward();
    // Directly: the views stacked as the trainer stacks them.
    const auto f_direct = features.clone().requires_grad_(true);
    const LossBatch batch{torch::cat({f_direct.select(1, 0), f_direct.select(1, 1)}), labels, two_view_partners(B),
                          num_classes};
    torch::manual_seed(11);
    const auto direct = batch_loss(entry.name, batch, options);
    direct.backward();
    CHECK(via_operator.dim() == 0);
    CHECK(torch::equal(via_operator, direct));
    CHECK(torch::equal(f_op.grad(), f_direct.grad()));
    ++compared;
  }
  CHECK(compared == 21);
}

TEST_CASE("geomsim::batch_loss passes CCL-K its conditioning kernel and values", "[torch_operators]") {
  const int64_t B = 10, d = 4;
  torch::manual_seed(3);
  const auto unit = torch::nn::functional::NormalizeFuncOptions().dim(-1);
  const auto features = torch::nn::functional::normalize(torch::randn({B, 2, d}, torch::kDouble), unit);
  const auto labels = torch::arange(B, torch::kLong).remainder(3);
  const auto condition = torch::randn({B, 3}, torch::kDouble);
  LossOptions options;
  options.cond_kernel = "rbf";
  options.cond_bandwidth = 0.7;
  for (const std::string loss : {"cclk-weak", "cclk-fair"}) {
    INFO("loss " << loss);
    const auto via_operator = batch_loss_operator().call(loss, features, labels, 0, option_values(options), "rbf", condition);
    LossBatch batch{torch::cat({features.select(1, 0), features.select(1, 1)}), labels, two_view_partners(B), 0};
    batch.condition = condition;
    CHECK(torch::equal(via_operator, batch_loss(loss, batch, options)));
    // The kernel and the values reach the loss: another kernel, or the labels, give another loss.
    CHECK_FALSE(torch::equal(via_operator, batch_loss_operator().call(loss, features, labels, 0, option_values(options), "",
                                                                      condition)));
    CHECK_FALSE(torch::equal(via_operator, batch_loss_operator().call(loss, features, labels, 0, option_values(options),
                                                                      "rbf", c10::nullopt)));
  }
}

TEST_CASE("geomsim::contrastive_forward and contrastive_backward are the streaming engine's two passes, and give their "
          "shapes alone on the meta device", "[torch_operators]") {
  using Forward = std::tuple<at::Tensor, at::Tensor>(const at::Tensor&, const at::Tensor&, const c10::optional<at::Tensor>&,
                                                     const c10::optional<at::Tensor>&, c10::string_view, double, double,
                                                     bool, double);
  using Backward = at::Tensor(const at::Tensor&, const at::Tensor&, const at::Tensor&, const c10::optional<at::Tensor>&,
                              const c10::optional<at::Tensor>&, const at::Tensor&, c10::string_view, double, double, bool,
                              double);
  const auto forward = c10::Dispatcher::singleton().findSchemaOrThrow("geomsim::contrastive_forward", "").typed<Forward>();
  const auto backward = c10::Dispatcher::singleton().findSchemaOrThrow("geomsim::contrastive_backward", "").typed<Backward>();
  const int64_t B = 6, d = 4;
  torch::manual_seed(5);
  const auto z = torch::randn({2 * B, d}, torch::kDouble);
  const auto labels = torch::arange(B, torch::kLong).remainder(3).repeat({2});
  const auto partner = two_view_partners(B);
  const auto anchors = torch::arange(2 * B).lt(B);  // contrast_mode 'one'
  ContrastiveLossSpec spec;
  spec.kind = ContrastiveKind::spread;
  spec.tau = 0.4;
  spec.alpha = 0.3;
  spec.include_partner = false;
  spec.scale = 2.0;
  const auto [loss, statistics] = forward.call(z, labels, partner, anchors, "spread", 0.4, 0.3, false, 2.0);
  const ContrastiveForward direct = contrastive_forward(z, labels, partner, anchors, spec);
  CHECK(torch::equal(loss, direct.loss));
  CHECK(torch::equal(statistics, direct.statistics));
  const auto grad = torch::full({}, 0.7, torch::kDouble);
  CHECK(torch::equal(backward.call(grad, z, labels, partner, anchors, statistics, "spread", 0.4, 0.3, false, 2.0),
                     contrastive_backward(grad, z, labels, partner, anchors, statistics, spec)));

  const auto meta = z.to(torch::kMeta);
  const auto [meta_loss, meta_statistics] =
      forward.call(meta, labels.to(torch::kMeta), c10::nullopt, c10::nullopt, "supcon", 0.4, 0.0, true, 1.0);
  CHECK((meta_loss.is_meta() && meta_loss.dim() == 0 && meta_loss.scalar_type() == torch::kDouble));
  CHECK((meta_statistics.is_meta() && meta_statistics.sizes() == torch::IntArrayRef{2 * B, kContrastiveStatistics} &&
         meta_statistics.scalar_type() == torch::kDouble));
  const auto meta_grad = backward.call(grad.to(torch::kMeta), meta, labels.to(torch::kMeta), c10::nullopt, c10::nullopt,
                                       meta_statistics, "supcon", 0.4, 0.0, true, 1.0);
  CHECK((meta_grad.is_meta() && meta_grad.sizes() == meta.sizes()));
}

TEST_CASE("geomsim::check_loss_options names the argument and its range, and refuses losses without a batch function",
          "[torch_operators]") {
  const std::vector<double> defaults = option_values(LossOptions{});
  CHECK(check_options("spread", "tau,alpha", defaults).empty());
  CHECK(check_options("spreads", "", defaults).rfind("loss\nmust be one of spread, supcon", 0) == 0);
  CHECK(check_options("ce", "", defaults).rfind("loss\nce has no loss on a batch", 0) == 0);
  CHECK(check_options("spread", "kernel-lambda", defaults) == "kernel-lambda\nis not read by --loss spread (it reads tau, alpha, exclude-partner, noise-correction)");
  std::vector<double> bad = defaults;
  bad[1] = 1.5;  // alpha
  CHECK(check_options("spread", "alpha", bad) == "alpha\nmust be in [0, 1], got 1.5");
  CHECK(check_options("spread", "", {0.5}).rfind("options\nmust hold", 0) == 0);
  CHECK(check_options("cclk-weak", "", defaults, "laplacian").empty());
  CHECK(check_options("cclk-weak", "", defaults, "gaussian").rfind("cond-kernel\n", 0) == 0);
  CHECK(check_options("spread", "", defaults, "rbf") == "cond-kernel\nis not read by --loss spread (it is read by cclk-weak, cclk-fair)");
}

TEST_CASE("geomsim::loss_catalog lists every loss and parameter of the registry", "[torch_operators]") {
  const std::string text = c10::Dispatcher::singleton()
                               .findSchemaOrThrow("geomsim::loss_catalog", "")
                               .typed<std::string()>()
                               .call();
  const auto catalog = nlohmann::json::parse(text);
  REQUIRE(catalog["losses"].size() == loss_registry().size());
  REQUIRE(catalog["parameters"].size() == loss_parameters().size());
  CHECK(catalog["losses"][0]["name"] == "spread");
  CHECK(catalog["losses"][0]["parameters"] == nlohmann::json({"tau", "alpha", "exclude-partner", "noise-correction"}));
  CHECK(catalog["parameters"][1]["name"] == "alpha");
  CHECK(catalog["parameters"][1]["default"] == 0.5);
}
