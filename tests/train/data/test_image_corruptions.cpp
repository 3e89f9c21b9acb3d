// The corruptions of data/image_corruptions.hpp: their formulas on tiny images, their growth with
// the severity, and that they are reproducible from their seed.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_corruptions.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {
// 6 images of 1 x 12 x 12, values in [0.2, 0.8], drawn from a fixed generator.
torch::Tensor images() {
  torch::manual_seed(3);
  return 0.2 + 0.6 * torch::rand({6, 1, 12, 12}, torch::kDouble);
}
double distance(const torch::Tensor& a, const torch::Tensor& b) { return (a - b).pow(2).mean().sqrt().item<double>(); }
}  // namespace

TEST_CASE("Contrast scales about each image's mean, clamped to [0, 1]", "[train][corruptions]") {
  const auto x = images();
  const auto m = x.mean({1, 2, 3}, true);
  const double c[] = {0.4, 0.3, 0.2, 0.1, 0.05};
  for (int s = 1; s <= 5; ++s) {
    CHECK(torch::allclose(corrupt_images(x, "contrast", s, 0), (x - m) * c[s - 1] + m, 0.0, 1e-15));
  }
}

TEST_CASE("Blur is a normalised Gaussian filter: a point spreads into its weights, a constant stays inside", "[train][corruptions]") {
  auto point = torch::zeros({1, 1, 15, 15}, torch::kDouble);
  point[0][0][7][7] = 1.0;
  const auto blurred = corrupt_images(point, "gaussian_blur", 3, 0);  // sigma = 1, radius 3
  CHECK(blurred.sum().item<double>() == Approx(1.0).epsilon(1e-13));
  // The centre is g(0)^2 with g the 1-D filter of sigma 1 truncated at 3: 1 / (sum_{k=-3..3} e^{-k^2/2})^2.
  double z = 0;
  for (int k = -3; k <= 3; ++k) z += std::exp(-k * k / 2.0);
  CHECK(blurred[0][0][7][7].item<double>() == Approx(1.0 / (z * z)).epsilon(1e-13));
  CHECK(blurred[0][0][7][8].item<double>() == Approx(std::exp(-0.5) / (z * z)).epsilon(1e-13));
  const auto flat = torch::full({1, 1, 15, 15}, 0.5, torch::kDouble);
  CHECK(corrupt_images(flat, "gaussian_blur", 5, 0)[0][0][7][7].item<double>() == Approx(0.5).epsilon(1e-13));  // sigma 2: radius 6
}

TEST_CASE("Every corruption moves the images further with each severity and stays in [0, 1]", "[train][corruptions]") {
  const auto x = images();
  for (const auto& name : image_corruption_names()) {
    double previous = 0.0;
    for (int s = 1; s <= kCorruptionSeverities; ++s) {
      const auto y = corrupt_images(x, name, s, 7);
      CHECK(y.sizes() == x.sizes());
      CHECK(y.min().item<double>() >= 0.0);
      CHECK(y.max().item<double>() <= 1.0);
      const double d = distance(x, y);
      INFO(name << " severity " << s);
      CHECK(d > previous);
      previous = d;
    }
  }
}

TEST_CASE("The noises are reproducible from their seed, and differ between seeds", "[train][corruptions][determinism]") {
  const auto x = images();
  for (const std::string name : {"gaussian_noise", "impulse_noise"}) {
    CHECK(torch::equal(corrupt_images(x, name, 3, 11), corrupt_images(x, name, 3, 11)));
    CHECK_FALSE(torch::equal(corrupt_images(x, name, 3, 11), corrupt_images(x, name, 3, 12)));
  }
  // Impulse noise at severity 5 sets about 27 % of the pixels to 0 or 1 (864 pixels: within 5 sd).
  const auto y = corrupt_images(x, "impulse_noise", 5, 1);
  const double hit = (y.eq(0.0) | y.eq(1.0)).to(torch::kDouble).mean().item<double>();
  CHECK(std::abs(hit - 0.27) < 5 * std::sqrt(0.27 * 0.73 / 864));
  // Float images get float results; the draws are the same, made in double on the CPU.
  const auto f = corrupt_images(x.to(torch::kFloat), "gaussian_noise", 2, 11);
  CHECK(f.scalar_type() == torch::kFloat);
  CHECK(torch::allclose(f.to(torch::kDouble), corrupt_images(x, "gaussian_noise", 2, 11), 0.0, 1e-6));
}

TEST_CASE("Corruptions refuse unknown names, severities outside 1..5 and tensors that are not images", "[train][corruptions][errors]") {
  const auto x = images();
  CHECK_THROWS_WITH(corrupt_images(x, "fog", 1, 0), Catch::Contains("gaussian_noise, impulse_noise, gaussian_blur or contrast"));
  CHECK_THROWS_AS(corrupt_images(x, "contrast", 0, 0), InvalidArgument);
  CHECK_THROWS_AS(corrupt_images(x, "contrast", 6, 0), InvalidArgument);
  CHECK_THROWS_AS(corrupt_images(x[0], "contrast", 1, 0), InvalidArgument);
}
