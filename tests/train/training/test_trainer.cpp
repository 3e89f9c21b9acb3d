// Encoders, augmentations, the trainer (determinism, checkpoints, resume) and the evaluation.
#include "train/catch_with_torch.hpp"
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/data/image_files.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
// The first n Fashion-MNIST test images as 1 x 28 x 28 floats in [0, 1], with fmnist-2 labels.
struct Small {
  torch::Tensor images, coarse, fine;
};
Small small_fashion(int64_t n) {
  const LabelledImages data = load_fashion_mnist(kFashionMnistDir, false);
  Small s;
  s.images = torch::from_blob(const_cast<std::uint8_t*>(data.images.data.data()), {n, 1, 28, 28}, torch::kUInt8)
                 .to(torch::kFloat) / 255.0;
  s.fine = torch::tensor(std::vector<int64_t>(data.labels.begin(), data.labels.begin() + n), torch::kLong);
  const auto coarse = coarse_labels(builtin_hierarchy("fmnist-2"), std::vector<int>(data.labels.begin(), data.labels.begin() + n));
  s.coarse = torch::tensor(std::vector<int64_t>(coarse.begin(), coarse.end()), torch::kLong);
  return s;
}
using geomsim::train::testing::identical;
using geomsim::train::testing::weights;
}  // namespace

TEST_CASE("Every encoder gives unit embeddings of the requested size", "[train][models]") {
  const std::string kind = GENERATE("mlp", "cnn", "vit");
  const EncoderOptions o = geomsim::train::testing::tiny_encoder(kind, 16, 32);
  Encoder e(o);
  const auto z = e->forward(torch::rand({5, 1, 28, 28}));
  CHECK(z.sizes() == torch::IntArrayRef({5, 16}));
  CHECK(torch::allclose(z.norm(2, 1), torch::ones({5}), 1e-5, 1e-6));
  CHECK_THROWS_WITH(e->forward(torch::rand({5, 3, 28, 28})), Catch::Contains("images must be B x 1 x 28 x 28"));
  EncoderOptions bad = o;
  bad.kind = "resnet";
  CHECK_THROWS_WITH(Encoder(bad), Catch::Contains("model must be mlp, cnn or vit"));
}

TEST_CASE("Augmentations keep shape and range, and vanish when switched off", "[train][augment]") {
  torch::manual_seed(1);
  const auto x = torch::rand({4, 1, 28, 28});
  const auto views = two_views(x, AugmentationOptions{});
  CHECK(views.sizes() == torch::IntArrayRef({8, 1, 28, 28}));
  CHECK(views.min().item<float>() >= 0.0f);
  CHECK(views.max().item<float>() <= 1.0f);
  CHECK_FALSE(torch::equal(views.narrow(0, 0, 4), views.narrow(0, 4, 4)));  // two different views
  AugmentationOptions none;
  none.max_shift = 0;
  none.flip = false;
  none.brightness = none.contrast = none.noise_std = 0.0;
  CHECK(torch::equal(augment(x, none), x));
  none.contrast = 2.0;
  CHECK_THROWS_WITH(augment(x, none), Catch::Contains("contrast must be in [0, 1]"));
}

