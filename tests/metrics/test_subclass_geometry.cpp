// Section 4 of seed 004: subclass clustering, separation, and the bounds built on them.
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

using namespace geomsim;

namespace {
// Class 0: subclass 0 = three points at (1, 0), subclass 1 = one point at (-1, 0).
// Class 1: subclass 2 at (0, 1), subclass 3 at (0, -1).
struct HandMade {
  Matrix F{2, 6};
  std::vector<int> labels{0, 0, 0, 0, 1, 1};
  std::vector<int> subclasses{0, 0, 0, 1, 2, 3};
  HandMade() { F << 1, 1, 1, -1, 0, 0, 0, 0, 0, 0, 1, -1; }
};
}  // namespace

TEST_CASE("Subclass measures match a configuration worked by hand", "[subclass_geometry]") {
  const HandMade h;
  const auto g = measure_subclass_geometry(h.F, h.labels, h.subclasses);
  // mean of class 0 = (0.5, 0): s(0) = (3 * 0.5 + 1.5) / 4 = 0.75.
  CHECK(g.spread.per_class[0] == Approx(0.75).epsilon(1e-15));
  CHECK(g.subclasses[0].p_given_class == Approx(0.75));
  CHECK(g.subclasses[0].sigma == 0.0);
  CHECK(g.subclasses[1].variance == 0.0);
  const auto& pair = g.pairs.front();  // (0, 1)
  REQUIRE(pair.z == 0);
  REQUIRE(pair.z_prime == 1);
  CHECK(pair.separation == Approx(2.0).epsilon(1e-15));
  // delta = 0.75 / (2 * 3/4 * 1/4) = 2 = D: tight subclasses make the bound an equality.
  CHECK(pair.delta == Approx(2.0).epsilon(1e-15));
  CHECK(pair.delta_paper == Approx(4.0).epsilon(1e-15));  // the printed formula: twice D
  CHECK(pair.c == Approx(1.0).epsilon(1e-15));
  CHECK(pair.r == Approx(4.0).epsilon(1e-15));
  CHECK(g.pairs.size() == 4);  // (0,1), (1,0), (2,3), (3,2)
}

TEST_CASE("The corrected delta_f never exceeds the subclass separation of two subclasses, the printed one can exceed it", "[subclass_geometry][erratum]") {
  // delta_f <= D(z, z') follows from s <= p^2 sigma + p'^2 sigma' + 2 p p' D, which holds when
  // the class consists of z and z' (Theorem 3's setting). Random clustered embeddings with
  // uneven subclass sizes, on and off the sphere, two subclasses per class.
  const auto seed = GENERATE(range(1u, 11u));
  Rng rng(seed);
  const int d = 3 + static_cast<int>(seed % 5);
  std::vector<int> labels, subclasses;
  Matrix centres = random_uniform_sphere(d, 6, seed);
  std::vector<Vector> columns;
  for (int z = 0; z < 6; ++z) {
    const int count = 1 + static_cast<int>(rng.uniform() * 9);
    const double width = rng.uniform();
    for (int k = 0; k < count; ++k) {
      Vector v(d);
      for (int r = 0; r < d; ++r) v[r] = centres(r, z) + width * rng.normal();
      columns.push_back(v);
      labels.push_back(z / 2);  // subclasses 2y and 2y + 1 in class y
      subclasses.push_back(z);
    }
  }
  Matrix F(d, static_cast<Index>(columns.size()));
  for (std::size_t i = 0; i < columns.size(); ++i) F.col(static_cast<Index>(i)) = columns[i];
  const auto g = measure_subclass_geometry(F, labels, subclasses);
  for (const auto& pair : g.pairs) CHECK(pair.delta <= pair.separation + 1e-12);
  for (const auto& s : g.subclasses) CHECK(s.sigma <= std::sqrt(s.variance) + 1e-15);  // Jensen
  // The printed factor breaks the inequality on the hand-made, tight configuration.
  const HandMade h;
  const auto tight = measure_subclass_geometry(h.F, h.labels, h.subclasses);
  CHECK(tight.pairs.front().delta_paper > tight.pairs.front().separation);
}

