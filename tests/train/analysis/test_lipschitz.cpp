// Lipschitz estimates and bounds on models whose constant is known, loaded the way users load
// theirs: TorchScript modules written by PyTorch (tests/train/make_torchscript_fixtures.py, run
// by ctest before these tests) and geomsim's own encoders. Each shows lower <= true <= upper.
#include "train/catch_with_torch.hpp"
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "geomsim/train/analysis/lipschitz.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {

std::string fixture(const std::string& name) {
  const char* dir = std::getenv("GEOMSIM_TORCHSCRIPT_FIXTURES");
  REQUIRE(dir != nullptr);  // set by ctest, after the fixture test wrote the files
  return std::string(dir) + "/" + name;
}

double expected(const std::string& key) {
  std::ifstream in(fixture("expected.json"));
  return nlohmann::json::parse(in).at(key).get<double>();
}

EmbeddingModel load_double(const std::string& name) {
  EmbeddingModel m = EmbeddingModel::load(fixture(name));
  m.to_double();
  return m;
}

// The dense matrix of the linear part of `map` on inputs shaped like `example`, column by column.
torch::Tensor dense_matrix(const std::function<torch::Tensor(const torch::Tensor&)>& map, const torch::Tensor& example) {
  torch::NoGradGuard no_grad;
  const int64_t n = example.numel();
  auto shape = example.sizes().vec();
  shape[0] = n;
  const auto basis = torch::eye(n, torch::kDouble).view(shape);
  return (map(basis) - map(torch::zeros_like(example))).flatten(1).t();
}

double spectral_norm(const torch::Tensor& matrix) { return torch::linalg_svdvals(matrix).max().item<double>(); }

}  // namespace

TEST_CASE("A linear map: the ratio, the Jacobian and the layer bound give its spectral norm", "[lipschitz][torchscript]") {
  EmbeddingModel model = load_double("linear.pt");
  CHECK(model.format() == "torchscript");
  const double sigma = expected("linear");
  torch::manual_seed(1);
  const auto a = torch::randn({64, 6}, torch::kDouble), b = torch::randn({64, 6}, torch::kDouble);
  const PairScatter ratio = encoder_ratio_estimate(model, a, b);
  CHECK(ratio.input_distance.size() == 64);
  CHECK(ratio.constant > 0.0);
  CHECK(ratio.constant <= sigma * (1 + 1e-12));
  // The pair (v, 0) along the top right singular vector attains it.
  const LayerChain chain = model.layer_chain();
  REQUIRE(chain.layers.size() == 1);
  const auto svd = torch::linalg_svd(chain.layers[0].weight->to(torch::kDouble), false);
  const auto v = std::get<2>(svd)[0].unsqueeze(0);
  CHECK(encoder_ratio_estimate(model, v, torch::zeros_like(v)).constant == Approx(sigma).epsilon(1e-12));

  const JacobianBound jacobian = jacobian_lower_bound(model, a);
  CHECK(jacobian.points == 64);
  CHECK(jacobian.max == Approx(sigma).epsilon(1e-9));
  CHECK(jacobian.mean == Approx(sigma).epsilon(1e-9));  // the same Jacobian everywhere
  const UpperBound upper = layer_product_bound(model, a.narrow(0, 0, 1));
  REQUIRE(upper.value);
  CHECK(upper.certified);
  CHECK(*upper.value == Approx(sigma).epsilon(1e-12));
}

