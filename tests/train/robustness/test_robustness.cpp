// Robustness: Group DRO's weight update, Group DRO against ERM on a 2-D spurious toy with a
// linear model, JTT's upsampling, the end-model trainer's selection and resume, and the two
// data sets' documented counts.
#include "train/catch_with_torch.hpp"
#include <cmath>
#include <filesystem>
#include <unistd.h>

#include "geomsim/metrics/group_accuracy.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/robustness/group_dro.hpp"
#include "geomsim/train/robustness/just_train_twice.hpp"
#include "geomsim/train/robustness/robust_training.hpp"
#include "geomsim/train/data/robustness_data.hpp"
#include "geomsim/train/robustness/robustness_methods.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
using geomsim::train::testing::linear_model;

// Two classes, a weak core coordinate (class sign + N(0, 1)) and a strong spurious one
// (attribute sign + N(0, 0.1^2)); the attribute agrees with the class with probability
// `agreement`. As N x 2 x 1 x 1 "images" for a linear classifier. Groups: 2 class + attribute.
struct Toy {
  torch::Tensor x, y, groups;
};
Toy spurious_toy(int64_t n, double agreement, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> x;
  std::vector<int64_t> y, g;
  for (int64_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % 2);
    const int attribute = rng.uniform() < agreement ? label : 1 - label;
    x.push_back(static_cast<float>((2 * label - 1) + rng.normal()));
    x.push_back(static_cast<float>((2 * attribute - 1) + 0.1 * rng.normal()));
    y.push_back(label);
    g.push_back(2 * label + attribute);
  }
  Toy t;
  t.x = torch::tensor(x).view({n, 2, 1, 1});
  t.y = torch::tensor(y);
  t.groups = torch::tensor(g);
  return t;
}

std::vector<torch::Tensor> parameters_of(Classifier& m) {
  std::vector<torch::Tensor> out;
  for (const auto& p : m->parameters()) out.push_back(p.detach().clone());
  return out;
}

struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& name) : path(fs::temp_directory_path() / ("geomsim-robust-" + std::to_string(::getpid()) + name)) {}
  ~TempFile() {
    fs::remove(path);
    fs::remove(path.string() + ".partial");
  }
};

}  // namespace

TEST_CASE("Group DRO's weights follow the closed-form exponentiated-gradient step", "[train][robustness]") {
  // Three groups of training sizes 4, 9, 16; the batch holds groups 0 and 2 only.
  GroupDroOptions o;
  o.step_size = 0.3;
  o.adjustment = 0.6;  // C / sqrt(n_g) = 0.3, 0.2, 0.15
  GroupDro dro({4, 9, 16}, o);
  const auto losses = torch::tensor({0.5f, 1.5f, 2.0f, 0.25f}, torch::requires_grad());
  const auto groups = torch::tensor({0, 0, 2, 2}, torch::kLong);
  const auto robust = dro.robust_loss(losses, groups);
  // Batch group means: L = (1.0, 0 (absent), 1.125). From uniform q:
  const double L[3] = {1.0, 0.0, 1.125}, adjustment[3] = {0.3, 0.2, 0.15};
  double q[3], total = 0;
  for (int g = 0; g < 3; ++g) total += q[g] = std::exp(0.3 * (L[g] + adjustment[g])) / 3;
  const auto w = dro.weights();
  for (int g = 0; g < 3; ++g) CHECK(w[g].item<double>() == Approx(q[g] / total).epsilon(1e-14));
  // The loss is sum_g q_g L_g with the updated q; its gradient on an example is q_g / (batch count of g).
  CHECK(robust.item<double>() == Approx((q[0] * L[0] + q[2] * L[2]) / total).epsilon(1e-6));
  robust.backward();
  CHECK(losses.grad()[0].item<double>() == Approx(q[0] / total / 2).epsilon(1e-6));
  CHECK(losses.grad()[3].item<double>() == Approx(q[2] / total / 2).epsilon(1e-6));
  // A second step multiplies again: q_g proportional to exp(eta (L + a) + eta (L' + a)).
  dro.robust_loss(torch::tensor({3.0f}), torch::tensor({1}, torch::kLong));
  const double L2[3] = {0.0, 3.0, 0.0};
  double q2[3], total2 = 0;
  for (int g = 0; g < 3; ++g) total2 += q2[g] = q[g] * std::exp(0.3 * (L2[g] + adjustment[g]));
  for (int g = 0; g < 3; ++g) CHECK(dro.weights()[g].item<double>() == Approx(q2[g] / total2).epsilon(1e-14));
  // Bad input by name.
  CHECK_THROWS_WITH(GroupDro({4, 0}, o), Catch::Contains("at least one training example"));
  o.step_size = 0;
  CHECK_THROWS_WITH(GroupDro({4}, o), Catch::Contains("dro-eta must be"));
  CHECK_THROWS_WITH(group_mean_losses(losses.detach(), torch::tensor({0, 0, 3, 0}, torch::kLong), 3), Catch::Contains("groups must be in 0..2"));
}

