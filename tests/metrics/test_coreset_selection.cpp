// Coreset selection (metrics/coreset_selection.hpp): seed 000's bucket removal on worked
// examples, the class quotas against exact proportions, and the score and random coresets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>

#include "geomsim/metrics/coreset_selection.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

using namespace geomsim;

namespace {

// The kept examples' count in each bucket.
std::map<int, int> bucket_sizes(const std::vector<std::size_t>& kept, const std::vector<int>& buckets) {
  std::map<int, int> sizes;
  for (std::size_t i : kept) ++sizes[buckets[i]];
  return sizes;
}

}  // namespace

TEST_CASE("Class quotas are proportional, sum to the size and give remainders to the largest", "[metrics][coreset]") {
  CHECK(class_quotas({10, 20, 30}, 30) == std::vector<std::size_t>{5, 10, 15});
  // 7 x (1/3, 1/3, 1/3) = 2.33 each: the floors give 6, the first class (ties to the lower) one more.
  CHECK(class_quotas({5, 5, 5}, 7) == std::vector<std::size_t>{3, 2, 2});
  // 5 x (1/10, 3/10, 6/10) = 0.5, 1.5, 3.0: the floors give 4, the tied remainders 0.5 the lower class one more.
  CHECK(class_quotas({1, 3, 6}, 5) == std::vector<std::size_t>{1, 1, 3});
  CHECK(class_quotas({4, 0, 2}, 6) == std::vector<std::size_t>{4, 0, 2});
  CHECK(class_quotas({4, 2}, 0) == std::vector<std::size_t>{0, 0});
  Rng rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<std::size_t> counts(1 + rng.uniform_index(8));
    std::size_t n = 0;
    for (auto& c : counts) n += (c = rng.uniform_index(50));
    const std::size_t size = rng.uniform_index(n + 1);
    const auto quotas = class_quotas(counts, size);
    std::size_t sum = 0;
    for (std::size_t c = 0; c < counts.size(); ++c) {
      sum += quotas[c];
      REQUIRE(quotas[c] <= counts[c]);
      // Within one of the exact share.
      const double exact = static_cast<double>(size) * static_cast<double>(counts[c]) / static_cast<double>(std::max<std::size_t>(n, 1));
      REQUIRE(std::abs(static_cast<double>(quotas[c]) - exact) < 1.0);
    }
    REQUIRE(sum == size);
  }
  CHECK_THROWS_AS(class_quotas({2, 3}, 6), InvalidArgument);
}

TEST_CASE("Seed 000's coreset removes from the largest bucket, the easier of equal ones", "[metrics][coreset]") {
  // One class: 6 examples always classified correctly (bucket 3), 3 twice, 1 never.
  const std::vector<int> buckets = {3, 3, 3, 3, 3, 3, 2, 2, 2, 0};
  const std::vector<int> labels(10, 0);
  // 7 of 10: the three removals all come from bucket 3 (6 -> 3, then level with bucket 2).
  CHECK(bucket_sizes(difficulty_bucket_coreset(buckets, labels, 7, 1), buckets) == std::map<int, int>{{0, 1}, {2, 3}, {3, 3}});
  // 4 of 10: 6 removals: bucket 3 to 3, then 3 (tie, easier first), 2, 3 (tie), bucket 2: 2 left.
  CHECK(bucket_sizes(difficulty_bucket_coreset(buckets, labels, 4, 1), buckets) == std::map<int, int>{{0, 1}, {2, 2}, {3, 1}});
  // 3 of 10: 7 removals, the last from bucket 2 (2 against 1 and 1): every bucket keeps one, the
  // easy one included. 2 of 10: the tie of three buckets at 1 takes the easy one.
  CHECK(bucket_sizes(difficulty_bucket_coreset(buckets, labels, 3, 1), buckets) == std::map<int, int>{{0, 1}, {2, 1}, {3, 1}});
  CHECK(bucket_sizes(difficulty_bucket_coreset(buckets, labels, 2, 1), buckets) == std::map<int, int>{{0, 1}, {2, 1}});
  CHECK(difficulty_bucket_coreset(buckets, labels, 10, 1).size() == 10);
  CHECK(difficulty_bucket_coreset(buckets, labels, 0, 1).empty());
}