TEST_CASE("A ReLU MLP on which the layer-product bound is tight", "[lipschitz][torchscript]") {
  // diag(3, 1, 0.5, 0.2) then a 2-scaled first coordinate: on the positive orthant J = W2 W1,
  // |J| = 6 = 3 * 2, so lower = true = upper there.
  EmbeddingModel model = load_double("relu_mlp.pt");
  const double truth = expected("relu_mlp");
  torch::manual_seed(2);
  const auto positive = torch::rand({32, 4}, torch::kDouble) + 0.1;
  const JacobianBound jacobian = jacobian_lower_bound(model, positive);
  const UpperBound upper = layer_product_bound(model, positive.narrow(0, 0, 1));
  REQUIRE(upper.value);
  CHECK(jacobian.max == Approx(truth).epsilon(1e-9));
  CHECK(*upper.value == Approx(truth).epsilon(1e-12));
  CHECK(upper.layers.size() == 3);
  CHECK(upper.layers[1].method == "known");
  // A pair along e1 inside the orthant is stretched by exactly 6; random pairs by at most 6.
  const auto e1 = torch::zeros({1, 4}, torch::kDouble).index_put_({0, 0}, 0.5);
  CHECK(encoder_ratio_estimate(model, positive.narrow(0, 0, 1) + e1, positive.narrow(0, 0, 1)).constant == Approx(truth).epsilon(1e-12));
  const auto anywhere = torch::randn({64, 4}, torch::kDouble);
  const PairScatter ratio = encoder_ratio_estimate(model, anywhere, torch::randn({64, 4}, torch::kDouble));
  CHECK(ratio.constant <= truth * (1 + 1e-12));
  // Where the first unit is off the Jacobian is smaller: lower bounds are local.
  const auto off = anywhere.abs().index_put_({torch::indexing::Slice(), 0}, -1.0);
  CHECK(jacobian_lower_bound(model, off).max < 1.01);
}

TEST_CASE("A CNN: the FFT bound on the convolution is above its exact norm, and the product bounds the Jacobian",
          "[lipschitz][torchscript]") {
  EmbeddingModel model = load_double("cnn.pt");
  torch::manual_seed(3);
  const auto images = torch::rand({8, 1, 28, 28}, torch::kDouble);
  const UpperBound upper = layer_product_bound(model, images.narrow(0, 0, 1));
  REQUIRE(upper.value);
  CHECK(upper.certified);
  REQUIRE(upper.layers.size() == 5);
  const double conv = expected("cnn_conv");  // numpy's SVD of the dense 1568 x 784 matrix
  CHECK(upper.layers[0].method == "fft");
  CHECK(upper.layers[0].constant >= conv);
  CHECK(upper.layers[0].constant <= 1.02 * conv);
  REQUIRE(upper.layers[0].estimate);
  CHECK(*upper.layers[0].estimate <= conv * (1 + 1e-12));
  CHECK(*upper.layers[0].estimate == Approx(conv).epsilon(1e-6));
  CHECK(upper.layers[4].constant == Approx(expected("cnn_linear")).epsilon(1e-12));
  CHECK(*upper.value >= expected("cnn"));
  const JacobianBound jacobian = jacobian_lower_bound(model, images);
  CHECK(jacobian.max > 0.0);
  CHECK(jacobian.max <= *upper.value);
}

TEST_CASE("The circular-convolution bound is the exact norm of the circular operator", "[lipschitz]") {
  torch::manual_seed(4);
  const int64_t H = 5, W = 6, k = 3;
  for (const int64_t dilation : {1, 2}) {
    CAPTURE(dilation);
    const auto kernel = torch::randn({3, 2, k, k}, torch::kDouble);
    const int64_t m1 = H + (k - 1) * dilation, m2 = W + (k - 1) * dilation;
    namespace F = torch::nn::functional;
    // The circular operator on the m1 x m2 grid: wrap-pad, then a valid cross-correlation.
    const auto circular = [&](const torch::Tensor& x) {
      const int64_t p = (k - 1) * dilation;
      return F::conv2d(F::pad(x, F::PadFuncOptions({0, p, 0, p}).mode(torch::kCircular)),
                       kernel, F::Conv2dFuncOptions().dilation(dilation));
    };
    const double bound = circular_convolution_bound(kernel, H, W, dilation);
    CHECK(bound == Approx(spectral_norm(dense_matrix(circular, torch::zeros({1, 2, m1, m2}, torch::kDouble)))).epsilon(1e-10));
    // The zero-padded, strided convolution on H x W is a restriction of it.
    const auto padded = [&](const torch::Tensor& x) {
      return F::conv2d(x, kernel, F::Conv2dFuncOptions().padding(1).stride(2).dilation(dilation));
    };
    const double exact = spectral_norm(dense_matrix(padded, torch::zeros({1, 2, H, W}, torch::kDouble)));
    CHECK(exact <= bound * (1 + 1e-12));
  }
}