TEST_CASE("Training is deterministic and a resumed run ends with the same weights", "[train][trainer][determinism]") {
  const Small data = small_fashion(256);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 16, 32);
  TrainOptions o;
  o.epochs = 2;
  o.batch_size = 64;
  o.seed = 3;
  const AugmentationOptions augmentation;
  const auto run = [&](const TrainOptions& options) {
    torch::manual_seed(options.seed);
    Encoder e(model);
    const TrainResult r = train_encoder(e, data.images, data.coarse, 2, options, augmentation);
    return std::make_pair(weights(e), r);
  };
  const auto [straight, result] = run(o);
  CHECK(result.epochs.size() == 2);
  CHECK(std::isfinite(result.epochs.back().loss));
  CHECK(result.epochs.back().samples_per_second > 0);
  CHECK(identical(run(o).first, straight));

  const fs::path checkpoint = fs::temp_directory_path() / ("geomsim-ckpt-" + std::to_string(::getpid()) + ".pt");
  TrainOptions first = o;  // the same run, stopped after its first epoch
  first.stop_after = 1;
  first.checkpoint = checkpoint.string();
  run(first);
  REQUIRE(fs::exists(checkpoint));
  CHECK_FALSE(fs::exists(checkpoint.string() + ".partial"));
  TrainOptions rest = o;
  rest.checkpoint = checkpoint.string();
  const auto [resumed, resumed_result] = run(rest);
  CHECK(resumed_result.resumed_epochs == 1);
  CHECK(resumed_result.epochs.size() == 2);
  CHECK(resumed_result.epochs[0].loss == result.epochs[0].loss);
  CHECK(identical(resumed, straight));

  // The checkpoint describes its model: it loads without the options and embeds as the run's encoder.
  CheckpointModel loaded = load_checkpoint_model(checkpoint.string());
  CHECK(loaded.epochs == 2);
  CHECK(loaded.description.encoder.kind == "mlp");
  CHECK(loaded.description.encoder.embedding_dim == 16);
  CHECK_FALSE(loaded.autoencoder);
  CHECK(identical(weights(loaded.encoder), straight));
  CHECK(is_geomsim_checkpoint(checkpoint.string()));

  std::ofstream(checkpoint, std::ios::trunc) << "not a checkpoint";
  CHECK_THROWS_WITH(run(rest), Catch::Contains("is not a readable geomsim checkpoint"));
  CHECK_THROWS_WITH(load_checkpoint_model(checkpoint.string()), Catch::Contains("is not a torch archive"));
  CHECK_FALSE(is_geomsim_checkpoint(checkpoint.string()));
  fs::remove(checkpoint);
  CHECK_THROWS_WITH(load_checkpoint_model(checkpoint.string()), Catch::Contains("checkpoint file not found"));

  TrainOptions bad = o;
  bad.loss = "quadruplet";
  CHECK_THROWS_WITH(run(bad), Catch::Contains("loss must be one of spread, supcon"));
  bad = o;
  bad.run_description = "[1, 2]";
  CHECK_THROWS_WITH(run(bad), Catch::Contains("run_description must be a JSON object"));
}

TEST_CASE("Every training loss takes a step with a finite loss", "[train][trainer]") {
  const Small data = small_fashion(64);
  const std::string loss = GENERATE(from_range(train_loss_names()));
  CAPTURE(loss);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  TrainOptions o;
  o.loss = loss;
  o.batch_size = 32;
  torch::manual_seed(0);
  Encoder e(model);
  const AutoencoderOptions ae = geomsim::train::testing::tiny_autoencoder(8);
  const TrainResult r = train_encoder(e, data.images, data.coarse, 2, o, AugmentationOptions{}, {}, Autoencoder(ae));
  REQUIRE(r.epochs.size() == 1);
  CHECK(std::isfinite(r.epochs[0].loss));
}