TEST_CASE("Group DRO with the true groups beats ERM's worst group on a 2-D spurious toy", "[train][robustness]") {
  const Toy train = spurious_toy(2000, 0.95, 1), validation = spurious_toy(1000, 0.5, 2), test = spurious_toy(4000, 0.5, 3);
  EndModelData d;
  d.images = train.x;
  d.labels = train.y;
  d.groups = train.groups;
  d.num_groups = 4;
  d.validation_images = validation.x;
  d.validation_labels = validation.y;
  EndModelOptions o;
  o.epochs = 15;
  o.batch_size = 100;
  o.learning_rate = 0.1;
  o.l2 = 0.0;
  o.dro.step_size = 0.1;
  const auto worst_on_test = [&](Classifier& m) {
    return group_accuracy(to_ints(predict(m, test.x)), to_ints(test.y), to_ints(test.groups), 4).worst;
  };
  // ERM, selected by plain validation accuracy; Group DRO, by the true groups' worst accuracy.
  d.validation_groups = torch::zeros({1000}, torch::kLong);
  Classifier erm = make_classifier(linear_model(), 2, 0);
  o.objective = "erm";
  train_end_model(erm, 2, d, o);
  d.validation_groups = validation.groups;
  d.validation_num_groups = 4;
  Classifier dro = make_classifier(linear_model(), 2, 0);
  o.objective = "groupdro";
  const EndModelResult r = train_end_model(dro, 2, d, o);
  const double erm_worst = worst_on_test(erm), dro_worst = worst_on_test(dro);
  INFO("worst-group test accuracy: ERM " << erm_worst << ", Group DRO " << dro_worst);
  // ERM leans on the spurious coordinate: its minority groups fall to ~ the core's reach, far below.
  CHECK(erm_worst < 0.5);
  CHECK(dro_worst > 0.7);
  CHECK(dro_worst > erm_worst + 0.25);
  REQUIRE(r.group_weights.size() == 4);
  CHECK(r.group_weights[0] + r.group_weights[1] + r.group_weights[2] + r.group_weights[3] == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("JTT upsamples exactly the examples the first model misclassifies", "[train][robustness]") {
  // A first model with known errors: the linear classifier predicting class 1 when x0 > 0.
  const auto x = torch::tensor({-2.0f, 0.f, -1.0f, 0.f, 1.0f, 0.f, 3.0f, 0.f, -0.5f, 0.f, 0.5f, 0.f}).view({6, 2, 1, 1});
  const auto y = torch::tensor({0, 1, 1, 0, 0, 1}, torch::kLong);  // examples 1 and 3 disagree with the sign
  Classifier first = make_classifier(linear_model(), 2, 0);
  {
    torch::NoGradGuard no_grad;
    first->head->weight.copy_(torch::tensor({-1.0f, 0.f, 1.0f, 0.f}).view({2, 2}));
    first->head->bias.zero_();
  }
  const std::vector<int64_t> errors = error_set(first, x, y);
  CHECK(errors == std::vector<int64_t>{1, 3});
  const auto repeats = upsampling_repeats(6, errors, 5);
  CHECK(repeats == std::vector<int64_t>{1, 5, 1, 5, 1, 1});
  // An epoch visits every example exactly repeats[i] times.
  torch::manual_seed(3);
  const auto order = erm_epoch_order(repeats, 6);
  const auto visits = torch::bincount(order, {}, 6);
  for (int64_t i = 0; i < 6; ++i) CHECK(visits[i].item<int64_t>() == repeats[static_cast<std::size_t>(i)]);
  CHECK(std::get<0>(erm_epoch_order({}, 6).sort()).equal(torch::arange(6)));
  CHECK_THROWS_WITH(upsampling_repeats(6, errors, 0), Catch::Contains("jtt-upweight must be >= 1"));
  CHECK_THROWS_AS(upsampling_repeats(6, {6}, 2), InvalidArgument);
}

TEST_CASE("The end-model trainer resumes bitwise and refuses other options", "[train][robustness][determinism]") {
  const Toy train = spurious_toy(400, 0.9, 4), validation = spurious_toy(200, 0.5, 5);
  EndModelData d;
  d.images = train.x;
  d.labels = train.y;
  d.groups = train.groups;
  d.num_groups = 4;
  d.validation_images = validation.x;
  d.validation_labels = validation.y;
  d.validation_groups = validation.groups;
  d.validation_num_groups = 4;
  EndModelOptions o;
  o.objective = "groupdro";
  o.epochs = 4;
  o.batch_size = 32;
  o.run_description = R"({"lr":0.05})";
  Classifier whole = make_classifier(linear_model(), 2, 7);
  const EndModelResult full = train_end_model(whole, 2, d, o);
  const TempFile file("end.pt");
  o.checkpoint = file.path.string();
  o.stop_after = 2;
  Classifier part = make_classifier(linear_model(), 2, 7);
  const EndModelResult first = train_end_model(part, 2, d, o);
  CHECK_FALSE(first.finished);
  CHECK(first.epochs.size() == 2);
  o.stop_after = 0;
  Classifier resumed = make_classifier(linear_model(), 2, 7);
  const EndModelResult second = train_end_model(resumed, 2, d, o);
  CHECK(second.resumed_epochs == 2);
  CHECK(second.finished);
  CHECK(second.best_epoch == full.best_epoch);
  CHECK(second.group_weights == full.group_weights);
  const auto a = parameters_of(whole), b = parameters_of(resumed);
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i].equal(b[i]));
  // The selected epoch is the best validation worst-group accuracy, the earliest on ties.
  double best = -1;
  int64_t best_epoch = 0;
  for (const auto& e : full.epochs) {
    if (e.validation_worst > best) {
      best = e.validation_worst;
      best_epoch = e.epoch;
    }
  }
  CHECK(full.best_epoch == best_epoch);
  // Another description: refused, naming what differs.
  o.run_description = R"({"lr":0.1})";
  Classifier other = make_classifier(linear_model(), 2, 7);
  CHECK_THROWS_WITH(train_end_model(other, 2, d, o), Catch::Contains("other options (lr 0.05 (now 0.1))"));
}

