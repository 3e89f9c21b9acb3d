// The contrastive tiles' public entry points: each calls the kernel compiled for the CPU level
// that geomsim::cpu_level() chose (support/cpu_level.hpp), or the one kernel of a build without
// dispatch.
#include "geomsim/objectives/contrastive_tiles.hpp"

#include "geomsim/support/cpu_level.hpp"
#include "objectives/contrastive_tiles_kernel.hpp"

#ifdef GEOMSIM_CPU_DISPATCH
GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(cpu_baseline)
GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(cpu_avx2)
GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(cpu_avx512)
#else
GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(cpu_build)
#endif

namespace geomsim {
namespace {

// f(the kernel namespace's function) for the chosen level.
#ifdef GEOMSIM_CPU_DISPATCH
#define GEOMSIM_DISPATCH(CALL)                    \
  switch (cpu_level()) {                          \
    case CpuLevel::avx512: return cpu_avx512::CALL; \
    case CpuLevel::avx2: return cpu_avx2::CALL;     \
    default: return cpu_baseline::CALL;             \
  }
#else
#define GEOMSIM_DISPATCH(CALL) \
  cpu_level();                 \
  return cpu_build::CALL;
#endif

}  // namespace

template <class T>
void contrastive_statistics(const ContrastiveRows<T>& rows, bool sup_terms, double* statistics) {
  GEOMSIM_DISPATCH(contrastive_statistics(rows, sup_terms, statistics))
}

template <class T>
void contrastive_gradient(const ContrastiveRows<T>& rows, const double* statistics, const double* weights, T* gradient) {
  GEOMSIM_DISPATCH(contrastive_gradient(rows, statistics, weights, gradient))
}

#undef GEOMSIM_DISPATCH

template void contrastive_statistics<float>(const ContrastiveRows<float>&, bool, double*);
template void contrastive_statistics<double>(const ContrastiveRows<double>&, bool, double*);
template void contrastive_gradient<float>(const ContrastiveRows<float>&, const double*, const double*, float*);
template void contrastive_gradient<double>(const ContrastiveRows<double>&, const double*, const double*, double*);

}  // namespace geomsim
