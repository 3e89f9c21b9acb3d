// Built-in hierarchies and hierarchy files, the imbalanced variant, and the synthetic strata with their known sigma_z.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unistd.h>

#include "geomsim/train/data/image_files.hpp"

#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/data/synthetic_strata.hpp"

using namespace geomsim;
using namespace geomsim::train;

TEST_CASE("Fashion-MNIST hierarchies map every fine class", "[train][data]") {
  const LabelHierarchy two = builtin_hierarchy("fmnist-2");
  CHECK(two.num_coarse() == 2);
  CHECK(coarse_labels(two, {0, 5, 7, 8, 9, 6}) == std::vector<int>{0, 1, 1, 1, 1, 0});
  const LabelHierarchy four = builtin_hierarchy("fmnist-4");
  CHECK(four.num_coarse() == 4);
  CHECK(coarse_labels(four, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}) == std::vector<int>{0, 1, 0, 1, 0, 2, 0, 2, 3, 2});
  CHECK_THROWS_WITH(builtin_hierarchy("cifar"), Catch::Contains("hierarchy must be one of fmnist-2, fmnist-4, fmnist-4-imbalanced, fmnist-pairs, identity, cifar10-2, cifar100-20"));
  CHECK_THROWS_AS(coarse_labels(four, {10}), InvalidArgument);
}

TEST_CASE("The new built-in hierarchies group the fine labels as documented", "[train][data]") {
  const LabelHierarchy pairs = builtin_hierarchy("fmnist-pairs");
  CHECK(pairs.coarse_of_fine == std::vector<int>{0, 1, 2, 1, 2, 3, 0, 3, 4, 4});
  for (const auto& members : pairs.fine_of_coarse()) CHECK(members.size() == 2);  // seed 004 section 2.1: |S_y| = 2
  const LabelHierarchy identity = builtin_hierarchy("identity");
  CHECK(identity.coarse_of_fine == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  CHECK(identity.dataset.empty());
  const LabelHierarchy cifar10 = builtin_hierarchy("cifar10-2");  // airplane, automobile, ship, truck are vehicles
  CHECK(cifar10.coarse_of_fine == std::vector<int>{0, 0, 1, 1, 1, 1, 1, 1, 0, 0});
  CHECK(cifar10.coarse_names == std::vector<std::string>{"vehicles", "animals"});
  const LabelHierarchy cifar100 = builtin_hierarchy("cifar100-20");
  REQUIRE(cifar100.num_fine() == 100);
  REQUIRE(cifar100.num_coarse() == 20);
  // Independent of the name table the library builds it from: the fine -> coarse array in its
  // numeric form, as widely used with the data set's label order (each coarse id 5 times).
  const std::vector<int> numeric{4,  1,  14, 8,  0,  6,  7,  7,  18, 3,  3,  14, 9,  18, 7,  11, 3,  9,  7,  11,
                                 6,  11, 5,  10, 7,  6,  13, 15, 3,  15, 0,  11, 1,  10, 12, 14, 16, 9,  11, 5,
                                 5,  19, 8,  8,  15, 13, 14, 17, 18, 10, 16, 4,  17, 4,  2,  0,  17, 4,  18, 17,
                                 10, 3,  2,  12, 12, 16, 12, 1,  9,  19, 2,  10, 0,  1,  16, 12, 9,  13, 15, 13,
                                 16, 19, 2,  4,  6,  19, 5,  5,  8,  19, 18, 1,  2,  15, 6,  0,  17, 8,  14, 13};
  CHECK(cifar100.coarse_of_fine == numeric);
  for (const auto& members : cifar100.fine_of_coarse()) CHECK(members.size() == 5);
  CHECK(cifar100.fine_names[99] == "worm");
  CHECK(cifar100.coarse_names[13] == "non-insect_invertebrates");
  CHECK(cifar100.dataset == "cifar-100");
}

namespace {
// Fashion-MNIST as doubles, one row of 784 pixels per image.
Eigen::MatrixXd pixels(const LabelledImages& data) {
  Eigen::MatrixXd x(static_cast<Eigen::Index>(data.labels.size()), 784);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    for (Eigen::Index k = 0; k < 784; ++k) x(i, k) = data.images.data[static_cast<std::size_t>(i * 784 + k)] / 255.0;
  }
  return x;
}
// Every way to split 0..9 into five pairs (945 of them), each as coarse_of_fine.
void pairings(std::vector<int>& coarse, int next_class, std::vector<std::vector<int>>& out) {
  const auto first = std::find(coarse.begin(), coarse.end(), -1);
  if (first == coarse.end()) {
    out.push_back(coarse);
    return;
  }
  *first = next_class;
  for (auto partner = first + 1; partner != coarse.end(); ++partner) {
    if (*partner != -1) continue;
    *partner = next_class;
    pairings(coarse, next_class + 1, out);
    *partner = -1;
  }
  *first = -1;
}
}  // namespace