TEST_CASE("The robustness data sets have the documented group counts and are deterministic", "[train][robustness][data]") {
  const LabelledImages train_source = load_fashion_mnist(kFashionMnistDir, true);
  const LabelledImages test_source = load_fashion_mnist(kFashionMnistDir, false);
  RobustnessDataOptions o;
  o.train_per_subclass = 200;
  o.validation_per_subclass = 50;
  o.test_per_subclass = 60;
  const auto counts = [](const torch::Tensor& groups, int64_t G) {
    const auto b = torch::bincount(groups, {}, G);
    return std::vector<int64_t>(b.data_ptr<int64_t>(), b.data_ptr<int64_t>() + G);
  };
  SECTION("spurious") {
    o.dataset = "spurious";
    const GroupedData d = build_robustness_data(train_source, test_source, o);
    // n_y = 5 x 200 = 1000 per class; m_y = round(0.05 x 1000) = 50 disagree; halves elsewhere.
    CHECK(counts(d.train.groups, 4) == std::vector<int64_t>{950, 50, 50, 950});
    CHECK(counts(d.validation.groups, 4) == std::vector<int64_t>{125, 125, 125, 125});
    CHECK(counts(d.test.groups, 4) == std::vector<int64_t>{150, 150, 150, 150});
    CHECK(counts(d.train.groups, 4) == robustness_group_counts(o, Split::train));
    CHECK(counts(d.test.groups, 4) == robustness_group_counts(o, Split::test));
    CHECK(d.train.labels.equal((d.train.fine >= 5).to(torch::kLong)));
    // The frame: bright for background 0, checkered for 1, over 3 pixels of border.
    for (int64_t i : {0, 1, 500, 999, 1500}) {
      const auto image = d.train.images[i][0];
      const int64_t b = d.train.attribute[i].item<int64_t>();
      CHECK(image[0][0].item<float>() == 1.0f);
      CHECK(image[0][1].item<float>() == (b == 0 ? 1.0f : 0.0f));
      CHECK(image[2][27].item<float>() == (b == 0 ? 1.0f : 0.0f));  // row 2 + column 27 is odd
    }
    // Same seed, same images and groups; another seed, other ones.
    const GroupedData again = build_robustness_data(train_source, test_source, o);
    CHECK(again.train.images.equal(d.train.images));
    CHECK(again.train.groups.equal(d.train.groups));
    CHECK(again.test.images.equal(d.test.images));
    o.seed = 1;
    const GroupedData other = build_robustness_data(train_source, test_source, o);
    CHECK_FALSE(other.train.images.equal(d.train.images));
    CHECK(counts(other.train.groups, 4) == counts(d.train.groups, 4));
  }
  SECTION("undersampled") {
    o.dataset = "undersampled";
    const GroupedData d = build_robustness_data(train_source, test_source, o);
    std::vector<int64_t> train_counts(10, 200);
    train_counts[kUndersampledSubclass] = 10;  // round(0.05 x 200)
    CHECK(counts(d.train.groups, 10) == train_counts);
    CHECK(counts(d.validation.groups, 10) == std::vector<int64_t>(10, 50));
    CHECK(counts(d.test.groups, 10) == std::vector<int64_t>(10, 60));
    CHECK(counts(d.train.groups, 10) == robustness_group_counts(o, Split::train));
    CHECK(d.group_names[kUndersampledSubclass] == "Bag");
    CHECK_FALSE(d.has_attribute());
    const GroupedData again = build_robustness_data(train_source, test_source, o);
    CHECK(again.train.images.equal(d.train.images));
    CHECK(again.validation.images.equal(d.validation.images));
  }
  SECTION("bad options") {
    o.dataset = "waterbirds";
    CHECK_THROWS_WITH(build_robustness_data(train_source, test_source, o), Catch::Contains("dataset must be undersampled or spurious"));
    o.dataset = "spurious";
    o.train_per_subclass = 6000;
    CHECK_THROWS_WITH(build_robustness_data(train_source, test_source, o), Catch::Contains("train-per-subclass"));
    o.train_per_subclass = 10;
    o.agreement = 0.2;
    CHECK_THROWS_WITH(build_robustness_data(train_source, test_source, o), Catch::Contains("agreement must be in [0.5, 1]"));
  }
}

