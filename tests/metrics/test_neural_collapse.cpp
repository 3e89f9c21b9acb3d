// Neural-collapse measures on configurations with known values.
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/metrics/class_means.hpp"
#include "geomsim/metrics/neural_collapse.hpp"
#include "geomsim/support/errors.hpp"

using namespace geomsim;

TEST_CASE("The collapsed regular simplex has NC1 = 0, equal norms and cosines -1/(K-1)", "[neural_collapse]") {
  const int K = GENERATE(2, 3, 4, 6);
  const int extra_dims = GENERATE(0, 3);
  const auto labels = balanced_labels(K, 7);
  const NeuralCollapse nc = neural_collapse(collapsed_simplex(labels, K - 1 + extra_dims), labels);
  CHECK(nc.num_classes == K);
  CHECK(nc.between_rank == K - 1);
  REQUIRE(nc.nc1);
  // Each point equals its class mean up to the rounding of a mean of 7 equal numbers (1 ulp):
  // within-class deviations <= 2e-16, so NC1 <= ~1e-31.
  CHECK(*nc.nc1 <= 1e-28);
  REQUIRE(nc.equinorm);
  CHECK(*nc.equinorm <= 1e-15);
  REQUIRE(nc.equiangularity);
  CHECK(*nc.equiangularity <= 1e-15);  // cosines are bounded by 1, so rounding is absolute
  CHECK(*nc.max_cosine_deviation <= 1e-15);
  CHECK(*nc.cosine_sd <= 1e-15);
}

TEST_CASE("NC1 measures within-class spread only along the span of the class means", "[neural_collapse]") {
  // Class k holds v_k + s a and v_k - s a (simplex vertices v_k, unit a). Then mu_G = 0,
  // Sigma_W = s^2 a a^T and Sigma_B = P / (K-1) with P the projector onto the simplex span, so
  //   NC1 = tr(Sigma_W Sigma_B^+) / K = (K-1) s^2 |P a|^2 / K.
  const int K = GENERATE(2, 3, 5);
  const double s = 0.3;
  const Matrix simplex = regular_simplex(K, K + 1);  // spans the first K-1 coordinates
  for (const bool inside : {true, false}) {
    Vector a = Vector::Zero(K + 1);
    a(inside ? 0 : K) = 1.0;  // e_1 lies in the span, e_{K+1} is orthogonal to it
    Matrix points(K + 1, 2 * K);
    std::vector<int> labels;
    for (int k = 0; k < K; ++k) {
      points.col(2 * k) = simplex.col(k) + s * a;
      points.col(2 * k + 1) = simplex.col(k) - s * a;
      labels.insert(labels.end(), {k, k});
    }
    const NeuralCollapse nc = neural_collapse(points, labels);
    REQUIRE(nc.nc1);
    INFO("K = " << K << (inside ? ", inside the span" : ", orthogonal to the span"));
    CHECK(*nc.nc1 == Approx(inside ? (K - 1) * s * s / K : 0.0).margin(1e-15));
    CHECK(*nc.equiangularity <= 1e-15);  // the class means are still the simplex
  }
}

TEST_CASE("Equinorm and equiangularity have their hand-computed values", "[neural_collapse]") {
  SECTION("two classes of sizes 1 and 3: centred norms 3D/4 and D/4, cosine -1") {
    Matrix points(2, 4);
    points << 2.0, 0.0, 0.0, 0.0,
              1.0, 1.0, 1.0, 1.0;  // class 0 at (2, 1), class 1 at (0, 1): D = 2
    const NeuralCollapse nc = neural_collapse(points, {0, 1, 1, 1});
    // norms 1.5 and 0.5: mean 1, population sd 0.5.
    CHECK(*nc.equinorm == Approx(0.5).epsilon(1e-15));
    CHECK(*nc.equiangularity == Approx(0.0).margin(1e-15));
    CHECK(*nc.nc1 == 0.0);
  }
  SECTION("three single points (1, 0), (0, 1), (-1, -1)") {
    Matrix points(2, 3);
    points << 1.0, 0.0, -1.0,
              0.0, 1.0, -1.0;
    const NeuralCollapse nc = neural_collapse(points, {0, 1, 2});
    // mu_G = 0. Cosines 0, -1/sqrt(2), -1/sqrt(2); their distances from -1/2 are 1/2 and twice
    // 1/sqrt(2) - 1/2. Norms 1, 1, sqrt(2).
    const double r = 1.0 / std::sqrt(2.0);
    CHECK(*nc.equiangularity == Approx((0.5 + 2.0 * (r - 0.5)) / 3.0).epsilon(1e-15));
    CHECK(*nc.max_cosine_deviation == Approx(0.5).epsilon(1e-15));
    const double mean_cos = -2.0 * r / 3.0;
    CHECK(*nc.cosine_sd == Approx(std::sqrt((mean_cos * mean_cos + 2.0 * (r + mean_cos) * (r + mean_cos)) / 3.0)).epsilon(1e-15));
    const double mean_norm = (2.0 + std::sqrt(2.0)) / 3.0;
    const double sd = std::sqrt((2.0 * (1.0 - mean_norm) * (1.0 - mean_norm) + (std::sqrt(2.0) - mean_norm) * (std::sqrt(2.0) - mean_norm)) / 3.0);
    CHECK(*nc.equinorm == Approx(sd / mean_norm).epsilon(1e-14));
    CHECK(nc.between_rank == 2);
  }
}

