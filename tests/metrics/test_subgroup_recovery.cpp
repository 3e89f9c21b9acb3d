// Subgroup recovery: k-means inside each class scored by F1 against the true subclasses.
#include <catch2/catch.hpp>

#include "geomsim/metrics/subgroup_recovery.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

using namespace geomsim;

namespace {
// Two classes of two subclasses (sizes 30, 10 and 20, 20), centres far apart, spread `width`.
struct Blobs {
  Matrix points;
  std::vector<int> labels, subclasses;
};
Blobs blobs(double width, std::uint64_t seed) {
  Rng rng(seed);
  const int sizes[] = {30, 10, 20, 20};
  const double centres[4][2] = {{0, 0}, {0, 5}, {10, 0}, {10, 5}};
  Blobs b;
  b.points.resize(2, 80);
  Index column = 0;
  for (int z = 0; z < 4; ++z) {
    for (int i = 0; i < sizes[z]; ++i, ++column) {
      b.points(0, column) = centres[z][0] + width * rng.normal();
      b.points(1, column) = centres[z][1] + width * rng.normal();
      b.labels.push_back(z / 2);
      b.subclasses.push_back(z);
    }
  }
  return b;
}
}  // namespace

TEST_CASE("Separated subclasses are recovered with F1 = 1", "[subgroup_recovery]") {
  const auto seed = GENERATE(1u, 2u, 3u);
  const Blobs b = blobs(0.3, seed);
  const SubgroupRecovery r = subgroup_recovery(b.points, b.labels, b.subclasses, seed);
  CHECK(r.macro_f1 == Approx(1.0).epsilon(1e-15));
  CHECK(r.f1_per_subclass.size() == 4);
  // Deterministic for a seed.
  CHECK(kmeans(b.points, 4, 7) == kmeans(b.points, 4, 7));
}

TEST_CASE("Collapsed classes give the F1 of one cluster per class", "[subgroup_recovery]") {
  // Every point of a class at one place: k-means can only return one occupied cluster, whose F1
  // against a subclass of size s in a class of n is 2s/(s + n).
  Blobs b = blobs(0.3, 1);
  for (Index i = 0; i < b.points.cols(); ++i) b.points.col(i) = Vector::Constant(2, b.labels[static_cast<std::size_t>(i)]);
  const SubgroupRecovery r = subgroup_recovery(b.points, b.labels, b.subclasses, 0);
  CHECK(r.f1_per_subclass[0] == Approx(2.0 * 30 / 70));
  CHECK(r.f1_per_subclass[1] == Approx(2.0 * 10 / 50));
  CHECK(r.f1_per_subclass[2] == Approx(2.0 * 20 / 60));
  CHECK(r.macro_f1 == Approx((60.0 / 70 + 20.0 / 50 + 2 * 40.0 / 60) / 4));
}

TEST_CASE("Subgroup recovery rejects bad input by name", "[subgroup_recovery][errors]") {
  const Blobs b = blobs(0.3, 1);
  CHECK_THROWS_WITH(kmeans(b.points, 0, 1), Catch::Contains("k must be in [1, 80]"));
  CHECK_THROWS_AS(subgroup_recovery(b.points, {0, 1}, b.subclasses), InvalidArgument);
}