TEST_CASE("A robustness method names the labels it sees, and cclk-fair needs the background", "[train][robustness]") {
  for (const auto& method : robustness_methods()) {
    const LabelsSeen& seen = method.labels;
    CHECK_FALSE(seen.end_model.empty());
    CHECK_FALSE(seen.model_selection.empty());
    CHECK((seen.model_selection.find("true groups") != std::string::npos) == (method.groups == RobustnessGroups::true_groups));
    CHECK(seen.representation.empty() == (method.groups == RobustnessGroups::none || method.groups == RobustnessGroups::true_groups));
    CHECK(&robustness_method(method.name) == &method);
    // A method's encoder trains with a loss of the loss registry, and only a clustering method has one.
    if (method.trains_encoder()) {
      CHECK(method.uses_clusters());
      CHECK_NOTHROW(loss_entry(method.encoder_loss));
    }
  }
  CHECK(robustness_method("cclk-fair").labels.representation.find("no class labels") != std::string::npos);
  CHECK(robustness_method("cclk-fair").conditions_on_attribute);
  CHECK_FALSE(robustness_method("george").trains_encoder());
  CHECK(robustness_method("george").uses_clusters());
  CHECK_THROWS_WITH(robustness_method("dro"), Catch::Contains("must be one of erm, jtt, george, supcon, spread, thanos, groupdro-oracle, cclk-fair; got 'dro'"));
  // L_spread alone (seed 000's Table 3) trains its encoder on the class labels, as SupCon does.
  CHECK(robustness_method("spread").trains_encoder());
  CHECK(robustness_method("spread").labels.representation == robustness_method("supcon").labels.representation);
  RobustnessOptions spread;
  spread.method = "spread";
  CHECK_NOTHROW(validate(spread, false));
  spread.encoder.loss_options.alpha = 1.5;
  CHECK_THROWS_WITH(validate(spread, false), Catch::Contains("alpha"));
  RobustnessOptions o;
  o.method = "cclk-fair";
  CHECK_THROWS_WITH(validate(o, false), Catch::Contains("only the spurious data set has"));
  CHECK_NOTHROW(validate(o, true));
  o.method = "dro";
  CHECK_THROWS_WITH(validate(o, true), Catch::Contains("method must be one of"));
}