TEST_CASE("fmnist-pairs pairs the most alike Fashion-MNIST classes of all 945 pairings", "[train][data]") {
  const LabelledImages train_data = load_fashion_mnist(kFashionMnistDir, true), test_data = load_fashion_mnist(kFashionMnistDir, false);
  const Eigen::MatrixXd x = pixels(train_data), t = pixels(test_data);
  Eigen::MatrixXd means = Eigen::MatrixXd::Zero(10, 784);
  Eigen::VectorXd counts = Eigen::VectorXd::Zero(10);
  for (Eigen::Index i = 0; i < x.rows(); ++i) {
    means.row(train_data.labels[static_cast<std::size_t>(i)]) += x.row(i);
    counts(train_data.labels[static_cast<std::size_t>(i)]) += 1;
  }
  means = counts.cwiseInverse().asDiagonal() * means;
  // Confusions of the pixel-space nearest-class-mean rule on the test set, both ways round.
  Eigen::MatrixXi confused = Eigen::MatrixXi::Zero(10, 10);
  for (Eigen::Index i = 0; i < t.rows(); ++i) {
    Eigen::Index nearest = 0;
    (means.rowwise() - t.row(i)).rowwise().squaredNorm().minCoeff(&nearest);
    const int truth = test_data.labels[static_cast<std::size_t>(i)];
    if (nearest != truth) {
      ++confused(truth, nearest);
      ++confused(nearest, truth);
    }
  }
  std::vector<int> coarse(10, -1);
  std::vector<std::vector<int>> all;
  pairings(coarse, 0, all);
  REQUIRE(all.size() == 945);
  struct Score {
    double distance = 0.0;  // summed distance between the two class-mean images of each pair
    int confusions = 0;
  };
  const auto score = [&](const std::vector<int>& c) {
    Score s;
    for (int a = 0; a < 10; ++a) {
      for (int b = a + 1; b < 10; ++b) {
        if (c[static_cast<std::size_t>(a)] != c[static_cast<std::size_t>(b)]) continue;
        s.distance += (means.row(a) - means.row(b)).norm();
        s.confusions += confused(a, b);
      }
    }
    return s;
  };
  const std::vector<int> chosen = builtin_hierarchy("fmnist-pairs").coarse_of_fine;
  const Score best = score(chosen);
  std::set<int> chosen_pairs;
  double next_distance = 1e300;
  int next_confusions = 0;
  for (const auto& c : all) {
    // The same partition as the built-in (numbered differently) is skipped.
    bool same = true;
    for (int a = 0; a < 10; ++a) {
      for (int b = 0; b < 10; ++b) {
        same = same && ((c[static_cast<std::size_t>(a)] == c[static_cast<std::size_t>(b)]) ==
                        (chosen[static_cast<std::size_t>(a)] == chosen[static_cast<std::size_t>(b)]));
      }
    }
    if (same) continue;
    const Score s = score(c);
    next_distance = std::min(next_distance, s.distance);
    next_confusions = std::max(next_confusions, s.confusions);
  }
  // The figures quoted in label_hierarchy.hpp and docs/tutorials/training.md (to the digits given there).
  CHECK(best.distance == Approx(20.29).margin(0.005));
  CHECK(next_distance == Approx(22.55).margin(0.005));
  CHECK(best.confusions == 967);
  CHECK(next_confusions == 948);
  CHECK(best.distance < next_distance);
  CHECK(best.confusions > next_confusions);
}

namespace {
struct HierarchyFile {
  std::string path;
  HierarchyFile(const std::string& name, const std::string& text)
      : path((std::filesystem::temp_directory_path() / ("geomsim-" + std::to_string(::getpid()) + "-" + name)).string()) {
    std::ofstream(path) << text;
  }
  ~HierarchyFile() { std::filesystem::remove(path); }
};
}  // namespace

TEST_CASE("A hierarchy file maps each fine label to a coarse one, in JSON or CSV", "[train][data]") {
  SECTION("a JSON object") {
    const HierarchyFile f("h.json", R"({"0": 1, "1": 0, "2": 1, "3": 2})");
    const LabelHierarchy h = resolve_hierarchy(f.path);
    CHECK(h.coarse_of_fine == std::vector<int>{1, 0, 1, 2});
    CHECK(h.num_coarse() == 3);
    CHECK(h.name == f.path);
    CHECK(h.dataset.empty());
  }
  SECTION("JSON with names, and an array") {
    const HierarchyFile f("h.json", R"({"fine_to_coarse": [0, 0, 1], "coarse_names": ["a", "b"], "fine_names": ["x", "y", "z"]})");
    const LabelHierarchy h = resolve_hierarchy(f.path);
    CHECK(h.coarse_of_fine == std::vector<int>{0, 0, 1});
    CHECK(h.coarse_names == std::vector<std::string>{"a", "b"});
    CHECK(h.fine_names == std::vector<std::string>{"x", "y", "z"});
  }
  SECTION("CSV with and without a header, in any row order") {
    const HierarchyFile with("h.csv", "fine,coarse\n1,0\n0,1\r\n2, 1\n\n");
    CHECK(resolve_hierarchy(with.path).coarse_of_fine == std::vector<int>{1, 0, 1});
    const HierarchyFile without("h2.csv", "0,0\n1,0\n");
    CHECK(resolve_hierarchy(without.path).coarse_of_fine == std::vector<int>{0, 0});
  }
}

