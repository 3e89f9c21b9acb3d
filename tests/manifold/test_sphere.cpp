#include <catch2/catch.hpp>

#include "geomsim/manifold/point_magnitude.hpp"
#include "geomsim/manifold/sphere.hpp"
#include "geomsim/support/errors.hpp"

using namespace geomsim;

TEST_CASE("Random initialisation is uniform on the sphere and reproducible from its seed", "[sphere]") {
  const Matrix a = random_uniform_sphere(5, 20000, 7);
  SECTION("every point has unit norm") { CHECK(max_norm_violation(a) < 1e-15); }
  SECTION("the same seed gives the same points, another seed other points") {
    CHECK(random_uniform_sphere(5, 20000, 7) == a);
    CHECK(random_uniform_sphere(5, 20000, 8) != a);
  }
  SECTION("moments match the uniform measure") {
    // For the uniform measure on S^{d-1}: E[u] = 0 and E[u u^T] = I/d. With 20000
    // samples the standard error of each entry is <= 1/sqrt(20000 d) ~ 3e-3; allow 5 SE.
    const Vector mean = a.rowwise().mean();
    CHECK(mean.cwiseAbs().maxCoeff() < 0.016);
    const Matrix second = a * a.transpose() / 20000.0;
    CHECK((second - Matrix::Identity(5, 5) / 5.0).cwiseAbs().maxCoeff() < 0.016);
  }
}

TEST_CASE("The regular simplex has unit vertices with pairwise inner product -1/(K-1)", "[sphere]") {
  const int K = GENERATE(2, 3, 4, 7);
  const int extra = GENERATE(0, 1, 5);
  const int d = K - 1 + extra;
  if (d < 1) return;
  const Matrix v = regular_simplex(K, d);
  const Matrix gram = v.transpose() * v;
  for (int i = 0; i < K; ++i) {
    for (int j = 0; j < K; ++j) {
      CHECK(gram(i, j) == Approx(i == j ? 1.0 : -1.0 / (K - 1)).margin(1e-15));
    }
  }
  CHECK(v.rowwise().sum().norm() < 1e-14);  // centred at the origin
}

TEST_CASE("The regular simplex is refused when K > d + 1", "[sphere][errors]") {
  CHECK_THROWS_AS(regular_simplex(4, 2), InvalidArgument);
  try {
    regular_simplex(4, 2);
  } catch (const InvalidArgument& e) {
    CHECK(e.argument() == "K");
    CHECK(std::string(e.what()).find("d + 1 = 3") != std::string::npos);
  }
}

TEST_CASE("Labels must be 0..K-1 with every class present and K >= 2", "[sphere][errors]") {
  CHECK(validate_labels({0, 1, 1, 0, 2}) == 3);
  CHECK_THROWS_AS(validate_labels({}), InvalidArgument);
  CHECK_THROWS_AS(validate_labels({0, 0, 0}), InvalidArgument);
  CHECK_THROWS_AS(validate_labels({0, 2}), InvalidArgument);
  CHECK_THROWS_AS(validate_labels({-1, 0}), InvalidArgument);
  // An id beyond the number of entries cannot leave 0..K-1 complete: refused before allocating.
  CHECK_THROWS_WITH(validate_labels({0, 1, 2147483647}), Catch::Contains("got the id 2147483647"));
  CHECK(balanced_labels(3, 2) == std::vector<int>{0, 0, 1, 1, 2, 2});
}

TEST_CASE("A user's points must be finite and below 1e150 in magnitude, whose squares stay finite", "[sphere][errors]") {
  Matrix points = Matrix::Ones(3, 4);
  points(1, 2) = 1e150;
  CHECK_NOTHROW(require_moderate_points(points, "embeddings"));
  points(1, 2) = -1.5e150;
  CHECK_THROWS_WITH(require_moderate_points(points, "embeddings"), Catch::Contains("magnitude at most 1e150") && Catch::Contains("point 2"));
  points(1, 2) = std::nan("");
  CHECK_THROWS_WITH(require_moderate_points(points, "embeddings"), Catch::Contains("must be finite"));
}

TEST_CASE("Projection onto the sphere refuses zero and non-finite columns", "[sphere][errors]") {
  Matrix m = Matrix::Ones(3, 2);
  m.col(1).setZero();
  CHECK_THROWS_AS(normalize_columns(m), InvalidArgument);
  Matrix n = Matrix::Ones(3, 2);
  n(0, 0) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(normalize_columns(n), InvalidArgument);
}
