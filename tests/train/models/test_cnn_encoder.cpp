// The CNN encoder's fast form (encoders.cpp): pooling before each ReLU and channels-last
// convolutions. It must compute the textbook conv - ReLU - pool network, and train and resume
// as exactly as before.
#include "train/catch_with_torch.hpp"
#include <filesystem>
#include <unistd.h>

#include "geomsim/train/models/encoders.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
// Images in [0, 1] with a black border, as Fashion-MNIST's: on it a convolution gives exactly
// its bias, so pooling windows hold ties, where the order of ReLU and pooling could show.
torch::Tensor bordered_images(int64_t n) {
  auto x = torch::zeros({n, 1, 28, 28});
  x.narrow(2, 6, 16).narrow(3, 6, 16).copy_(torch::rand({n, 1, 16, 16}));
  return x;
}

// conv - ReLU - pool - conv - ReLU - pool - linear - ReLU - linear, by the encoder's own layers.
torch::Tensor textbook(Encoder& e, const torch::Tensor& x) {
  auto& body = *e->body();
  auto conv1 = body[0]->as<torch::nn::Conv2d>(), conv2 = body[3]->as<torch::nn::Conv2d>();
  auto fc1 = body[7]->as<torch::nn::Linear>(), fc2 = body[9]->as<torch::nn::Linear>();
  namespace F = torch::nn::functional;
  auto y = F::max_pool2d(torch::relu(conv1->forward(x)), F::MaxPool2dFuncOptions(2));
  y = F::max_pool2d(torch::relu(conv2->forward(y)), F::MaxPool2dFuncOptions(2));
  return fc2->forward(torch::relu(fc1->forward(y.flatten(1))));
}
}  // namespace

TEST_CASE("The CNN computes conv - ReLU - pool exactly, gradients included", "[train][models][cnn]") {
  torch::manual_seed(4);
  Encoder e(EncoderOptions{});
  const auto x = bordered_images(6).requires_grad_(true);
  const auto u = torch::randn({6, 128});
  const auto ours = e->features(x);
  const auto gradients = torch::autograd::grad({(ours * u).sum()}, {x, e->parameters()[0], e->parameters()[2]});
  const auto reference = textbook(e, x);
  const auto expected = torch::autograd::grad({(reference * u).sum()}, {x, e->parameters()[0], e->parameters()[2]});
  // Bitwise: max over a window commutes with max(., 0), and the same convolutions run in both.
  CHECK(torch::equal(ours, reference));
  for (std::size_t k = 0; k < gradients.size(); ++k) CHECK(torch::equal(gradients[k], expected[k]));
}

TEST_CASE("The CNN runs channels-last and gives the result of N x C x H x W weights", "[train][models][cnn]") {
  torch::manual_seed(5);
  Encoder e(EncoderOptions{});
  const auto x = bordered_images(4);
  const auto first = (*e->body())[0]->as<torch::nn::Conv2d>()->forward(x);
  CHECK(first.is_contiguous(torch::MemoryFormat::ChannelsLast));
  CHECK_FALSE(first.is_contiguous());
  // The same weights with N x C x H x W strides: another oneDNN kernel, the same sums up to
  // float32 rounding (27 and 288 products per output, then two linear layers).
  Encoder plain(EncoderOptions{});
  torch::NoGradGuard no_grad;
  const auto source = e->parameters();
  const auto target = plain->parameters();
  for (std::size_t k = 0; k < source.size(); ++k) {
    target[k].set_data(source[k].to(source[k].options(), false, /*copy=*/true, torch::MemoryFormat::Contiguous));
  }
  const auto plain_first = (*plain->body())[0]->as<torch::nn::Conv2d>()->forward(x);
  REQUIRE(plain_first.is_contiguous());
  REQUIRE_FALSE(plain_first.is_contiguous(torch::MemoryFormat::ChannelsLast));
  CHECK(torch::allclose(e->forward(x), plain->forward(x), 1e-5, 1e-6));
}

TEST_CASE("The channels-last CNN trains deterministically and resumes to the same weights", "[train][trainer][cnn][determinism]") {
  torch::manual_seed(6);
  const auto images = bordered_images(128);
  const auto labels = torch::randint(0, 2, {128}, torch::kLong);
  EncoderOptions model;
  model.width = 16;
  model.embedding_dim = 8;
  TrainOptions o;
  o.epochs = 2;
  o.batch_size = 32;
  o.seed = 9;
  const auto run = [&](const TrainOptions& options) {
    torch::manual_seed(options.seed);
    Encoder e(model);
    train_encoder(e, images, labels, 2, options, AugmentationOptions{});
    return geomsim::train::testing::weights(e);
  };
  const auto& same = geomsim::train::testing::identical;
  const auto straight = run(o);
  CHECK(same(run(o), straight));
  const fs::path checkpoint = fs::temp_directory_path() / ("geomsim-cnn-" + std::to_string(::getpid()) + ".pt");
  CHECK(same(geomsim::train::testing::resumed_after_first_epoch(o, checkpoint.string(), run), straight));
  fs::remove(checkpoint);
}