TEST_CASE("Seed 000's coreset keeps each class's quota and levels its buckets", "[metrics][coreset]") {
  Rng rng(11);
  const std::size_t n = 900;
  std::vector<int> buckets(n), labels(n);
  for (std::size_t i = 0; i < n; ++i) {
    labels[i] = static_cast<int>(rng.uniform_index(3));
    // Mostly easy: bucket 9 with chance 0.6, else uniform in 0..9.
    buckets[i] = rng.uniform() < 0.6 ? 9 : static_cast<int>(rng.uniform_index(10));
  }
  for (std::size_t size : {90, 300, 600, 850}) {
    const auto kept = difficulty_bucket_coreset(buckets, labels, size, 5);
    REQUIRE(kept.size() == size);
    REQUIRE(std::is_sorted(kept.begin(), kept.end()));
    REQUIRE(std::set<std::size_t>(kept.begin(), kept.end()).size() == size);
    CHECK(difficulty_bucket_coreset(buckets, labels, size, 5) == kept);  // deterministic for a seed
    std::vector<std::size_t> counts(3, 0), kept_counts(3, 0);
    for (int y : labels) ++counts[static_cast<std::size_t>(y)];
    for (std::size_t i : kept) ++kept_counts[static_cast<std::size_t>(labels[i])];
    CHECK(kept_counts == class_quotas(counts, size));
    // Water-filling: within a class, a bucket that lost examples ends at least as large as every
    // other bucket's final size minus one (it was the largest at each of its removals).
    for (int y = 0; y < 3; ++y) {
      std::map<int, int> before, after;
      for (std::size_t i = 0; i < n; ++i) {
        if (labels[i] == y) ++before[buckets[i]];
      }
      for (std::size_t i : kept) {
        if (labels[i] == y) ++after[buckets[i]];
      }
      for (const auto& [b, count] : before) {
        if (after[b] == count) continue;
        for (const auto& [other, kept_other] : after) REQUIRE(after[b] >= kept_other - 1);
      }
    }
  }
  CHECK_THROWS_AS(difficulty_bucket_coreset({1, -1}, {0, 0}, 1, 0), InvalidArgument);
  CHECK_THROWS_AS(difficulty_bucket_coreset({1, 1}, {0, -2}, 1, 0), InvalidArgument);
  CHECK_THROWS_AS(difficulty_bucket_coreset({1}, {0, 0}, 1, 0), InvalidArgument);
  CHECK_THROWS_AS(difficulty_bucket_coreset({1, 1}, {0, 0}, 3, 0), InvalidArgument);
}

TEST_CASE("The score coreset keeps the highest scores and breaks ties by its seed", "[metrics][coreset]") {
  const std::vector<double> scores = {0.5, 2.0, -1.0, 2.0, 7.0, 0.5};
  const auto two = top_score_coreset(scores, 2, 0);
  CHECK((two == std::vector<std::size_t>{1, 4} || two == std::vector<std::size_t>{3, 4}));
  CHECK(top_score_coreset(scores, 3, 0) == std::vector<std::size_t>{1, 3, 4});
  CHECK(top_score_coreset(scores, 5, 9) == std::vector<std::size_t>{0, 1, 3, 4, 5});
  // Ties: all-equal scores give a seeded uniform choice, different for different seeds.
  const std::vector<double> flat(100, 1.0);
  CHECK(top_score_coreset(flat, 10, 1) == top_score_coreset(flat, 10, 1));
  CHECK(top_score_coreset(flat, 10, 1) != top_score_coreset(flat, 10, 2));
  CHECK_THROWS_AS(top_score_coreset({1.0, std::nan("")}, 1, 0), InvalidArgument);
  CHECK_THROWS_AS(top_score_coreset({1.0}, 2, 0), InvalidArgument);
}

TEST_CASE("The random coreset is a seeded uniform sample", "[metrics][coreset]") {
  const auto a = random_coreset(50, 20, 4);
  CHECK(a.size() == 20);
  CHECK(std::is_sorted(a.begin(), a.end()));
  CHECK(std::set<std::size_t>(a.begin(), a.end()).size() == 20);
  CHECK(random_coreset(50, 20, 4) == a);
  // Each index is kept with chance 20/50: over 2000 draws, within 4 binomial sds of 800.
  int first = 0;
  for (std::uint64_t s = 0; s < 2000; ++s) first += random_coreset(50, 20, s).front() == 0 ? 1 : 0;
  CHECK(std::abs(first - 800) < 4 * std::sqrt(2000 * 0.4 * 0.6));
  CHECK_THROWS_AS(random_coreset(3, 4, 0), InvalidArgument);
}
