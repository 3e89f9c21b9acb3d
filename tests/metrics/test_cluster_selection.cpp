// The number of clusters by silhouette, PCA, the generalised subgroup F1 and accuracy by group.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <set>

#include "geomsim/metrics/cluster_selection.hpp"
#include "geomsim/metrics/group_accuracy.hpp"
#include "geomsim/metrics/principal_components.hpp"
#include "geomsim/metrics/subgroup_recovery.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

using namespace geomsim;

namespace {

// `sizes[c]` points around centre c: centres e_1 * 10 c in R^d, normal spread `width`.
Matrix blobs(const std::vector<int>& sizes, int d, double width, std::uint64_t seed, std::vector<int>* truth = nullptr) {
  Rng rng(seed);
  int n = 0;
  for (int s : sizes) n += s;
  Matrix points(d, n);
  Index column = 0;
  for (std::size_t c = 0; c < sizes.size(); ++c) {
    for (int i = 0; i < sizes[c]; ++i, ++column) {
      for (int r = 0; r < d; ++r) points(r, column) = width * rng.normal();
      points(c % 2, column) += 10.0 * static_cast<double>(c);  // centres apart on two axes
      if (truth) truth->push_back(static_cast<int>(c));
    }
  }
  return points;
}

// Rousseeuw's definition, literally: O(n^2) per point.
double literal_silhouette(const Matrix& x, const std::vector<int>& cl) {
  std::set<int> ids(cl.begin(), cl.end());
  double total = 0;
  for (std::size_t i = 0; i < cl.size(); ++i) {
    double a = 0;
    int own = 0;
    for (std::size_t j = 0; j < cl.size(); ++j) {
      if (j != i && cl[j] == cl[i]) {
        a += (x.col(static_cast<Index>(i)) - x.col(static_cast<Index>(j))).norm();
        ++own;
      }
    }
    if (own == 0) continue;
    a /= own;
    double b = 1e300;
    for (int c : ids) {
      if (c == cl[i]) continue;
      double sum = 0;
      int m = 0;
      for (std::size_t j = 0; j < cl.size(); ++j) {
        if (cl[j] == c) {
          sum += (x.col(static_cast<Index>(i)) - x.col(static_cast<Index>(j))).norm();
          ++m;
        }
      }
      b = std::min(b, sum / m);
    }
    total += (b - a) / std::max(a, b);
  }
  return total / static_cast<double>(cl.size());
}

}  // namespace

TEST_CASE("Silhouette of four points on a line matches the closed form", "[cluster_selection]") {
  Matrix x(1, 4);
  x << 0, 1, 10, 11;
  // s = (b - a) / b with a = 1: b = 10.5 for the outer points, 9.5 for the inner ones.
  const double expected = (9.5 / 10.5 + 8.5 / 9.5) / 2;
  CHECK(silhouette_score(x, {0, 0, 1, 1}) == Approx(expected).epsilon(1e-15));
  CHECK(silhouette_score(x, {5, 5, 2, 2}) == Approx(expected).epsilon(1e-15));  // any ids
  // A singleton cluster contributes s = 0: points 0 and 1 get (b - a)/b with a = 1, b = 10 and 9.
  CHECK(silhouette_score(x, {0, 0, 1, 2}) == Approx((9.0 / 10 + 8.0 / 9) / 4).epsilon(1e-15));
}

TEST_CASE("Silhouette agrees with the literal definition on random clusters", "[cluster_selection]") {
  Rng rng(3);
  Matrix x(3, 60);
  std::vector<int> cl;
  for (Index i = 0; i < 60; ++i) {
    for (int r = 0; r < 3; ++r) x(r, i) = rng.normal();
    cl.push_back(static_cast<int>(rng.uniform_index(4)));
  }
  CHECK(silhouette_score(x, cl) == Approx(literal_silhouette(x, cl)).epsilon(1e-12));
  CHECK_THROWS_WITH(silhouette_score(x, std::vector<int>(60, 1)), Catch::Contains("at least two cluster ids"));
}