TEST_CASE("geomsim encoders: the chain is the features map, and lower <= upper", "[lipschitz]") {
  torch::manual_seed(5);
  const std::string kind = GENERATE("mlp", "cnn");
  CAPTURE(kind);
  const EncoderOptions o = testing::tiny_encoder(kind, 8, 16);
  EmbeddingModel model = EmbeddingModel::from_encoder(Encoder(o));
  model.to_double();
  const auto images = torch::rand({6, 1, 28, 28}, torch::kDouble);
  CHECK_THAT(layer_product_bound(model, images.narrow(0, 0, 1)).unsupported, Catch::Contains("L2 normalisation"));
  model.set_map(EmbeddingModel::Map::features);
  const UpperBound upper = layer_product_bound(model, images.narrow(0, 0, 1));
  REQUIRE(upper.value);
  CHECK(upper.certified);
  const JacobianBound jacobian = jacobian_lower_bound(model, images);
  CHECK(jacobian.max > 0.0);
  CHECK(jacobian.max <= *upper.value);
  CHECK(encoder_ratio_estimate(model, images, torch::rand({6, 1, 28, 28}, torch::kDouble)).constant <= *upper.value);
  // The product is over the layers the features map runs: the bound's chain reproduces it.
  torch::NoGradGuard no_grad;
  auto x = model.prepare(images);
  for (const ChainLayer& layer : model.layer_chain().layers) x = layer.apply(x);
  CHECK(torch::allclose(x, model.forward(images), 1e-12, 1e-12));

  EncoderOptions vit = o;
  vit.kind = "vit";
  EmbeddingModel transformer = EmbeddingModel::from_encoder(Encoder(vit));
  transformer.set_map(EmbeddingModel::Map::features);
  CHECK_THAT(transformer.layer_chain().unsupported, Catch::Contains("self-attention"));
}

TEST_CASE("K_aug applies one augmentation to both images of a pair, K_g reads the decoder", "[lipschitz]") {
  torch::manual_seed(6);
  const auto x = torch::rand({5, 1, 28, 28});
  const auto [first, second] = augment_identically(x, x, AugmentationOptions{});
  CHECK(torch::equal(first, second));
  CHECK_FALSE(torch::equal(first, x));

  EmbeddingModel model =
      EmbeddingModel::from_encoder(Encoder(testing::tiny_encoder("mlp", 8, 16)), Autoencoder(testing::tiny_autoencoder(16)));
  model.to_double();
  const auto a = torch::rand({12, 1, 28, 28}, torch::kDouble), b = torch::rand({12, 1, 28, 28}, torch::kDouble);
  const AugmentationScatter aug = augmentation_estimate(model, a, b, AugmentationOptions{}, 10, 0);
  CHECK(aug.min_variant.input_distance.size() == 12);
  CHECK(aug.min_variant.constant <= aug.max_variant.constant);
  // Without augmentation noise or jitter the per-pair min and max coincide with K_L's ratio.
  AugmentationOptions none;
  none.max_shift = 0;
  none.flip = false;
  none.brightness = none.contrast = none.noise_std = 0.0;
  const AugmentationScatter plain = augmentation_estimate(model, a, b, none, 3, 0);
  CHECK(plain.min_variant.constant == Approx(encoder_ratio_estimate(model, a, b).constant).epsilon(1e-12));
  CHECK(plain.max_variant.constant == Approx(plain.min_variant.constant).epsilon(1e-12));

  const auto labels = torch::zeros({12}, torch::kLong);
  const PairScatter decoder = decoder_reverse_estimate(model.autoencoder(), a, b, labels);
  torch::NoGradGuard no_grad;
  const auto za = model.autoencoder()->encode(a.narrow(0, 0, 1)), zb = model.autoencoder()->encode(b.narrow(0, 0, 1));
  const auto ra = model.autoencoder()->reconstruct(a.narrow(0, 0, 1), labels.narrow(0, 0, 1));
  const auto rb = model.autoencoder()->reconstruct(b.narrow(0, 0, 1), labels.narrow(0, 0, 1));
  CHECK(decoder.input_distance[0] == Approx((ra - rb).norm().item<double>()).epsilon(1e-12));
  CHECK(decoder.output_distance[0] == Approx((za - zb).norm().item<double>()).epsilon(1e-12));
  CHECK_THROWS_WITH(decoder_reverse_estimate(nullptr, a, b, labels), Catch::Contains("K_g needs a THANOS checkpoint"));
}

