#include "geomsim/support/cpu_level.hpp"

#include <cstdlib>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {

constexpr CpuLevel kLevels[] = {CpuLevel::baseline, CpuLevel::avx2, CpuLevel::avx512};

struct Choice {
  CpuLevel level;
  bool forced;
};

Choice choose() {
  const char* forced = std::getenv("GEOMSIM_CPU");
  if (forced != nullptr && *forced != '\0') {  // set and empty: as unset
    const std::string name = forced;
    if (!cpu_dispatch_built()) {
      throw InvalidEnvironment("GEOMSIM_CPU", "is read by portable x86-64 builds only; this build compiles its kernels once, "
                                           "for its own flags (GEOMSIM_NATIVE=ON or not x86-64): unset it");
    }
    for (const CpuLevel level : kLevels) {
      if (name != cpu_level_name(level)) continue;
      if (!cpu_supports(level)) {
        throw InvalidEnvironment("GEOMSIM_CPU", "is " + name + ", which this CPU does not support; it supports " +
                                                 (cpu_supports(CpuLevel::avx2) ? "baseline and avx2" : "baseline only"));
      }
      return {level, true};
    }
    throw InvalidEnvironment("GEOMSIM_CPU", "must be baseline, avx2 or avx512 (or unset: the best this CPU has), got '" + name + "'");
  }
  if (!cpu_dispatch_built()) return {CpuLevel::build, false};
  CpuLevel best = CpuLevel::baseline;
  for (const CpuLevel level : kLevels) {
    if (cpu_supports(level)) best = level;
  }
  return {best, false};
}

const Choice& chosen() {
  static const Choice choice = choose();
  return choice;
}

}  // namespace

bool cpu_dispatch_built() {
#ifdef GEOMSIM_CPU_DISPATCH
  return true;
#else
  return false;
#endif
}

bool cpu_supports(CpuLevel level) {
  switch (level) {
    case CpuLevel::baseline:
    case CpuLevel::build:
      return true;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case CpuLevel::avx2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case CpuLevel::avx512:
      return cpu_supports(CpuLevel::avx2) && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
             __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512bw");
#endif
    default:
      return false;
  }
}

const char* cpu_level_name(CpuLevel level) {
  switch (level) {
    case CpuLevel::baseline: return "baseline";
    case CpuLevel::avx2: return "avx2";
    case CpuLevel::avx512: return "avx512";
    case CpuLevel::build: return "build";
  }
  return "";
}

CpuLevel cpu_level() { return chosen().level; }

std::string cpu_level_description() {
  const Choice& c = chosen();
  if (c.level == CpuLevel::build) return "build (the kernels compiled once, for this build's flags)";
  return std::string(cpu_level_name(c.level)) +
         (c.forced ? " (GEOMSIM_CPU)" : " (chosen at run time from baseline, avx2, avx512)");
}

}  // namespace geomsim
