// The contrastive tiles' public entry points: each calls the kernel compiled for the CPU level
// that geomsim::cpu_level() chose (support/cpu_level.hpp), or the one kernel of a build without
// dispatch.
#include "geomsim/objectives/contrastive_tiles.hpp"

#include "objectives/contrastive_tiles_kernel.hpp"

GEOMSIM_DECLARE_FOR_EACH_CPU_LEVEL(GEOMSIM_DECLARE_CONTRASTIVE_KERNELS)

namespace geomsim {

template <class T>
void contrastive_statistics(const ContrastiveRows<T>& rows, bool sup_terms, double* statistics) {
  GEOMSIM_CPU_DISPATCH_CALL(contrastive_statistics(rows, sup_terms, statistics))
}

template <class T>
void contrastive_gradient(const ContrastiveRows<T>& rows, const double* statistics, const double* weights, T* gradient) {
  GEOMSIM_CPU_DISPATCH_CALL(contrastive_gradient(rows, statistics, weights, gradient))
}

template void contrastive_statistics<float>(const ContrastiveRows<float>&, bool, double*);
template void contrastive_statistics<double>(const ContrastiveRows<double>&, bool, double*);
template void contrastive_gradient<float>(const ContrastiveRows<float>&, const double*, const double*, float*);
template void contrastive_gradient<double>(const ContrastiveRows<double>&, const double*, const double*, double*);

}  // namespace geomsim