TEST_CASE("Pairs within a label", "[lipschitz]") {
  const auto labels = torch::tensor({0, 1, 0, 2, 1, 0}, torch::kLong);  // label 2 has one member
  const auto [i, j] = same_label_pairs(labels, 200, 9);
  REQUIRE(i.size(0) == 200);
  CHECK(torch::equal(labels.index_select(0, i), labels.index_select(0, j)));
  CHECK(i.ne(j).all().item<bool>());
  CHECK(i.ne(3).all().item<bool>());
  CHECK_THROWS_WITH(same_label_pairs(torch::tensor({0, 1, 2}, torch::kLong), 5, 0), Catch::Contains("no label with two or more members"));
}

TEST_CASE("Bad models and inputs are refused with the file or the shape named", "[lipschitz][torchscript]") {
  CHECK_THROWS_WITH(EmbeddingModel::load(fixture("missing.pt")), Catch::Contains("checkpoint file not found"));
  const std::string garbage = fixture("garbage.bin");
  std::ofstream(garbage) << "not a model";
  CHECK_THROWS_WITH(EmbeddingModel::load(garbage), Catch::Contains("is neither a geomsim checkpoint nor a TorchScript module"));
  EmbeddingModel bad = EmbeddingModel::load(fixture("bad_output.pt"));
  CHECK_THROWS_WITH(bad.forward(torch::rand({3, 6})), Catch::Contains("must return N x d embeddings"));
  EmbeddingModel custom = EmbeddingModel::load(fixture("custom.pt"));
  CHECK_THAT(custom.layer_chain().unsupported, Catch::Contains("not an nn.Sequential"));
  CHECK(custom.forward(torch::rand({3, 6})).sizes() == torch::IntArrayRef({3, 3}));
  CHECK_THROWS_WITH(custom.forward(torch::rand({3, 1, 28, 28})), Catch::Contains("are rejected by the TorchScript module"));
  CHECK_THROWS_WITH(custom.set_map(EmbeddingModel::Map::features), Catch::Contains("only for geomsim checkpoints"));
  EmbeddingModel flat = EmbeddingModel::load(fixture("flat_mlp.pt"));
  flat.set_flatten_input(true);
  CHECK(flat.forward(torch::rand({2, 1, 28, 28})).sizes() == torch::IntArrayRef({2, 4}));
}

TEST_CASE("Outputs that are not N x d finite real embeddings are refused, naming what they are", "[lipschitz][torchscript]") {
  const auto images = torch::rand({3, 1, 28, 28});
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"complex.pt", "must return real floating-point embeddings, got ComplexFloat"},
      {"integer.pt", "must return real floating-point embeddings, got Long"},
      {"boolean.pt", "must return real floating-point embeddings, got Bool"},
      {"zero_width.pt", "must return N x d embeddings (d >= 1)"},
      {"nan.pt", "the model's output is not finite (nan or inf) for 3 of 3 inputs"}};
  for (const auto& [name, why] : cases) {
    EmbeddingModel model = EmbeddingModel::load(fixture(name));
    CHECK_THROWS_WITH(model.forward(images), Catch::Contains(why));
    CHECK_THROWS_WITH(model.embed(images), Catch::Contains(why));
  }
}

TEST_CASE("A constant model is a fully collapsed encoder: every estimate of its Lipschitz constant is 0", "[lipschitz][torchscript]") {
  // Its output is a parameter, so autograd has no graph from the input: the Jacobian is 0.
  EmbeddingModel model = load_double("constant.pt");
  const auto images = torch::rand({6, 1, 28, 28}, torch::kDouble);
  const auto z = model.embed(images);
  CHECK(torch::equal(z, z[0].expand_as(z)));
  const auto a = images.narrow(0, 0, 3), b = images.narrow(0, 3, 3);
  CHECK(encoder_ratio_estimate(model, a, b).constant == 0.0);
  const JacobianBound jacobian = jacobian_lower_bound(model, images);
  CHECK(jacobian.max == 0.0);
  CHECK(jacobian.points == 6);
  const AugmentationScatter augmented = augmentation_estimate(model, a, b, AugmentationOptions{}, 2, 0);
  CHECK(augmented.max_variant.constant == 0.0);
}
