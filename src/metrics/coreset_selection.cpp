#include "geomsim/metrics/coreset_selection.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"

namespace geomsim {
namespace {

void require_size(std::size_t size, std::size_t n) {
  if (size > n) {
    throw InvalidArgument("size", "must be at most the " + std::to_string(n) + " examples, got " + std::to_string(size));
  }
}

}  // namespace

std::vector<std::size_t> class_quotas(const std::vector<std::size_t>& counts, std::size_t size) {
  const std::size_t n = std::accumulate(counts.begin(), counts.end(), std::size_t{0});
  require_size(size, n);
  std::vector<std::size_t> quotas(counts.size(), 0);
  if (n == 0) return quotas;
  // Floors of the exact shares size * counts[c] / n, in integers; then one more to the classes
  // with the largest remainders until the sum is `size`.
  std::vector<std::pair<std::size_t, std::size_t>> remainders;  // (remainder, class)
  std::size_t given = 0;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    const unsigned long long product = static_cast<unsigned long long>(size) * counts[c];
    quotas[c] = static_cast<std::size_t>(product / n);
    remainders.emplace_back(static_cast<std::size_t>(product % n), c);
    given += quotas[c];
  }
  std::stable_sort(remainders.begin(), remainders.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (std::size_t k = 0; given < size; ++k, ++given) ++quotas[remainders[k].second];
  return quotas;
}

std::vector<std::size_t> difficulty_bucket_coreset(const std::vector<int>& buckets, const std::vector<int>& labels, std::size_t size,
                                                   std::uint64_t seed) {
  if (buckets.size() != labels.size()) {
    throw InvalidArgument("buckets", "must have one value per label (" + std::to_string(labels.size()) + "), got " +
                                         std::to_string(buckets.size()));
  }
  require_size(size, labels.size());
  // members[class][bucket]: the examples, shuffled, so that removing from the back draws uniformly.
  std::map<int, std::map<int, std::vector<std::size_t>>> members;
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (buckets[i] < 0) throw InvalidArgument("buckets", "must be >= 0, got " + std::to_string(buckets[i]) + " at " + std::to_string(i));
    if (labels[i] < 0) throw InvalidArgument("labels", "must be >= 0, got " + std::to_string(labels[i]) + " at " + std::to_string(i));
    members[labels[i]][buckets[i]].push_back(i);
  }
  std::vector<std::size_t> counts;
  for (const auto& [label, by_bucket] : members) {
    std::size_t count = 0;
    for (const auto& [bucket, items] : by_bucket) count += items.size();
    counts.push_back(count);
  }
  const std::vector<std::size_t> quotas = class_quotas(counts, size);
  Rng rng(seed);
  std::vector<std::size_t> kept;
  std::size_t c = 0;
  for (auto& [label, by_bucket] : members) {
    for (auto& [bucket, items] : by_bucket) rng.shuffle(items);
    for (std::size_t count = counts[c]; count > quotas[c]; --count) {
      // The largest bucket; of equal ones the higher (map order is ascending, so >= keeps the last).
      std::vector<std::size_t>* largest = nullptr;
      for (auto& [bucket, items] : by_bucket) {
        if (largest == nullptr || items.size() >= largest->size()) largest = &items;
      }
      largest->pop_back();
    }
    for (const auto& [bucket, items] : by_bucket) kept.insert(kept.end(), items.begin(), items.end());
    ++c;
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

std::vector<std::size_t> top_score_coreset(const std::vector<double>& scores, std::size_t size, std::uint64_t seed) {
  for (std::size_t i = 0; i < scores.size(); ++i) {
    if (std::isnan(scores[i])) throw InvalidArgument("scores", "must not be NaN (example " + std::to_string(i) + ")");
  }
  require_size(size, scores.size());
  std::vector<std::size_t> order(scores.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng(seed).shuffle(order);  // ties in a seeded order
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  order.resize(size);
  std::sort(order.begin(), order.end());
  return order;
}

std::vector<std::size_t> random_coreset(std::size_t n, std::size_t size, std::uint64_t seed) {
  require_size(size, n);
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  Rng(seed).shuffle(order);
  order.resize(size);
  std::sort(order.begin(), order.end());
  return order;
}

}  // namespace geomsim
