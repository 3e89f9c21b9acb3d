#pragma once
// Seeded, platform-independent random numbers.
//
// std::normal_distribution is implementation-defined, so the same seed could give
// different points with another standard library. Rng uses std::mt19937_64 (whose
// output sequence the C++ standard fixes) and does its own conversions, so a seed
// means the same point set everywhere.
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

namespace geomsim {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  // Uniform in [0, 1) with 53 random bits.
  double uniform();
  // Standard normal (Marsaglia's polar method).
  double normal();
  // Uniform in {0, ..., n - 1}, n >= 1, from uniform().
  std::size_t uniform_index(std::size_t n) { return static_cast<std::size_t>(uniform() * static_cast<double>(n)); }
  // Fisher-Yates with uniform(): the same permutation for a seed on every platform
  // (std::shuffle's is implementation-defined).
  template <class T>
  void shuffle(std::vector<T>& items) {
    for (std::size_t k = items.size(); k > 1; --k) std::swap(items[k - 1], items[uniform_index(k)]);
  }

 private:
  std::mt19937_64 engine_;
  bool has_spare_ = false;
  double spare_ = 0.0;
};

}  // namespace geomsim