TEST_CASE("The mean classifier's gamma-margin error switches at log gamma", "[subclass_geometry]") {
  const HandMade h;
  const MeanClassifier classifier(h.F, h.subclasses);
  // W_0 - W_1 = (2, 0); every point of subclass 0 scores 2: wrong exactly when log gamma > 2.
  CHECK(classifier.margin_error(h.F, h.subclasses, 0, 1, std::exp(1.9)) == 0.0);
  CHECK(classifier.margin_error(h.F, h.subclasses, 0, 1, std::exp(2.1)) == 1.0);
  CHECK_THROWS_AS(classifier.margin_error(h.F, h.subclasses, 0, 1, 1.0), InvalidArgument);
  CHECK_THROWS_AS(classifier.margin_error(h.F, h.subclasses, 0, 0, 2.0), InvalidArgument);
}

TEST_CASE("Theorem 3's bound is sigma / sqrt(r - 2 log gamma), vacuous below the margin", "[subclass_geometry][bounds]") {
  CHECK(*theorem3_bound(0.3, 4.0, std::exp(1.0)) == Approx(0.3 / std::sqrt(2.0)).epsilon(1e-15));
  CHECK_FALSE(theorem3_bound(0.3, 2.0, std::exp(1.0)));
  CHECK_THROWS_AS(theorem3_bound(0.3, 2.0, 0.5), InvalidArgument);
}

TEST_CASE("Theorem 3's boundary condition, 16 sqrt(2d log(8d/delta)/(m_z ^ m_z')) + 2d log(8d/delta)/m_z", "[subclass_geometry][bounds]") {
  // d = 2, delta = 0.5: 2d log(8d/delta) = 4 log 32; m_z = 400, m_z' = 100.
  const double l = 4.0 * std::log(32.0);
  CHECK(theorem3_boundary(2, 0.5, 400, 100) == Approx(16.0 * std::sqrt(l / 100.0) + l / 400.0).epsilon(1e-15));
  CHECK(theorem3_boundary(2, 0.5, 100, 400) == Approx(16.0 * std::sqrt(l / 100.0) + l / 100.0).epsilon(1e-15));  // m_z, not the minimum, in the second term
  // With unit embeddings r_f <= 4 (distances <= 2), and d = 64, delta = 0.05, m = 300 already
  // ask for more than 4: the bound is never in force there.
  CHECK(theorem3_boundary(64, 0.05, 300, 300) > 4.0);
  CHECK_THROWS_WITH(theorem3_boundary(2, 1.5, 10, 10), Catch::Contains("delta must be in (0, 1)"));
  CHECK_THROWS_WITH(theorem3_boundary(0, 0.5, 10, 10), Catch::Contains("d must be at least 1"));
}

TEST_CASE("Theorem 1's lower bound tends to 1 with more data and checks its condition", "[subclass_geometry][bounds]") {
  const double small = theorem1_lower_bound(1e3, 1e3, 1e2, 4, 10.0, 0.01, 0.01);
  const double large = theorem1_lower_bound(1e7, 1e7, 1e6, 4, 10.0, 0.01, 0.01);
  CHECK(small < large);
  CHECK(large == Approx(1.0).margin(1e-12));
  // delta(n) = d exp(-n/(32 d^2)(log gamma - 8R)^2) at n = 512, d = 4, R = 0: 4 exp(-log^2 gamma).
  const double lg = std::log(10.0);
  CHECK(theorem1_lower_bound(512, 1e9, 1e9, 4, 10.0, 0.0, 0.0) == Approx(1.0 - 4.0 * std::exp(-lg * lg)).epsilon(1e-14));
  CHECK_THROWS_AS(theorem1_lower_bound(1e3, 1e3, 1e2, 4, 1.5, 0.1, 0.1), InvalidArgument);
}

TEST_CASE("Subclasses must be complete and lie inside one class", "[subclass_geometry][errors]") {
  const HandMade h;
  auto bad = h.subclasses;
  bad[4] = 1;  // subclass 1 now spans classes 0 and 1
  CHECK_THROWS_AS(measure_subclass_geometry(h.F, h.labels, bad), InvalidArgument);
  CHECK_THROWS_AS(measure_subclass_geometry(h.F, h.labels, {0, 0, 0, 1, 2}), InvalidArgument);
  CHECK_THROWS_AS(measure_subclass_geometry(h.F, h.labels, {0, 0, 0, 1, 2, 4}), InvalidArgument);
}
