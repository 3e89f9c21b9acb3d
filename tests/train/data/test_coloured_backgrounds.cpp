// Coloured backgrounds (coloured_backgrounds.hpp): the composition, the colour model's
// frequencies, determinism, and the colour attribute that reads the colour back.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/coloured_backgrounds.hpp"
#include "geomsim/train/data/image_attributes.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
// N grey 1 x 4 x 4 images, each with one pixel at 0 (the background) and the others random.
torch::Tensor grey_images(int64_t n) {
  auto g = torch::rand({n, 1, 4, 4}, torch::kFloat);
  g.select(2, 0).select(2, 0).zero_();
  return g;
}
}  // namespace

TEST_CASE("Class colours are the hues class / K at full saturation and value", "[train][data][colour]") {
  const auto red = class_colour(0, 6), yellow = class_colour(1, 6), green = class_colour(2, 6), blue = class_colour(4, 6);
  CHECK(torch::equal(red, torch::tensor({1.0, 0.0, 0.0}, torch::kDouble)));
  CHECK(torch::allclose(yellow, torch::tensor({1.0, 1.0, 0.0}, torch::kDouble), 0, 1e-15));
  CHECK(torch::allclose(green, torch::tensor({0.0, 1.0, 0.0}, torch::kDouble), 0, 1e-15));
  CHECK(torch::allclose(blue, torch::tensor({0.0, 0.0, 1.0}, torch::kDouble), 0, 1e-15));
  CHECK_THROWS_AS(class_colour(6, 6), InvalidArgument);
}

TEST_CASE("Coloured backgrounds colour the background and darken the object", "[train][data][colour]") {
  const int64_t n = 64;
  torch::manual_seed(3);
  const auto grey = grey_images(n);
  const auto labels = torch::arange(n, torch::kLong).remainder(4);
  const ColouredImages c = colour_backgrounds(grey, labels, 4, 0.5, 11);
  REQUIRE(c.images.sizes() == torch::IntArrayRef({n, 3, 4, 4}));
  REQUIRE(c.colours.sizes() == torch::IntArrayRef({n, 3}));
  // rgb = (1 - x) c, pixel by pixel.
  const auto expected = (1.0 - grey) * c.colours.view({n, 3, 1, 1});
  CHECK(torch::allclose(c.images, expected, 0, 1e-7));
  CHECK(c.colours.min().item<float>() >= 0.0f);
  CHECK(c.colours.max().item<float>() <= 1.0f);
  // The colour attribute reads each image's colour back exactly (the pixel at 0 holds it).
  CHECK(torch::equal(image_colours(c.images), c.colours.to(torch::kDouble)));
  // As a conditioning attribute: the three channels' colours, standardised.
  const auto attribute = image_attributes(c.images, labels, 4, {"colour"});
  REQUIRE(attribute.sizes() == torch::IntArrayRef({n, 3}));
  CHECK(torch::allclose(attribute, standardise_columns(c.colours.to(torch::kDouble)), 0, 1e-12));
  // The same seed gives the same bits; another seed other colours.
  CHECK(torch::equal(colour_backgrounds(grey, labels, 4, 0.5, 11).images, c.images));
  CHECK_FALSE(torch::equal(colour_backgrounds(grey, labels, 4, 0.5, 12).colours, c.colours));
}

TEST_CASE("Coloured backgrounds take the class's colour with the given chance", "[train][data][colour]") {
  const int64_t n = 4000;
  const auto grey = torch::zeros({n, 1, 2, 2});
  const auto labels = torch::arange(n, torch::kLong).remainder(10);
  std::vector<torch::Tensor> palette;
  for (int k = 0; k < 10; ++k) palette.push_back(class_colour(k, 10));
  const auto centres = torch::stack(palette).index_select(0, labels);
  // Within the jitter of the class colour: every image at correlation 1; at 0, uniform colours
  // land there with chance at most 0.3^3 = 0.027 (less where the clamp cuts the box).
  const auto near = [&](const ColouredImages& c) {
    return (c.colours.to(torch::kDouble) - centres).abs().le(kColourJitter + 1e-6).all(1).to(torch::kDouble).mean().item<double>();
  };
  CHECK(near(colour_backgrounds(grey, labels, 10, 1.0, 5)) == 1.0);
  CHECK(near(colour_backgrounds(grey, labels, 10, 0.0, 5)) < 0.03);
  // At 0.6: 0.6 + 0.4 * (at most 0.027), within 4 binomial sds (0.0077) of 0.6.
  const double at = near(colour_backgrounds(grey, labels, 10, 0.6, 5));
  CHECK(at > 0.6 - 0.031);
  CHECK(at < 0.6 + 0.4 * 0.027 + 0.031);
}

TEST_CASE("Coloured backgrounds refuse bad input", "[train][data][colour]") {
  const auto grey = torch::zeros({3, 1, 2, 2});
  const auto labels = torch::zeros({3}, torch::kLong);
  CHECK_THROWS_AS(colour_backgrounds(torch::zeros({3, 3, 2, 2}), labels, 2, 0.5, 0), InvalidArgument);
  CHECK_THROWS_AS(colour_backgrounds(grey, torch::zeros({2}, torch::kLong), 2, 0.5, 0), InvalidArgument);
  CHECK_THROWS_AS(colour_backgrounds(grey, torch::full({3}, 2, torch::kLong), 2, 0.5, 0), InvalidArgument);
  CHECK_THROWS_AS(colour_backgrounds(grey, labels, 2, 1.5, 0), InvalidArgument);
  CHECK_THROWS_AS(colour_backgrounds(grey, labels, 2, std::nan(""), 0), InvalidArgument);
  CHECK_THROWS_AS(image_colours(grey), InvalidArgument);  // one channel: no colour to read
}
