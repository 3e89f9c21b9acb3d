// The seeds' joint cross-entropy head (joint_head.hpp, TrainOptions::head): its loss against
// hand computations, the labelled share, dropout, and the trainer with it (the step's total
// loss, determinism and resume, and bit-for-bit the old training when it is off).
#include "train/catch_with_torch.hpp"
#include <filesystem>
#include <unistd.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/augmentations.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/training/joint_head.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;
using geomsim::train::testing::identical;
using geomsim::train::testing::weights;

namespace joint_head_test {

// torch's CrossEntropyLoss(label_smoothing = e) by its definition, in double: each row's target
// is (1 - e) one-hot(y) + e / K, and the row's loss -sum_k target_k log softmax(logits)_k; the
// mean over the rows with mask[i] (every row without a mask).
double smoothed_cross_entropy(const torch::Tensor& logits, const torch::Tensor& labels, double e,
                              const std::vector<bool>& mask = {}) {
  const auto log_p = torch::log_softmax(logits.to(torch::kDouble), 1);
  const int64_t n = log_p.size(0), k = log_p.size(1);
  double total = 0.0;
  int64_t rows = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!mask.empty() && !mask[static_cast<std::size_t>(i)]) continue;
    const int64_t y = labels[i].item<int64_t>();
    for (int64_t c = 0; c < k; ++c) {
      const double target = (c == y ? 1.0 - e : 0.0) + e / static_cast<double>(k);
      total -= target * log_p[i][c].item<double>();
    }
    ++rows;
  }
  return rows == 0 ? 0.0 : total / static_cast<double>(rows);
}

// Random images (1 x 28 x 28 in [0, 1]) and labels 0..classes-1 in turn.
struct HeadData {
  torch::Tensor images, labels;
};
HeadData images_and_labels(int64_t n, int64_t classes, uint64_t seed) {
  torch::manual_seed(seed);
  return {torch::rand({n, 1, 28, 28}), torch::arange(n, torch::kLong).remainder(classes)};
}

bool refused_naming(const std::function<void()>& call, const std::string& argument) {
  try {
    call();
  } catch (const InvalidArgument& e) {
    return e.argument() == argument;
  }
  return false;
}

}  // namespace joint_head_test

TEST_CASE("The joint head's options are refused outside their ranges, naming the option", "[train][joint_head]") {
  JointHeadOptions o;
  CHECK_FALSE(o.enabled());  // off by default
  validate(o);
  const auto bad = [](auto change, const std::string& argument, const std::string& range) {
    JointHeadOptions h;
    change(h);
    CHECK(joint_head_test::refused_naming([&] { validate(h); }, argument));
    CHECK_THROWS_WITH(validate(h), Catch::Contains(range));
  };
  bad([](JointHeadOptions& h) { h.weight = -1; }, "head-weight", "must be finite and >= 0");
  bad([](JointHeadOptions& h) { h.weight = std::nan(""); }, "head-weight", ">= 0");
  bad([](JointHeadOptions& h) { h.weight = HUGE_VAL; }, "head-weight", "finite");
  bad([](JointHeadOptions& h) { h.label_smoothing = 1.0; }, "head-label-smoothing", "must be in [0, 1)");
  bad([](JointHeadOptions& h) { h.label_smoothing = -0.1; }, "head-label-smoothing", "[0, 1)");
  bad([](JointHeadOptions& h) { h.dropout = 1.0; }, "head-dropout", "must be in [0, 1)");
  bad([](JointHeadOptions& h) { h.labelled_share = 0.0; }, "head-labelled-share", "must be in (0, 1]");
  bad([](JointHeadOptions& h) { h.labelled_share = 1.5; }, "head-labelled-share", "(0, 1]");
  // The trainer refuses a head on a loss that is not a contrastive batch loss.
  TrainOptions t;
  t.head.weight = 1.0;
  validate(t);  // spread: fine
  for (const std::string loss : {"ce", "autoencoder"}) {
    t.loss = loss;
    CHECK(joint_head_test::refused_naming([&] { validate(t); }, "head-weight"));
  }
  t.loss = "simclr";  // seed 004 F.3 pairs the head with InfoNCE too
  validate(t);
}

