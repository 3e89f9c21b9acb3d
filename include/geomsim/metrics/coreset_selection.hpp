#pragma once
// Choosing a coreset (a subset of a labelled training set to train on) from per-example scores,
// as the coreset methods seed 000 compares (§5.4, Fig. 4 right) choose theirs:
//   difficulty_bucket_coreset  seed 000's own (Appendix E.3.3): "bucket points the training set
//                              by how often the point was correctly classified. To construct a
//                              coreset of size t%, we iteratively remove points from the largest
//                              bucket in each class."
//   top_score_coreset          the examples with the highest scores: forgetting events (Toneva et
//                              al.), GraNd and EL2N (Paul et al.), which keep the hardest examples
//   random_coreset             a uniform sample, the control
// Every method returns exactly `size` example indices, sorted ascending, and draws its ties from a
// seeded Rng (support/random.hpp), so a seed gives the same coreset on every platform.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace geomsim {

// Splits `size` examples over the classes in proportion to their counts (largest remainders,
// ties to the lower class): quotas[c] <= counts[c] and the quotas sum to `size`. Throws
// InvalidArgument("size") when size exceeds the counts' sum.
std::vector<std::size_t> class_quotas(const std::vector<std::size_t>& counts, std::size_t size);

// Seed 000's coreset. buckets[i] >= 0 is example i's bucket (how often it was classified
// correctly), labels[i] >= 0 its class. Each class keeps its class_quotas share of `size`: while
// it has more, one example is removed, drawn uniformly from its largest bucket (of equal ones,
// the higher bucket: the easier examples go first). So the largest coresets lose easy examples
// first, and the smallest keep every bucket at about the same size, easy ones included.
// Throws InvalidArgument naming "buckets" (a negative value, or a length other than the labels'),
// "labels" (a negative value) or "size" (more than the examples).
std::vector<std::size_t> difficulty_bucket_coreset(const std::vector<int>& buckets, const std::vector<int>& labels, std::size_t size,
                                                   std::uint64_t seed);

// The `size` examples with the highest scores; equal scores are ordered by a seeded shuffle.
// Throws InvalidArgument naming "scores" (a NaN) or "size" (more than the examples).
std::vector<std::size_t> top_score_coreset(const std::vector<double>& scores, std::size_t size, std::uint64_t seed);

// `size` of the n examples, uniformly. Throws InvalidArgument("size") when size > n.
std::vector<std::size_t> random_coreset(std::size_t n, std::size_t size, std::uint64_t seed);

}  // namespace geomsim
