#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/metrics/atom_clustering.hpp"
#include "geomsim/metrics/class_spread.hpp"
#include "geomsim/metrics/cosine_similarity.hpp"
#include "geomsim/support/errors.hpp"
#include "helpers.hpp"

using namespace geomsim;

TEST_CASE("The spread of mu_theta is sin(theta) in every class", "[metrics]") {
  const double theta = GENERATE(0.0, 0.3, 1.2);
  const auto set = testing::mu_theta(6, 3, theta);
  const ClassSpread s = class_spread(set.points, set.labels);
  CHECK(s.mean == Approx(std::sin(theta)).margin(1e-15));
  for (double v : s.per_class) CHECK(v == Approx(std::sin(theta)).margin(1e-15));
}

TEST_CASE("The geometry summary tells collapsed, atoms and continuous spread apart", "[metrics]") {
  SECTION("a collapsed simplex") {
    const auto labels = balanced_labels(3, 5);
    const auto g = summarize_geometry(collapsed_simplex(labels, 3), labels);
    CHECK(g.kind == GeometryKind::kCollapsed);
    CHECK(g.describe() == "collapsed: every class is a single point");
  }
  SECTION("mu_theta with a 5+5 split, perturbed below the tolerance") {
    auto set = testing::mu_theta(10, 3, 0.4);
    set.points += 1e-5 * random_uniform_sphere(3, 20, 1);
    const auto g = summarize_geometry(set.points, set.labels, 1e-3);
    CHECK(g.kind == GeometryKind::kAtoms);
    CHECK(g.classes[0].atom_sizes == std::vector<Index>{5, 5});
    CHECK(g.describe() == "split into 2 atoms per class (sizes 5+5 | 5+5)");
  }
  SECTION("an uneven split is still atoms, with its sizes") {
    auto set = testing::mu_theta(4, 2, 0.4);
    set.points.col(1) = set.points.col(3);  // class 0 becomes 3+1
    const auto g = summarize_geometry(set.points, set.labels);
    CHECK(g.kind == GeometryKind::kAtoms);
    CHECK(g.classes[0].atom_sizes == std::vector<Index>{3, 1});
    CHECK(g.classes[0].atom_of_point == std::vector<int>{1, 0, 0, 0});
  }
  SECTION("distinct random points") {
    const auto labels = balanced_labels(2, 8);
    const auto g = summarize_geometry(random_uniform_sphere(3, 16, 2), labels);
    CHECK(g.kind == GeometryKind::kContinuous);
    CHECK(g.describe() == "continuous: 8, 8 distinct positions per class");
  }
  SECTION("the tolerance is validated") {
    const auto labels = balanced_labels(2, 2);
    CHECK_THROWS_AS(summarize_geometry(Matrix::Ones(2, 4), labels, 0.0), InvalidArgument);
    CHECK_THROWS_AS(summarize_geometry(Matrix::Ones(2, 4), labels, std::nan("")), InvalidArgument);
  }
}

TEST_CASE("The cosine-similarity matrix is sorted by class, then subclass", "[metrics]") {
  PointSet set;
  set.points = random_uniform_sphere(4, 6, 9);
  set.points.col(5) *= 3.0;  // cosines do not depend on norms
  set.labels = {1, 0, 1, 0, 2, 0};
  set.subclass_labels = {0, 1, 0, 0, 0, 0};
  const auto c = cosine_similarity_by_class(set);
  CHECK(c.order == std::vector<Index>{3, 5, 1, 0, 2, 4});
  CHECK(c.matrix.diagonal().isOnes(1e-15));
  CHECK((c.matrix - c.matrix.transpose()).norm() == 0.0);
  // |cos| <= 1, so rounding is absolute (~1e-16), not relative to a small value.
  CHECK(c.matrix(0, 1) == Approx(set.points.col(3).dot(set.points.col(5)) / 3.0).margin(1e-15));
}