TEST_CASE("The labelled share is a fixed subset of round(share x N) samples, chosen by the seed", "[train][joint_head]") {
  for (const auto& [n, share, expected] : std::vector<std::tuple<int64_t, double, int64_t>>{
           {1000, 0.2, 200}, {1000, 0.01, 10}, {7, 0.2, 1}, {7, 0.5, 4}, {10, 1e-9, 1}, {10, 1.0, 10}, {1, 0.3, 1}}) {
    CAPTURE(n, share);
    CHECK(labelled_count(n, share) == expected);
    const auto mask = labelled_samples(n, share, 42);
    CHECK(mask.dtype() == torch::kBool);
    CHECK(mask.size(0) == n);
    CHECK(mask.sum().item<int64_t>() == expected);
  }
  // The same seed, the same subset; another seed, another one.
  CHECK(torch::equal(labelled_samples(1000, 0.2, 42), labelled_samples(1000, 0.2, 42)));
  CHECK_FALSE(torch::equal(labelled_samples(1000, 0.2, 42), labelled_samples(1000, 0.2, 43)));
  // A larger share of the same seed holds the smaller one (the smallest keys first).
  const auto small = labelled_samples(1000, 0.2, 5), large = labelled_samples(1000, 0.5, 5);
  CHECK(torch::equal(small.logical_and(large), small));
  // No torch generator is drawn from: the stream after it is the stream without it.
  torch::manual_seed(9);
  const auto before = torch::rand({3});
  torch::manual_seed(9);
  labelled_samples(1000, 0.2, 1);
  CHECK(torch::equal(torch::rand({3}), before));
  // Spread over the set: each half of the indices holds 100 +- 30 of the 200 (binomial-like, sd about 7).
  const auto first_half = labelled_samples(1000, 0.2, 42).narrow(0, 0, 500).sum().item<int64_t>();
  CHECK(std::abs(first_half - 100) <= 30);
}

TEST_CASE("The head's loss is torch's label-smoothed cross-entropy, over the labelled rows", "[train][joint_head]") {
  torch::manual_seed(4);
  torch::nn::Linear head(6, 3);
  head->to(torch::kDouble);
  const auto features = torch::randn({8, 6}, torch::kDouble);
  const auto labels = torch::tensor({0, 1, 2, 0, 1, 2, 2, 1}, torch::kLong);
  torch::NoGradGuard no_grad;
  const auto logits = head->forward(features);
  for (const double e : {0.0, 0.1, 0.3}) {
    CAPTURE(e);
    JointHeadOptions o;
    o.weight = 1.0;
    o.label_smoothing = e;
    o.dropout = 0.5;  // off at evaluation (training = false)
    const double by_hand = joint_head_test::smoothed_cross_entropy(logits, labels, e);
    // torch's own definition agrees with the hand's (float64: 1e-12, a few ulps of the sums).
    namespace F = torch::nn::functional;
    CHECK(F::cross_entropy(logits, labels, F::CrossEntropyFuncOptions().label_smoothing(e)).item<double>() ==
          Approx(by_hand).epsilon(0).margin(1e-12));
    CHECK(joint_head_loss(o, head, features, labels, {}, false).item<double>() == Approx(by_hand).epsilon(0).margin(1e-12));
    // Over a labelled subset: the mean over its rows only.
    const std::vector<bool> mask = {true, false, false, true, true, false, false, true};
    const auto labelled = torch::tensor(std::vector<int64_t>{1, 0, 0, 1, 1, 0, 0, 1}).to(torch::kBool);
    CHECK(joint_head_loss(o, head, features, labels, labelled, false).item<double>() ==
          Approx(joint_head_test::smoothed_cross_entropy(logits, labels, e, mask)).epsilon(0).margin(1e-12));
    // No labelled row: 0, not NaN.
    CHECK(joint_head_loss(o, head, features, labels, torch::zeros({8}, torch::kBool), false).item<double>() == 0.0);
  }
}

TEST_CASE("The head's dropout acts in training only", "[train][joint_head]") {
  torch::manual_seed(2);
  torch::nn::Linear head(16, 3);
  const auto features = torch::randn({32, 16});
  torch::NoGradGuard no_grad;
  const auto plain = head->forward(features);
  CHECK(torch::equal(joint_head_logits(head, features, 0.5, false), plain));  // evaluation: none
  CHECK(torch::equal(joint_head_logits(head, features, 0.0, true), plain));   // rate 0: none
  CHECK_FALSE(torch::equal(joint_head_logits(head, features, 0.5, true), plain));
  // The scale: 0 or 1 / (1 - p) per element, 0 in about p of them (4096 draws: sd 0.007), the
  // same draws as the logits' for the same generator state.
  torch::manual_seed(5);
  const auto scale = joint_head_dropout_scale(32, 128, 0.5, features.options());
  CHECK(torch::logical_or(scale.eq(0), scale.eq(2)).all().item<bool>());
  CHECK(std::abs(scale.eq(0).to(torch::kDouble).mean().item<double>() - 0.5) < 0.03);
  torch::manual_seed(5);
  const auto dropped = joint_head_dropout_scale(32, 16, 0.5, features.options());
  torch::manual_seed(5);
  CHECK(torch::equal(joint_head_logits(head, features, 0.5, true), head->forward(features * dropped)));
  // Rate 0 draws nothing from the generator.
  torch::manual_seed(3);
  const auto next = torch::rand({2});
  torch::manual_seed(3);
  joint_head_logits(head, features, 0.0, true);
  CHECK(torch::equal(torch::rand({2}), next));
}