TEST_CASE("Neural collapse says what is undefined instead of printing nan", "[neural_collapse]") {
  SECTION("every class mean at the global mean") {
    Matrix points(2, 4);
    points << 1.0, -1.0, 0.0, 0.0,
              0.0, 0.0, 1.0, -1.0;
    const NeuralCollapse nc = neural_collapse(points, {0, 0, 1, 1});
    CHECK(nc.between_rank == 0);
    CHECK_FALSE(nc.nc1);
    CHECK_FALSE(nc.equinorm);
    CHECK_FALSE(nc.equiangularity);
    CHECK_FALSE(nc.cosine_sd);
  }
  SECTION("one class mean at the global mean: its cosines are undefined, NC1 and equinorm are not") {
    Matrix points(2, 3);
    points << 1.0, 0.0, -1.0,
              0.0, 0.0, 0.0;
    const NeuralCollapse nc = neural_collapse(points, {0, 1, 2});
    CHECK(nc.between_rank == 1);
    CHECK(*nc.nc1 == 0.0);
    CHECK(*nc.equinorm == Approx(1.0 / std::sqrt(2.0)).epsilon(1e-15));  // norms 1, 0, 1: mean 2/3, sd sqrt(2)/3
    CHECK_FALSE(nc.equiangularity);
    CHECK_FALSE(nc.max_cosine_deviation);
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(neural_collapse(Matrix::Ones(2, 3), {0, 0, 0}), InvalidArgument);  // one class
    CHECK_THROWS_AS(neural_collapse(Matrix::Ones(2, 3), {0, 1}), InvalidArgument);
    CHECK_THROWS_AS(neural_collapse(Matrix::Ones(2, 3), {0, 2, 2}), InvalidArgument);  // class 1 missing
    Matrix bad = Matrix::Ones(2, 3);
    bad(0, 0) = std::nan("");
    CHECK_THROWS_AS(neural_collapse(bad, {0, 1, 1}), InvalidArgument);
  }
}

TEST_CASE("NC4 is the agreement of the nearest-class-mean rule with a prediction", "[neural_collapse]") {
  const auto labels = balanced_labels(3, 4);
  Matrix points = collapsed_simplex(labels, 3);
  points.col(0) = points.col(5);  // a class-0 point placed on class 1's vertex
  // The rule predicts 1 for point 0 and the label elsewhere (class 0's mean moved, but its three
  // remaining points are still nearer to it than to any other mean).
  CHECK(nearest_class_mean_agreement(points, labels, labels) == Approx(11.0 / 12.0).epsilon(1e-15));
  std::vector<int> predictions = labels;
  predictions[0] = 1;
  CHECK(nearest_class_mean_agreement(points, labels, predictions) == 1.0);
  for (int& p : predictions) p = (p + 1) % 3;
  CHECK(nearest_class_mean_agreement(points, labels, predictions) == 0.0);

  SECTION("ties go to the lowest class") {
    Matrix means(1, 3);
    means << -1.0, 1.0, 3.0;
    Matrix at(1, 3);
    at << 0.0, 2.0, 5.0;
    CHECK(nearest_class_mean(at, means) == std::vector<int>{0, 1, 2});
  }
  SECTION("bad predictions") {
    CHECK_THROWS_AS(nearest_class_mean_agreement(points, labels, {0, 1}), InvalidArgument);
    predictions[3] = 3;
    CHECK_THROWS_AS(nearest_class_mean_agreement(points, labels, predictions), InvalidArgument);
    predictions[3] = -1;
    CHECK_THROWS_AS(nearest_class_mean_agreement(points, labels, predictions), InvalidArgument);
  }
}

TEST_CASE("Class means are the per-class averages with their sizes", "[neural_collapse]") {
  Matrix points(1, 5);
  points << 1.0, 2.0, 4.0, 8.0, 16.0;
  const ClassMeans c = class_means(points, {1, 0, 1, 0, 1});
  CHECK(c.counts == std::vector<Index>{2, 3});
  CHECK(c.means(0, 0) == 5.0);
  CHECK(c.means(0, 1) == 7.0);
  CHECK_THROWS_AS(class_means(points, {0, 1}), InvalidArgument);
}