TEST_CASE("A malformed hierarchy file is refused, saying what is wrong", "[train][data]") {
  const auto refused = [](const std::string& name, const std::string& text, const std::string& message) {
    const HierarchyFile f(name, text);
    CAPTURE(text);
    CHECK_THROWS_WITH(resolve_hierarchy(f.path), Catch::StartsWith("hierarchy " + f.path + ": ") && Catch::Contains(message));
    try {
      resolve_hierarchy(f.path);
    } catch (const InvalidArgument& e) {
      CHECK(e.argument() == "hierarchy");
    }
  };
  refused("a.json", R"({"0": 0, "1": 1, "0": 1})", "key \"0\" appears twice");
  refused("b.json", R"({"0": 0, "01": 1, "1": 0})", "fine label 1 is mapped twice");
  refused("c.json", R"({"0": 0, "2": 1})", "fine label 1 is not mapped");
  refused("d.json", R"({"0": 0, "1": 2})", "coarse ids must be contiguous from 0, but 1 is unused");
  refused("e.json", R"({"0": 0, "1": -1})", "coarse label -1 is not an int >= 0");
  refused("f.json", R"({"0": 0, "1": 1.5})", "the coarse label must be an integer >= 0, got 1.5");
  refused("g.json", R"({"0": 0, "x": 1})", "key \"x\" is not a fine label");
  refused("h.json", R"({"0": 0, "-1": 0})", "key \"-1\" is not a fine label");
  refused("i.json", R"({"0": 0, "1": 1)", "is not valid JSON");
  refused("j.json", R"([0, 1])", "must hold a JSON object");
  refused("k.json", R"({})", "maps no fine label");
  refused("l.json", R"({"fine_to_coarse": [0, 1], "names": []})", "unknown key \"names\"");
  refused("m.json", R"({"fine_to_coarse": [0, 1], "coarse_names": ["a"]})", "\"coarse_names\" must be an array of 2 strings");
  refused("n.json", R"({"fine_to_coarse": "0,1"})", "\"fine_to_coarse\" must be an object or an array");
  refused("o.json", R"({"0": 0, "1": 1, "5000000000": 0})", "fine label 2 is not mapped");
  refused("a.csv", "0,0\n1,1\n1,0\n", "fine label 1 is mapped twice (line 2 and line 3)");
  refused("b.csv", "0,0\n2,0\n", "fine label 1 is not mapped");
  refused("c.csv", "0,0\n1,3\n", "but 1 is unused");
  refused("d.csv", "fine,coarse\n0,0\n1\n", "line 3 '1' is not 'fine,coarse'");
  refused("e.csv", "0,0\n1,a\n", "line 2 '1,a' is not 'fine,coarse'");
  refused("f.csv", "0,0,0\n", "is not 'fine,coarse'");
  refused("g.csv", "0,-1\n", "is not 'fine,coarse'");
  refused("h.csv", "  \n", "is empty");
  refused("i.csv", "fine,coarse\n", "maps no fine label");
  // Hostile files: JSON nested 100 000 deep (a stack overflow when the message dumped the value),
  // a line longer than any pair, a file larger than any hierarchy (sparse: nothing is written).
  const std::string deep(100000, '[');
  refused("p.json", "{\"0\": " + deep + std::string(100000, ']') + "}", "nests arrays or objects more than 64 levels deep");
  refused("q.json", "{\"0\": [[[[[1]]]]]}", "the coarse label must be an integer >= 0, got [[[[...]]]]");
  refused("j.csv", "0,0\n" + std::string(1000, '1') + ",0\n", "line 2 holds 1002 bytes, not 'fine,coarse'");
  const HierarchyFile big("big.csv", "");
  std::filesystem::resize_file(big.path, (std::uintmax_t{64} << 20) + 1);
  CHECK_THROWS_WITH(resolve_hierarchy(big.path), Catch::Contains("holds 67108865 bytes, more than the 67108864 a hierarchy file may have"));
  CHECK_THROWS_WITH(resolve_hierarchy("no-such-hierarchy"), Catch::Contains("got 'no-such-hierarchy', which is neither"));
  CHECK_THROWS_WITH(hierarchy_from_mapping("m", {0, 2147483647}, "hierarchy"), Catch::Contains("but 1 is unused (the largest is 2147483647)"));
}

TEST_CASE("The imbalanced variant keeps 20% of all but one subclass per class", "[train][data]") {
  const LabelHierarchy h = builtin_hierarchy("fmnist-4-imbalanced");
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
