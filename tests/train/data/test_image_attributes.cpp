// The auxiliary attributes derived from images (image_attributes.hpp) against values computed by
// hand on tiny images.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>
#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_attributes.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {

// Two 1 x 3 x 4 images and a blank one (threshold 0.2: the inked pixels are those above it).
//   image 0:  0    0.5  0.9  0          image 1:  0.1  0    0    0
//             0    0.3  0.1  0                    0    0    0    0
//             0    0    0    0                    0.8  0.6  0.4  0.25
torch::Tensor tiny_images() {
  auto images = torch::zeros({3, 1, 3, 4}, torch::kFloat);
  images[0][0][0][1] = 0.5;
  images[0][0][0][2] = 0.9;
  images[0][0][1][1] = 0.3;
  images[0][0][1][2] = 0.1;
  images[1][0][0][0] = 0.1;
  images[1][0][2][0] = 0.8;
  images[1][0][2][1] = 0.6;
  images[1][0][2][2] = 0.4;
  images[1][0][2][3] = 0.25;
  return images;
}

double value(const torch::Tensor& t, int64_t i) { return t[i].item<double>(); }
double f(double v) { return static_cast<double>(static_cast<float>(v)); }  // the images are float32

}  // namespace

TEST_CASE("Image attributes match hand-computed values on tiny images", "[train][data][attributes]") {
  const auto images = tiny_images();
  const auto ink = image_attribute(images, "ink");
  CHECK(value(ink, 0) == Approx((f(0.5) + f(0.9) + f(0.3) + f(0.1)) / 12).epsilon(1e-15));
  CHECK(value(ink, 1) == Approx((f(0.1) + f(0.8) + f(0.6) + f(0.4) + f(0.25)) / 12).epsilon(1e-15));
  CHECK(value(ink, 2) == 0.0);
  // Inked: image 0 (0,1), (0,2), (1,1): rows 0-1, columns 1-2, a 2 x 2 box; image 1 row 2,
  // columns 0-3 (0.1 is below the threshold): 4 wide, 1 high.
  const auto aspect = image_attribute(images, "aspect");
  CHECK(value(aspect, 0) == 1.0);
  CHECK(value(aspect, 1) == 4.0);
  CHECK(value(aspect, 2) == 1.0);  // no ink: 1 by definition
  const auto intensity = image_attribute(images, "intensity");
  CHECK(value(intensity, 0) == Approx((f(0.5) + f(0.9) + f(0.3)) / 3).epsilon(1e-15));
  CHECK(value(intensity, 1) == Approx((f(0.8) + f(0.6) + f(0.4) + f(0.25)) / 4).epsilon(1e-15));
  CHECK(value(intensity, 2) == 0.0);  // no ink: 0 by definition
  CHECK(ink.scalar_type() == torch::kDouble);
}

TEST_CASE("Image attributes average the channels and are deterministic", "[train][data][attributes]") {
  const auto grey = tiny_images();
  auto colour = grey.repeat({1, 3, 1, 1});
  colour.select(1, 0).mul_(2.0);  // channels 2x, 1x, 0x: the mean is the grey image
  colour.select(1, 2).zero_();
  for (const std::string name : {"ink", "aspect", "intensity"}) {
    CAPTURE(name);
    CHECK(torch::allclose(image_attribute(colour, name), image_attribute(grey, name), 0, 1e-15));
    CHECK(torch::equal(image_attribute(grey, name), image_attribute(grey.clone(), name)));
  }
}

TEST_CASE("Attributes are standardised with the training set's statistics", "[train][data][attributes]") {
  const auto images = tiny_images();
  const auto fine = torch::tensor({2, 0, 2}, torch::kLong);
  const auto a = image_attributes(images, fine, 3, {"aspect", "fine"});
  REQUIRE(a.sizes() == torch::IntArrayRef({3, 4}));
  // aspect 1, 4, 1: mean 2, population sd sqrt(2).
  CHECK(a[0][0].item<double>() == Approx(-1 / std::sqrt(2.0)).epsilon(1e-15));
  CHECK(a[1][0].item<double>() == Approx(2 / std::sqrt(2.0)).epsilon(1e-15));
  // fine as one-hot columns, not standardised.
  CHECK(torch::equal(a.narrow(1, 1, 3), torch::tensor({{0.0, 0.0, 1.0}, {1.0, 0.0, 0.0}, {0.0, 0.0, 1.0}}, torch::kDouble)));
  const auto standard = image_attributes(images, fine, 3, {"ink", "intensity"});
  CHECK(standard.mean(0).abs().max().item<double>() < 1e-15);
  CHECK(torch::allclose((standard.pow(2)).mean(0), torch::ones({2}, torch::kDouble), 0, 1e-14));
  // A constant column has sd 0 and becomes 0.
  CHECK(torch::equal(standardise_columns(torch::full({3, 1}, 5.0, torch::kDouble)), torch::zeros({3, 1}, torch::kDouble)));
}

TEST_CASE("The condition-on option's syntax", "[train][data][attributes]") {
  CHECK(parse_condition_on("labels").empty());
  CHECK(parse_condition_on("attributes:ink,aspect,intensity") == std::vector<std::string>{"ink", "aspect", "intensity"});
  CHECK(parse_condition_on("attributes:fine") == std::vector<std::string>{"fine"});
  CHECK(parse_condition_on("attributes:colour") == std::vector<std::string>{"colour"});
  for (const std::string bad : {"", "attributes:", "attributes:ink,", "attributes:ink,ink", "attributes:hue", "label",
                                "attributes:Ink", "ink"}) {
    CAPTURE(bad);
    try {
      parse_condition_on(bad);
      FAIL("accepted");
    } catch (const InvalidArgument& e) {
      CHECK(e.argument() == "condition-on");
    }
  }
  CHECK_THROWS_AS(image_attributes(tiny_images(), torch::zeros({3}, torch::kLong), 2, {}), InvalidArgument);
  CHECK_THROWS_AS(image_attributes(tiny_images(), torch::zeros({2}, torch::kLong), 2, {"fine"}), InvalidArgument);
  CHECK_THROWS_AS(image_attribute(torch::zeros({3, 4}), "ink"), InvalidArgument);
}