TEST_CASE("PCA recovers the axes and variances of an axis-aligned cloud", "[cluster_selection]") {
  // Coordinates +-3, +-2, +-1 along the axes in every combination: the covariance is diagonal
  // with variances 9, 4, 1 (1/n normalisation), about the mean (5, 0, 0).
  Matrix x(3, 8);
  Index column = 0;
  for (int a : {-1, 1}) {
    for (int b : {-1, 1}) {
      for (int c : {-1, 1}) {
        x.col(column++) = Vector::Map(std::vector<double>{5 + 2.0 * b, 1.0 * c, 3.0 * a}.data(), 3);
      }
    }
  }
  const PrincipalComponents pc = principal_components(x, 2);
  REQUIRE(pc.basis.cols() == 2);
  CHECK(pc.variances[0] == Approx(9.0).epsilon(1e-12));
  CHECK(pc.variances[1] == Approx(4.0).epsilon(1e-12));
  CHECK(pc.mean.isApprox(Vector::Map(std::vector<double>{5, 0, 0}.data(), 3), 1e-14));
  CHECK(pc.basis.col(0).isApprox(Vector::Map(std::vector<double>{0, 0, 1}.data(), 3), 1e-12));  // sign: positive
  CHECK(pc.basis.col(1).isApprox(Vector::Map(std::vector<double>{1, 0, 0}.data(), 3), 1e-12));
  CHECK(pc.project(x).row(0).cwiseAbs().maxCoeff() == Approx(3.0));
  CHECK(principal_components(x, 10).basis.cols() == 3);  // at most d components
  CHECK_THROWS_WITH(principal_components(x, 0), Catch::Contains("components must be >= 1"));
}

TEST_CASE("Silhouette selection recovers k on separated blobs", "[cluster_selection]") {
  const int d = GENERATE(2, 16);
  const int k = GENERATE(2, 3, 5);
  std::vector<int> sizes = {60, 25, 40, 30, 50};
  sizes.resize(static_cast<std::size_t>(k));
  std::vector<int> truth;
  const Matrix x = blobs(sizes, d, 0.5, 11 + static_cast<std::uint64_t>(d), &truth);
  ClusterSelectionOptions o;
  o.seed = 4;
  const ClusterSelection s = select_clusters(x, o);
  CHECK(s.k == k);
  CHECK(s.silhouettes.size() == 7);  // k = 2..8
  INFO("best silhouette " << *std::max_element(s.silhouettes.begin(), s.silhouettes.end()));
  CHECK(*std::max_element(s.silhouettes.begin(), s.silhouettes.end()) > (d == 2 ? 0.9 : 0.7));
  // The clusters are the blobs: F1 = 1 for every blob (one class holding all of them).
  const SubgroupRecovery r = score_subgroup_clusters(std::vector<int>(truth.size(), 0), truth, s.clusters);
  CHECK(r.macro_f1 == Approx(1.0).epsilon(1e-15));
  // New points from the blobs go to their blob's cluster.
  CHECK(s.assign(x) == s.clusters);
}

TEST_CASE("Silhouette selection picks k = 1 on one blob", "[cluster_selection]") {
  const int d = GENERATE(2, 16);
  const Matrix x = blobs({300}, d, 1.0, 5);
  ClusterSelectionOptions o;
  const ClusterSelection s = select_clusters(x, o);
  CHECK(s.k == 1);
  CHECK(std::all_of(s.clusters.begin(), s.clusters.end(), [](int c) { return c == 0; }));
  const double best = *std::max_element(s.silhouettes.begin(), s.silhouettes.end());
  CHECK(best < 0.45);
  if (d == 2) CHECK(best > 0.25);  // the header's "about 0.3 in 2-D"
  // The threshold decides: with none, the best k >= 2 is taken.
  o.min_silhouette = -1.0;
  CHECK(select_clusters(x, o).k >= 2);
}