TEST_CASE("A step's loss is the contrastive loss plus weight x the head's cross-entropy", "[train][joint_head][trainer]") {
  // One step on 32 samples with no augmentation and no dropout, recomputed independently: the
  // encoder's initial weights (the same seed), the trainer's draws in its order (the head's
  // initialisation after manual_seed(seed), then the epoch's permutation), SupCon on the unit
  // features and the hand's smoothed cross-entropy on the labelled rows of both views.
  const joint_head_test::HeadData data = joint_head_test::images_and_labels(32, 3, 1);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  const double weight = GENERATE(0.5, 2.0);
  const double share = GENERATE(1.0, 0.5);
  CAPTURE(weight, share);
  TrainOptions o;
  o.loss = "supcon";
  o.batch_size = 32;
  o.seed = 7;
  o.sync_every = 1;
  o.head = {weight, 0.2, 0.0, share};
  double reported = std::nan("");
  o.on_step = [&](const StepReport& r) {
    if (r.step == 1) reported = r.loss;
  };
  torch::manual_seed(100);
  Encoder trained(model);
  torch::manual_seed(100);
  Encoder fresh(model);
  train_encoder(trained, data.images, data.labels, 3, o, no_augmentation());
  REQUIRE(std::isfinite(reported));

  torch::manual_seed(o.seed);
  torch::nn::Linear head(8, 3);
  const auto order = torch::randperm(32, torch::kLong);
  const auto views = two_views(data.images.index({order}), no_augmentation());
  const auto y = data.labels.index({order});
  torch::NoGradGuard no_grad;
  fresh->train();
  const auto features = fresh->features(views);
  const auto z = torch::nn::functional::normalize(features, torch::nn::functional::NormalizeFuncOptions().dim(1));
  const double contrastive = batch_loss("supcon", {z, y, two_view_partners(32), 3}, o.loss_options).item<double>();
  std::vector<bool> mask(64, true);
  if (share < 1.0) {
    const auto labelled = labelled_samples(32, share, o.seed).index({order});
    for (int64_t i = 0; i < 32; ++i) mask[static_cast<std::size_t>(i)] = mask[static_cast<std::size_t>(i + 32)] = labelled[i].item<bool>();
  }
  const double ce = joint_head_test::smoothed_cross_entropy(head->forward(features), torch::cat({y, y}), 0.2, mask);
  // float32 arithmetic in the trainer against double here: 1e-6 relative (the step's sums hold ~100 terms).
  CHECK(reported == Approx(contrastive + weight * ce).epsilon(1e-6));
  CHECK(ce > 0.1);  // the head's term is not negligible beside the tolerance
}

TEST_CASE("With the head's weight 0, training is bit for bit that without the head", "[train][joint_head][trainer][determinism]") {
  const joint_head_test::HeadData data = joint_head_test::images_and_labels(96, 3, 2);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  TrainOptions plain;
  plain.loss = "spread";
  plain.epochs = 2;
  plain.batch_size = 32;
  plain.seed = 4;
  TrainOptions off = plain;
  off.head = {0.0, 0.3, 0.5, 0.2};  // every setting but the weight changed: no effect
  const fs::path checkpoint = fs::temp_directory_path() / ("geomsim-head-off-" + std::to_string(::getpid()) + ".pt");
  const auto run = [&](const TrainOptions& options) {
    torch::manual_seed(1);
    Encoder e(model);
    const TrainResult r = train_encoder(e, data.images, data.labels, 3, options, AugmentationOptions{});
    CHECK_FALSE(r.classifier);  // no head returned
    std::vector<double> losses;
    for (const auto& epoch : r.epochs) losses.push_back(epoch.loss);
    return std::make_pair(weights(e), losses);
  };
  const auto [w_plain, l_plain] = run(plain);
  const auto [w_off, l_off] = run(off);
  CHECK(identical(w_plain, w_off));
  CHECK(l_plain == l_off);
  // The checkpoint's options record is the one without the head: a run stopped without the
  // option resumes with the head off (and an older checkpoint, which has no head, resumes too).
  TrainOptions first = plain;
  first.stop_after = 1;
  first.checkpoint = checkpoint.string();
  run(first);
  off.checkpoint = checkpoint.string();
  CHECK(identical(run(off).first, w_plain));
  fs::remove(checkpoint);
}