TEST_CASE("Evaluation: probes and the geometry of known embeddings", "[train][evaluation]") {
  // Two classes at +-e0, each with two subclasses at +-0.1 e1: separable at both levels.
  std::vector<float> rows;
  std::vector<int64_t> coarse, fine;
  for (int i = 0; i < 40; ++i) {
    const int z = i % 4, y = z / 2;
    rows.insert(rows.end(), {y ? -1.0f : 1.0f, (z % 2) ? 0.1f : -0.1f, 0.001f * static_cast<float>(i)});
    coarse.push_back(y);
    fine.push_back(z);
  }
  const auto x = torch::tensor(rows).view({40, 3});
  const auto yc = torch::tensor(coarse), yf = torch::tensor(fine);
  CHECK(mean_classifier_accuracy(x, yc, x, yc) == 1.0);
  CHECK(mean_classifier_accuracy(x, yf, x, yf) == 1.0);
  CHECK(linear_probe_accuracy(x, yf, x, yf, 300, 0.1) == 1.0);
  const EmbeddingGeometry g = embedding_geometry(x, yc, yf);
  CHECK(g.spread == Approx(0.1).margin(0.01));          // each class spreads +-0.1 around its mean
  CHECK(g.subclass_sigma < 0.02);                       // subclasses are tight
  REQUIRE(g.sigma_over_spread);
  CHECK(*g.sigma_over_spread == Approx(g.subclass_sigma / g.spread).epsilon(0.2));
  // The mean classifier's margin within a class is (W_z - W_z') . f(x) = 0.2 * 0.1 = 0.02 (to
  // the 0.001 i jitter): every point clears log 1.01 = 0.00995 and none clears log 1.1 = 0.0953.
  CHECK(g.pairs == 4);
  const EmbeddingGeometry loose = embedding_geometry(x, yc, yf, 1.01);
  CHECK(loose.margin_error == 0.0);  // two subclasses per class: Theorem 3 applies to both
  REQUIRE(loose.theorem3_classes.size() == 2);
  CHECK((loose.theorem3_classes[0].applies && loose.theorem3_classes[1].applies));
  REQUIRE(loose.pair_details.size() == 4);
  for (const auto& pair : loose.pair_details) {
    CHECK(pair.z / 2 == pair.z_prime / 2);  // pairs of subclasses within one class
    CHECK(pair.margin_error == 0.0);
    CHECK(pair.bound.has_value() == (pair.r > 2.0 * std::log(1.01)));
  }
  CHECK(embedding_geometry(x, yc, yf, 1.1).margin_error == 1.0);
  // One class of all four subclasses: Theorem 3 does not apply, and the report says why.
  const EmbeddingGeometry merged = embedding_geometry(x, torch::zeros_like(yc), yf, 1.01);
  CHECK(merged.pairs == 0);
  CHECK(!merged.margin_error.has_value());
  CHECK(merged.pair_details.empty());
  REQUIRE(merged.theorem3_classes.size() == 1);
  CHECK(merged.theorem3_classes[0].reason.find("4 subclasses: Theorem 3's delta_f needs exactly two") == 0);
  CHECK_THROWS_WITH(embedding_geometry(x, yc, yf, 1.0), Catch::Contains("gamma must be a finite number > 1"));
}

TEST_CASE("The per-class autoencoder routes each class to its decoder", "[train][autoencoder]") {
  torch::manual_seed(2);
  AutoencoderOptions o = geomsim::train::testing::tiny_autoencoder(8);
  o.classes = 3;
  o.mode = "per-class";
  Autoencoder ae(o);
  ae->eval();  // dropout off: a row alone and in the batch see the same network
  const auto x = torch::rand({6, 1, 28, 28});
  const auto labels = torch::tensor({0, 1, 2, 0, 1, 2}, torch::kLong);
  const auto all = ae->reconstruct(x, labels);
  CHECK(all.sizes() == x.sizes());
  // Row i alone, reconstructed with its label, is row i of the batch: the decoders are per class.
  for (int64_t i = 0; i < 6; ++i) {
    CHECK(torch::allclose(ae->reconstruct(x.narrow(0, i, 1), labels.narrow(0, i, 1)), all.narrow(0, i, 1)));
  }
  // Same input, different labels: different decoders, different outputs.
  CHECK_FALSE(torch::allclose(ae->reconstruct(x.narrow(0, 0, 1), torch::tensor({1}, torch::kLong)), all.narrow(0, 0, 1)));
  CHECK_THROWS_WITH(ae->reconstruct(x, torch::tensor({0, 1, 2, 3, 1, 2}, torch::kLong)), Catch::Contains("labels must be in [0, 3)"));
  // The training loss of the per-class and general modes is L_AE alone.
  CHECK(ae->training_loss(x, labels).item<double>() == Approx(reconstruction_loss(ae->reconstruct(x, labels), x).item<double>()).epsilon(1e-6));
  // L_AE as a direct sum.
  double direct = 0;
  for (int64_t i = 0; i < 6; ++i) direct += (all[i] - x[i]).pow(2).sum().item<double>() / 6.0;
  CHECK(reconstruction_loss(all, x).item<double>() == Approx(direct).epsilon(1e-5));
  o.mode = "general";
  Autoencoder general(o);
  general->eval();
  CHECK(torch::allclose(general->reconstruct(x.narrow(0, 0, 1), torch::tensor({1}, torch::kLong)),
                        general->reconstruct(x.narrow(0, 0, 1), torch::tensor({0}, torch::kLong))));
}

