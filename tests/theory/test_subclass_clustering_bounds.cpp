// Seed 004, Lemmas 1-3: the right-hand sides, and Lemma 1 checked on encoders whose
// Lipschitz constant is known.
#include <catch2/catch.hpp>
#include <Eigen/SVD>
#include <cmath>

#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/subclass_clustering_bounds.hpp"

using namespace geomsim;

namespace {
// Two classes of two Gaussian subclasses each, in R^dim, with the given subclass sizes.
struct Clustered {
  Matrix x;
  std::vector<int> labels, subclasses;
};
Clustered clustered_inputs(int dim, std::uint64_t seed) {
  Rng rng(seed);
  const std::vector<int> sizes{30, 10, 25, 15};
  Clustered c;
  int total = 0;
  for (int n : sizes) total += n;
  c.x.resize(dim, total);
  int column = 0;
  for (int z = 0; z < 4; ++z) {
    Vector centre(dim);
    for (int k = 0; k < dim; ++k) centre(k) = 3.0 * rng.normal();
    for (int i = 0; i < sizes[static_cast<std::size_t>(z)]; ++i, ++column) {
      for (int k = 0; k < dim; ++k) c.x(k, column) = centre(k) + 0.3 * (z + 1) * rng.normal();
      c.labels.push_back(z / 2);
      c.subclasses.push_back(z);
    }
  }
  return c;
}
}  // namespace

TEST_CASE("Lemma 1 holds on encoders with a known Lipschitz constant", "[theory][lemmas]") {
  const std::uint64_t seed = GENERATE(1u, 2u, 3u, 4u, 5u);
  const Clustered in = clustered_inputs(6, seed);
  const SubclassGeometry input_geometry = measure_subclass_geometry(in.x, in.labels, in.subclasses);
  Rng rng(100 + seed);
  Matrix A(4, 6);
  for (Index i = 0; i < A.size(); ++i) A(i) = rng.normal();
  const double lipschitz = Eigen::JacobiSVD<Matrix>(A).singularValues()(0);

  SECTION("a linear map: sigma_f(z) <= |A|_2 sigma_z") {
    const SubclassGeometry g = measure_subclass_geometry(A * in.x, in.labels, in.subclasses);
    for (std::size_t z = 0; z < 4; ++z) {
      const double sigma_z = input_geometry.subclasses[z].mean_pairwise_distance;
      CHECK(g.subclasses[z].sigma <= lemma1_bound(lipschitz, sigma_z));
      // Jensen's step alone: sigma_f(z) <= E|f(x) - f(x')|.
      CHECK(g.subclasses[z].sigma <= g.subclasses[z].mean_pairwise_distance);
    }
  }
  SECTION("a scaled isometry is tight in the pairwise distance") {
    const double scale = 2.5;
    const SubclassGeometry g = measure_subclass_geometry(scale * in.x, in.labels, in.subclasses);
    for (std::size_t z = 0; z < 4; ++z) {
      CHECK(g.subclasses[z].mean_pairwise_distance ==
            Approx(lemma1_bound(scale, input_geometry.subclasses[z].mean_pairwise_distance)).epsilon(1e-12));
    }
  }
  SECTION("a 1-Lipschitz nonlinear map: projection onto the unit ball after A / |A|") {
    Matrix f = A * in.x / lipschitz;
    for (Index i = 0; i < f.cols(); ++i) f.col(i) /= std::max(1.0, f.col(i).norm());
    const SubclassGeometry g = measure_subclass_geometry(f, in.labels, in.subclasses);
    for (std::size_t z = 0; z < 4; ++z) {
      CHECK(g.subclasses[z].sigma <= lemma1_bound(1.0, input_geometry.subclasses[z].mean_pairwise_distance));
    }
  }
}

TEST_CASE("mean_pairwise_distance is the V-statistic of the pairwise distances", "[theory][lemmas]") {
  Matrix x(2, 3);
  x << 0, 3, 0, 0, 0, 4;  // distances 3, 4, 5
  const SubclassGeometry g = measure_subclass_geometry(x, {0, 0, 0}, {0, 0, 0});
  CHECK(g.subclasses[0].mean_pairwise_distance == Approx(2.0 * (3 + 4 + 5) / 9.0).epsilon(1e-15));
}

TEST_CASE("Lemmas 2 and 3 evaluate their printed right-hand sides", "[theory][lemmas]") {
  Lemma2Inputs l2;
  l2.reverse_lipschitz = 2.0;
  l2.p_z_given_y = 0.25;
  l2.reconstruction_loss = 0.1;
  l2.rademacher = 0.05;
  l2.loss_bound = 4.0;
  l2.delta = 0.01;
  l2.n = 5000;
  l2.sigma_z = 1.5;
  const double expected2 = 2 * 2.0 / 0.25 * std::sqrt(0.1 + 0.1 + 4.0 * std::sqrt(std::log(100.0) / 10000.0)) + 3.0;
  CHECK(lemma2_bound(l2) == Approx(expected2).epsilon(1e-14));
  // A general autoencoder sees more data (n) but each subclass is a smaller fraction (p(z)):
  // with K = 5 equal classes the bound is larger even at 5x the data, as the paper argues.
  Lemma2Inputs general = l2;
  general.p_z_given_y = l2.p_z_given_y / 5;
  general.n = 5 * l2.n;
  CHECK(lemma2_bound(general) > lemma2_bound(l2));

  Lemma3Inputs l3;
  l3.augmentation_lipschitz = 0.5;
  l3.p_z = 0.1;
  l3.rademacher = 0.02;
  l3.delta = 0.05;
  l3.n = 1000;
  l3.sigma_aug_z = 2.0;
  CHECK(lemma3_bound(l3) == Approx(2 / 0.1 * (0.04 + std::sqrt(2 * std::log(20.0) / 1000)) + 1.0).epsilon(1e-14));
  // The sampling terms vanish as n grows: the bound tends to K sigma.
  l3.rademacher = 0;
  l3.n = 1e18;
  CHECK(lemma3_bound(l3) == Approx(1.0).epsilon(1e-6));
}

TEST_CASE("Lemma bounds reject bad input by name", "[theory][lemmas]") {
  CHECK_THROWS_WITH(lemma1_bound(-1, 1), Catch::Contains("lipschitz must be a finite number >= 0"));
  Lemma2Inputs l2;
  l2.reverse_lipschitz = 1;
  l2.p_z_given_y = 0;
  CHECK_THROWS_WITH(lemma2_bound(l2), Catch::Contains("p_z_given_y must be in (0, 1]"));
  l2.p_z_given_y = 0.5;
  l2.delta = 1;
  CHECK_THROWS_WITH(lemma2_bound(l2), Catch::Contains("delta must be in (0, 1)"));
  Lemma3Inputs l3;
  l3.p_z = 0.5;
  l3.n = 0.5;
  CHECK_THROWS_WITH(lemma3_bound(l3), Catch::Contains("n must be a finite number >= 1"));
  l3.n = 10;
  l3.sigma_aug_z = std::nan("");
  CHECK_THROWS_AS(lemma3_bound(l3), InvalidArgument);
}