TEST_CASE("Training with the joint head is deterministic, resumes exactly and reports its head", "[train][joint_head][trainer][determinism]") {
  const joint_head_test::HeadData data = joint_head_test::images_and_labels(96, 3, 3);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  TrainOptions o;
  o.loss = "supcon";
  o.epochs = 2;
  o.batch_size = 32;
  o.seed = 5;
  o.head = {0.5, 0.1, 0.3, 0.5};  // dropout draws from the generator every step: the resume must restore it
  const fs::path checkpoint = fs::temp_directory_path() / ("geomsim-head-" + std::to_string(::getpid()) + ".pt");
  const auto run = [&](const TrainOptions& options) {
    torch::manual_seed(options.seed);
    Encoder e(model);
    const TrainResult r = train_encoder(e, data.images, data.labels, 3, options, AugmentationOptions{});
    REQUIRE(r.classifier);
    CHECK_FALSE(r.classifier->is_training());  // returned for evaluation: no dropout
    auto w = weights(e);
    for (const auto& p : r.classifier->parameters()) w.push_back(p.detach().clone());
    return w;
  };
  const auto straight = run(o);
  CHECK(identical(run(o), straight));
  CHECK(identical(geomsim::train::testing::resumed_after_first_epoch(o, checkpoint.string(), run), straight));
  // The head's settings are part of the options a resume must repeat.
  TrainOptions first = o;
  first.stop_after = 1;
  first.checkpoint = checkpoint.string();
  run(first);
  TrainOptions other = o;
  other.checkpoint = checkpoint.string();
  other.head.weight = 1.0;
  CHECK_THROWS_WITH(run(other), Catch::Contains("head-weight"));
  other = o;
  other.checkpoint = checkpoint.string();
  other.head.weight = 0.0;
  CHECK_THROWS_WITH(run(other), Catch::Contains("head-") && Catch::Contains("is not given (its default)"));
  fs::remove(checkpoint);
  // The head changes the training (the same seed without it ends elsewhere).
  TrainOptions without = o;
  without.head.weight = 0.0;
  torch::manual_seed(o.seed);
  Encoder e(model);
  train_encoder(e, data.images, data.labels, 3, without, AugmentationOptions{});
  const auto encoder_only = weights(e);
  CHECK_FALSE(identical(encoder_only, {straight.begin(), straight.begin() + static_cast<std::ptrdiff_t>(encoder_only.size())}));
}

TEST_CASE("The joint head trains on its own targets and is scored by its own softmax", "[train][joint_head][trainer]") {
  // Noisy labels for the loss, clean ones for the head (seed 000 E.3.2), with another number of classes.
  const joint_head_test::HeadData data = joint_head_test::images_and_labels(64, 4, 6);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  TrainOptions o;
  o.loss = "supcon";
  o.batch_size = 32;
  o.seed = 2;
  o.head = {1.0, 0.1, 0.05, 0.2};
  const auto noisy = torch::arange(64, torch::kLong).remainder(2);
  torch::manual_seed(0);
  Encoder e(model);
  TrainResult r = train_encoder(e, data.images, noisy, 2, o, AugmentationOptions{}, {}, nullptr, {}, {data.labels, 4});
  REQUIRE(r.classifier);
  CHECK(r.classifier->options.out_features() == 4);
  // head_accuracy's logits: the head on the features, without dropout (the same twice).
  const auto logits = classifier_logits(e, r.classifier, data.images);
  CHECK(torch::equal(logits, classifier_logits(e, r.classifier, data.images)));
  {
    torch::NoGradGuard no_grad;
    CHECK(torch::allclose(logits, r.classifier->forward(e->features(data.images)), 1e-6, 1e-6));
  }
  // Targets out of range, or of the wrong length: refused before training.
  torch::manual_seed(0);
  Encoder again(model);
  CHECK(joint_head_test::refused_naming([&] { train_encoder(again, data.images, noisy, 2, o, AugmentationOptions{}, {}, nullptr, {}, {data.labels, 3}); },
                       "head-labels"));
  CHECK(joint_head_test::refused_naming(
      [&] { train_encoder(again, data.images, noisy, 2, o, AugmentationOptions{}, {}, nullptr, {}, {data.labels.narrow(0, 0, 10), 4}); },
      "head-labels"));
}
