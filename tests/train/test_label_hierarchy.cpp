// Named hierarchies, the imbalanced variant, and the synthetic strata with their known sigma_z.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/label_hierarchy.hpp"
#include "geomsim/train/synthetic_strata.hpp"

using namespace geomsim;
using namespace geomsim::train;

TEST_CASE("Fashion-MNIST hierarchies map every fine class", "[train][data]") {
  const LabelHierarchy two = fashion_mnist_hierarchy("fmnist-2");
  CHECK(two.num_coarse() == 2);
  CHECK(coarse_labels(two, {0, 5, 7, 8, 9, 6}) == std::vector<int>{0, 1, 1, 1, 1, 0});
  const LabelHierarchy four = fashion_mnist_hierarchy("fmnist-4");
  CHECK(four.num_coarse() == 4);
  CHECK(coarse_labels(four, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) == std::vector<int>{0, 1, 0, 1, 0, 2, 0, 2, 3, 2});
  CHECK_THROWS_WITH(fashion_mnist_hierarchy("cifar"), Catch::Contains("hierarchy must be one of fmnist-2"));
  CHECK_THROWS_AS(coarse_labels(four, {10}), InvalidArgument);
}

TEST_CASE("The imbalanced variant keeps 20% of all but one subclass per class", "[train][data]") {
  const LabelHierarchy h = fashion_mnist_hierarchy("fmnist-4-imbalanced");
  std::vector<int> fine;
  for (int y = 0; y < 10; ++y) fine.insert(fine.end(), 100, y);
  const auto kept = kept_indices(h, fine, 1);
  std::map<int, int> count;
  for (auto i : kept) ++count[fine[i]];
  // The first fine class of each coarse class (0, 1, 5, 8) stays whole.
  CHECK(count == std::map<int, int>{{0, 100}, {1, 100}, {2, 20}, {3, 20}, {4, 20}, {5, 100}, {6, 20}, {7, 20}, {8, 100}, {9, 20}});
  CHECK(kept == kept_indices(h, fine, 1));   // seeded
  CHECK(kept != kept_indices(h, fine, 2));
  CHECK(std::is_sorted(kept.begin(), kept.end()));
}

TEST_CASE("Synthetic strata have their proportions and their closed-form sigma_z", "[train][data]") {
  StrataSpec spec;
  spec.classes = 2;
  spec.strata_per_class = 2;
  spec.dim = 10;
  spec.stratum_probability = {0.4, 0.1, 0.3, 0.2};
  spec.stratum_std = 0.5;
  const int n = 20000;
  const StrataSample sample = sample_strata(spec, n, 3);
  std::vector<int> count(4, 0);
  for (int z : sample.strata) ++count[static_cast<std::size_t>(z)];
  for (std::size_t z = 0; z < 4; ++z) {
    const double p = spec.stratum_probability[z];
    CHECK(std::abs(count[z] / double(n) - p) < 5 * std::sqrt(p * (1 - p) / n));
  }
  // sigma_z, measured as the mean pairwise distance within each stratum, against 2 s Gamma((D+1)/2)/Gamma(D/2).
  Matrix x(spec.dim, n);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < spec.dim; ++k) x(k, i) = sample.x[static_cast<std::size_t>(i * spec.dim + k)];
  }
  const SubclassGeometry g = measure_subclass_geometry(x, sample.labels, sample.strata);
  for (const auto& s : g.subclasses) {
    // The V-statistic includes the zero diagonal: correct by n / (n - 1).
    const double m = static_cast<double>(s.count);
    const double measured = s.mean_pairwise_distance * m / (m - 1.0);
    CHECK(measured == Approx(stratum_sigma(spec)).epsilon(0.01));
  }
  // Stratum means sit stratum_separation * sqrt(2) apart within a class.
  CHECK((g.subclasses[0].mean - g.subclasses[1].mean).norm() == Approx(1.5 * std::sqrt(2.0)).epsilon(0.02));
  StrataSpec bad = spec;
  bad.stratum_probability = {0.5, 0.5, 0.5, 0.5};
  CHECK_THROWS_WITH(sample_strata(bad, 10, 1), Catch::Contains("stratum_probability must sum to 1"));
  bad = spec;
  bad.dim = 3;
  CHECK_THROWS_WITH(sample_strata(bad, 10, 1), Catch::Contains("dim must be >= 6"));
}