TEST_CASE("THANOS trains the autoencoder with the encoder and resumes exactly", "[train][trainer][thanos][determinism]") {
  const Small data = small_fashion(128);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  const AutoencoderOptions ae = geomsim::train::testing::tiny_autoencoder(16);
  TrainOptions o;
  o.loss = "thanos";
  o.epochs = 2;
  o.batch_size = 32;
  o.seed = 5;
  const fs::path checkpoint = fs::temp_directory_path() / ("geomsim-thanos-" + std::to_string(::getpid()) + ".pt");
  const auto run = [&](const TrainOptions& options) {
    torch::manual_seed(options.seed);
    Encoder e(model);
    Autoencoder a(ae);
    train_encoder(e, data.images, data.coarse, 2, options, AugmentationOptions{}, {}, a);
    auto w = weights(e);
    for (const auto& p : a->parameters()) w.push_back(p.detach().clone());
    const auto z = embed(e, data.images, 64, a);
    CHECK(z.size(1) == 12);
    CHECK(torch::allclose(z.norm(2, 1), torch::ones({z.size(0)}), 1e-5, 1e-6));
    return w;
  };
  const auto straight = run(o);
  CHECK(identical(geomsim::train::testing::resumed_after_first_epoch(o, checkpoint.string(), run), straight));
  fs::remove(checkpoint);
  torch::manual_seed(0);
  Encoder e(model);
  CHECK_THROWS_WITH(train_encoder(e, data.images, data.coarse, 2, o, AugmentationOptions{}), Catch::Contains("thanos needs an autoencoder"));
}

TEST_CASE("The joint autoencoder (seed 004 §5) adds a label-smoothed cross-entropy head to L_AE", "[train][autoencoder]") {
  torch::manual_seed(3);
  AutoencoderOptions o = geomsim::train::testing::tiny_autoencoder(8);
  o.classes = 3;
  o.label_smoothing = 0.2;
  CHECK(o.mode == "joint");  // the default: THANOS as §5 describes it
  Autoencoder ae(o);
  ae->eval();  // no dropout: the loss is deterministic
  const auto x = torch::rand({6, 1, 28, 28});
  const auto labels = torch::tensor({0, 1, 2, 0, 1, 2}, torch::kLong);
  // One decoder: the label does not change the reconstruction.
  CHECK(torch::allclose(ae->reconstruct(x.narrow(0, 0, 1), torch::tensor({1}, torch::kLong)),
                        ae->reconstruct(x.narrow(0, 0, 1), torch::tensor({2}, torch::kLong))));
  // L_AE + CE with smoothing 0.2 over 3 classes, by hand from the head's logits.
  const auto head = std::dynamic_pointer_cast<torch::nn::LinearImpl>(ae->named_children()["head"]);
  REQUIRE(head != nullptr);
  torch::NoGradGuard no_grad;
  const auto logits = head->forward(ae->encode(x)).to(torch::kDouble);
  const auto log_p = torch::log_softmax(logits, 1);
  double ce = 0;
  for (int64_t i = 0; i < 6; ++i) {
    for (int64_t k = 0; k < 3; ++k) {
      const double target = (k == labels[i].item<int64_t>() ? 0.8 : 0.0) + 0.2 / 3.0;
      ce -= target * log_p[i][k].item<double>() / 6.0;
    }
  }
  const double expected = reconstruction_loss(ae->reconstruct(x, labels), x).item<double>() + ce;
  CHECK(ae->training_loss(x, labels).item<double>() == Approx(expected).epsilon(1e-5));
  o.mode = "two decoders";
  CHECK_THROWS_WITH(Autoencoder(o), Catch::Contains("autoencoder must be joint, per-class or general"));
}

