#pragma once
// How a kernel compiled once per CPU level (support/cpu_level.hpp; CMakeLists.txt:
// geomsim_cpu_kernel) exports its entry points, and how its dispatcher calls the level that
// cpu_level() chose. Internal header.
//
// A kernel file puts its code in the namespace geomsim::GEOMSIM_CPU_NAMESPACE and marks its entry
// points GEOMSIM_CPU_KERNEL_EXPORT: everything else a compilation emits is hidden and then made
// local to it. Its header declares the entry points for a level with a macro,
// GEOMSIM_DECLARE_..._KERNELS(LEVEL); the dispatcher declares them for every level the build
// compiles (GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL) and calls one with GEOMSIM_CPU_DISPATCH_CALL.
#include "geomsim/support/cpu_level.hpp"

#define GEOMSIM_CPU_KERNEL_EXPORT __attribute__((visibility("default")))

#ifdef GEOMSIM_CPU_DISPATCH
#define GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL(DECLARE) \
  DECLARE(cpu_baseline)                             \
  DECLARE(cpu_avx2)                                 \
  DECLARE(cpu_avx512)
// return geomsim::cpu_LEVEL::CALL for the level cpu_level() chose.
#define GEOMSIM_CPU_DISPATCH_CALL(CALL)                       \
  switch (::geomsim::cpu_level()) {                           \
    case ::geomsim::CpuLevel::avx512: return cpu_avx512::CALL; \
    case ::geomsim::CpuLevel::avx2: return cpu_avx2::CALL;     \
    default: return cpu_baseline::CALL;                       \
  }
#else
#define GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL(DECLARE) DECLARE(cpu_build)
#define GEOMSIM_CPU_DISPATCH_CALL(CALL) \
  ::geomsim::cpu_level();               \
  return cpu_build::CALL;
#endif
