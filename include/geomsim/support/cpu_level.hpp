#pragma once
// The x86-64 level the run-time dispatched kernels run at. A portable build (GEOMSIM_NATIVE=OFF on
// x86-64) compiles each such kernel three times, for the baseline (SSE2), for AVX2 + FMA and for
// AVX-512 (F, VL, DQ, BW), and runs the highest this CPU supports; GEOMSIM_CPU=baseline|avx2|avx512
// forces one. Other builds compile each kernel once, for the build's own flags (-march=native
// with GEOMSIM_NATIVE=ON): their level is "build".
//
// A level decides the vector width of the kernels' arithmetic, so results may differ between
// levels in their last bits (docs/reference/solvers.md says which quantities); at one level
// they are bitwise the same for any number of threads.
#include <string>

namespace geomsim {

enum class CpuLevel { baseline, avx2, avx512, build };

// Whether this build compiles the dispatched kernels once per level.
bool cpu_dispatch_built();
// Whether this CPU can run a level (build: always).
bool cpu_supports(CpuLevel level);
const char* cpu_level_name(CpuLevel level);
// The level the kernels run at, chosen at the first call: GEOMSIM_CPU when set, else the highest
// this CPU supports. Throws InvalidEnvironment("GEOMSIM_CPU", ...) for a name that is not a level,
// a level this CPU lacks, or any value in a build without dispatch.
CpuLevel cpu_level();
// "avx512 (chosen at run time from baseline, avx2, avx512)", "avx2 (GEOMSIM_CPU)" or "build
// (compiled for this build's flags)": for --version and the JSON of a solve.
std::string cpu_level_description();

}  // namespace geomsim