TEST_CASE("The autoencoder alone trains only the autoencoder, and its embedding is f_AE alone", "[train][trainer][autoencoder]") {
  const Small data = small_fashion(64);
  const EncoderOptions model = geomsim::train::testing::tiny_encoder("mlp", 8, 16);
  torch::manual_seed(4);
  Encoder e(model);
  const auto before = weights(e);
  Autoencoder ae(geomsim::train::testing::tiny_autoencoder(8));
  const auto ae_before = ae->parameters().front().detach().clone();
  TrainOptions o;
  o.loss = "autoencoder";
  o.batch_size = 32;
  train_encoder(e, data.images, data.coarse, 2, o, AugmentationOptions{}, {}, ae);
  CHECK(identical(weights(e), before));                                   // the encoder is untouched
  CHECK_FALSE(torch::equal(ae->parameters().front().detach(), ae_before));  // the autoencoder learned
  Encoder none{nullptr};
  const auto z = embed(none, data.images, 16, ae);
  CHECK(z.size(1) == 4);  // tiny_autoencoder's latent
  CHECK(torch::allclose(z.norm(2, 1), torch::ones({z.size(0)}), 1e-5, 1e-6));
  Encoder e2(model);
  CHECK_THROWS_WITH(train_encoder(e2, data.images, data.coarse, 2, o, AugmentationOptions{}), Catch::Contains("autoencoder needs an autoencoder"));
}

TEST_CASE("Recipes, the cosine period and the augmentation switch", "[train][trainer]") {
  TrainOptions o;
  apply_recipe(train_recipe("paper"), o);
  CHECK(o.learning_rate == 3e-4);
  CHECK(o.weight_decay == 0.0);
  CHECK(o.batch_size == 128);
  apply_recipe(train_recipe("paper-transfer"), o);
  CHECK(o.learning_rate == 1e-3);
  CHECK_THROWS_WITH(train_recipe("adam"), Catch::Contains("recipe must be geomsim, paper or paper-transfer"));
  // Augmentation off: augment() returns the images, so both views are the batch itself.
  const auto images = torch::rand({4, 1, 28, 28});
  CHECK(torch::equal(augment(images, no_augmentation()), images));
  const auto views = two_views(images, no_augmentation());
  CHECK(torch::equal(views.narrow(0, 0, 4), views.narrow(0, 4, 4)));
  // A cosine period of one epoch restarts the schedule each epoch: with T_max = epochs = 2 the
  // same run takes different steps, so the weights differ.
  const Small data = small_fashion(64);
  const auto train = [&](int64_t period) {
    torch::manual_seed(0);
    Encoder e(geomsim::train::testing::tiny_encoder("mlp", 8, 16));
    TrainOptions t;
    t.epochs = 2;
    t.batch_size = 32;
    t.cosine_period_epochs = period;
    train_encoder(e, data.images, data.coarse, 2, t, AugmentationOptions{});
    return weights(e);
  };
  CHECK(identical(train(0), train(2)));
  CHECK_FALSE(identical(train(0), train(1)));
}

TEST_CASE("bf16 precision runs the encoder under autocast, the loss and the weights in float32", "[train][trainer]") {
  const Small data = small_fashion(128);
  TrainOptions o;
  o.batch_size = 32;
  o.seed = 4;
  const auto run = [&](const std::string& precision) {
    TrainOptions options = o;
    options.precision = precision;
    torch::manual_seed(4);
    Encoder e(geomsim::train::testing::tiny_encoder("mlp", 8, 16));
    const TrainResult r = train_encoder(e, data.images, data.coarse, 2, options, AugmentationOptions{});
    return std::make_pair(weights(e), r);
  };
  const auto [plain, plain_result] = run("float32");
  const auto [mixed, mixed_result] = run("bf16");
  CHECK(std::isfinite(mixed_result.epochs.back().loss));
  for (const auto& w : mixed) CHECK(w.scalar_type() == torch::kFloat);
  // The products ran in bfloat16 (8 bits of mantissa): the same run ends elsewhere, not far.
  CHECK_FALSE(identical(plain, mixed));
  CHECK(std::abs(mixed_result.epochs.back().loss - plain_result.epochs.back().loss) < 0.1 * std::abs(plain_result.epochs.back().loss));
  TrainOptions bad = o;
  bad.precision = "fp16";
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("precision must be float32 or bf16"));
  bad.precision = "bf16";
  bad.loss = "ce";
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("precision bf16 applies to the encoder of the contrastive losses; ce"));
}
