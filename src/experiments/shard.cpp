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

// A Slurm array variable as a whole number; `fallback` when unset (none: required).
long long slurm_variable(const char* name, std::optional<long long> fallback) {
  const char* value = std::getenv(name);
  if (value == nullptr) {
    if (fallback) return *fallback;
    throw InvalidArgument("shard", std::string("slurm needs the job array's ") + name + ", which is not set (--shard slurm is for "
                                   "the tasks of an sbatch --array job; elsewhere give i/n)");
  }
  const auto number = whole_number(value);
  if (!number) throw InvalidArgument("shard", std::string("slurm: ") + name + " must be a whole number, got '" + value + "'");
  return *number;
}

Shard slurm_shard() {
  const long long id = slurm_variable("SLURM_ARRAY_TASK_ID", std::nullopt);
  const long long count = slurm_variable("SLURM_ARRAY_TASK_COUNT", std::nullopt);
  const long long first = slurm_variable("SLURM_ARRAY_TASK_MIN", 0LL);
  const long long step = slurm_variable("SLURM_ARRAY_TASK_STEP", 1LL);
  if (count < 1 || step < 1 || id < first || (id - first) % step != 0 || (id - first) / step >= count || count > 1000000) {
    throw InvalidArgument("shard", "slurm: task " + std::to_string(id) + " of an array from " + std::to_string(first) + " in steps of " +
                                       std::to_string(step) + " with " + std::to_string(count) +
                                       " tasks is not one of its range's tasks (give the array as a range, e.g. --array=0-3)");
  }
  return {static_cast<int>((id - first) / step), static_cast<int>(count)};
}

}  // namespace

Shard parse_shard(const std::string& text) {
  if (text == "slurm") return slurm_shard();
  const auto slash = text.find('/');
  const auto index = slash == std::string::npos ? std::nullopt : whole_number(text.substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : whole_number(text.substr(slash + 1));
  if (!index || !count || *count < 1 || *index < 0 || *index >= *count || *count > 1000000) {
    throw InvalidArgument("shard", "must be i/n with 0 <= i < n <= 1000000, e.g. 0/4, or slurm (a job array task's), got '" + text + "'");
  }
  return {static_cast<int>(*index), static_cast<int>(*count)};
}

}  // namespace geomsim