TEST_CASE("Selection within classes numbers clusters globally and assigns new points", "[cluster_selection]") {
  // Class 0: two blobs; class 1: one blob (far away).
  std::vector<int> truth0, truth1;
  Matrix a = blobs({40, 30}, 4, 0.4, 1, &truth0);
  Matrix b = blobs({50}, 4, 0.4, 2, &truth1);
  b.row(3).array() += 100.0;
  Matrix x(4, a.cols() + b.cols());
  x << a, b;
  std::vector<int> labels(70, 0), subclasses(truth0);
  labels.resize(120, 1);
  subclasses.resize(120, 2);
  ClusterSelectionOptions o;
  const ClassClusters c = select_clusters_within_classes(x, labels, o);
  REQUIRE(c.per_class.size() == 2);
  CHECK(c.per_class[0].k == 2);
  CHECK(c.per_class[1].k == 1);
  CHECK(c.total == 3);
  CHECK(c.offset == std::vector<int>{0, 2});
  CHECK(std::all_of(c.clusters.begin() + 70, c.clusters.end(), [](int id) { return id == 2; }));
  CHECK(score_subgroup_clusters(labels, subclasses, c.clusters).macro_f1 == Approx(1.0).epsilon(1e-15));
  CHECK(c.assign(x, labels) == c.clusters);
  CHECK_THROWS_AS(c.assign(x, std::vector<int>(120, 2)), InvalidArgument);
}

TEST_CASE("Subgroup F1 with any number of clusters per class", "[subgroup_recovery]") {
  // Class 0 holds subclasses 0 (4 points) and 1 (2 points); class 1 holds subclass 2 (3 points).
  const std::vector<int> labels = {0, 0, 0, 0, 0, 0, 1, 1, 1};
  const std::vector<int> subclasses = {0, 0, 0, 0, 1, 1, 2, 2, 2};
  // Three clusters in class 0: {0, 1, 2}, {3, 4}, {5}; class 1 shares id 0 with class 0.
  const std::vector<int> clusters = {7, 7, 7, 8, 8, 9, 7, 7, 7};
  const SubgroupRecovery r = score_subgroup_clusters(labels, subclasses, clusters);
  // Subclass 0 vs {0,1,2}: 2*3/(4+3); subclass 1 vs {3,4}: 2*1/(2+2), vs {5}: 2*1/(2+1) (best);
  // subclass 2 vs cluster 7 counted within class 1 only: 2*3/(3+3) = 1.
  CHECK(r.f1_per_subclass[0] == Approx(6.0 / 7));
  CHECK(r.f1_per_subclass[1] == Approx(2.0 / 3));
  CHECK(r.f1_per_subclass[2] == Approx(1.0));
  CHECK(r.macro_f1 == Approx((6.0 / 7 + 2.0 / 3 + 1.0) / 3));
  CHECK_THROWS_WITH(score_subgroup_clusters({0, 1}, {0, 0}, {0, 0}), Catch::Contains("inside one class"));
}

TEST_CASE("Accuracy by group: per group, worst and average", "[group_accuracy]") {
  const std::vector<int> labels = {0, 0, 0, 1, 1, 1, 1};
  const std::vector<int> predicted = {0, 0, 1, 1, 1, 1, 0};
  const std::vector<int> groups = {0, 0, 1, 2, 2, 2, 1};
  const GroupAccuracy a = group_accuracy(predicted, labels, groups, 4);
  CHECK(a.per_group[0] == 1.0);
  CHECK(a.per_group[1] == 0.0);
  CHECK(a.per_group[2] == 1.0);
  CHECK(a.counts == std::vector<std::int64_t>{2, 2, 3, 0});
  CHECK(a.worst == 0.0);  // group 3 has no examples and is left out
  CHECK(a.worst_group == 1);
  CHECK(a.average == Approx(5.0 / 7));
  CHECK_THROWS_WITH(group_accuracy(predicted, labels, groups, 2), Catch::Contains("groups must be in 0..1"));
}
