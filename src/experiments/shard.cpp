#include "geomsim/experiments/shard.hpp"

#include <charconv>
#include <cstdlib>
#include <optional>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

std::optional<long long> whole_number(const std::string& text) {
  long long value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size()) return std::nullopt;
  return value;
}

// Slurm's array indices are below its MaxArraySize, which is at most 4000001: a larger ID, MIN or
// STEP did not come from Slurm. Bounding every variable first keeps (ID - MIN) / STEP exact.
constexpr long long kMaxSlurmArrayIndex = 4000000;
// The most shards parse_shard takes ("i/n" with n <= this).
constexpr long long kMaxShards = 1000000;

// A Slurm array variable, a whole number in [lo, hi]; `fallback` when unset (none: required).
// Refused as the environment variable it is (InvalidEnvironment), saying --shard slurm read it.
long long slurm_variable(const char* name, std::optional<long long> fallback, long long lo, long long hi) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    if (fallback) return *fallback;
    throw InvalidEnvironment(name, "is not set, and --shard slurm needs it (Slurm sets it for the tasks of an sbatch "
                                   "--array job; elsewhere give --shard i/n)");
  }
  const auto number = whole_number(value);
  if (!number || *number < lo || *number > hi) {
    throw InvalidEnvironment(name, "must be a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                                       "] for --shard slurm, got '" + value + "'");
  }
  return *number;
}

Shard slurm_shard() {
  const long long id = slurm_variable("SLURM_ARRAY_TASK_ID", std::nullopt, 0, kMaxSlurmArrayIndex);
  const long long count = slurm_variable("SLURM_ARRAY_TASK_COUNT", std::nullopt, 1, kMaxShards);
  const long long first = slurm_variable("SLURM_ARRAY_TASK_MIN", 0LL, 0, kMaxSlurmArrayIndex);
  const long long step = slurm_variable("SLURM_ARRAY_TASK_STEP", 1LL, 1, kMaxSlurmArrayIndex);
  if (id < first || (id - first) % step != 0 || (id - first) / step >= count) {
    throw InvalidEnvironment("SLURM_ARRAY_TASK_ID", "= " + std::to_string(id) + " is not one of the tasks of an array from SLURM_ARRAY_TASK_MIN = " +
                                                        std::to_string(first) + " in steps of SLURM_ARRAY_TASK_STEP = " + std::to_string(step) +
                                                        " with SLURM_ARRAY_TASK_COUNT = " + std::to_string(count) +
                                                        " tasks (--shard slurm needs the array given as a range, e.g. --array=0-3)");
  }
  return {static_cast<int>((id - first) / step), static_cast<int>(count)};
}

}  // namespace

Shard parse_shard(const std::string& text) {
  if (text == "slurm") return slurm_shard();
  const auto slash = text.find('/');
  const auto index = slash == std::string::npos ? std::nullopt : whole_number(text.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *index < 0 || *index >= *count || *count > kMaxShards) {
    throw InvalidArgument("shard", "must be i/n with 0 <= i < n <= 1000000, e.g. 0/4, or slurm (a job array task's), got '" + text + "'");
  }
  return {static_cast<int>(*index), static_cast<int>(*count)};
}

}  // namespace geomsim
