#pragma once
// The entry points of the contrastive tiles' kernel (contrastive_tiles_kernel.cpp) in the
// namespace geomsim::LEVEL of one compilation of it. Internal header.
#include "geomsim/objectives/contrastive_tiles.hpp"
#include "support/cpu_dispatch.hpp"

#define GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(LEVEL)                                                              \
  namespace geomsim::LEVEL {                                                                                    \
  void contrastive_statistics(const ContrastiveRows<float>& rows, bool sup_terms, double* statistics);         \
  void contrastive_statistics(const ContrastiveRows<double>& rows, bool sup_terms, double* statistics);        \
  void contrastive_gradient(const ContrastiveRows<float>& rows, const double* statistics, const double* weights, \
                            float* gradient);                                                                  \
  void contrastive_gradient(const ContrastiveRows<double>& rows, const double* statistics, const double* weights, \
                            double* gradient);                                                                 \
  }

#ifdef GEOMSIM_CPU_NAMESPACE
GEOMSIM_DECLARE_CONTRASTIVE_KERNELS(GEOMSIM_CPU_NAMESPACE)
#endif
