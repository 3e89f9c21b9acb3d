// cuda_kernels.hpp in a build without the CUDA kernels (no nvcc, or a libtorch without
// CUDA): the kernels are absent and their callers refuse to be asked for them.
#include <stdexcept>

#include "cuda_kernels.hpp"

namespace geomsim::train::detail {

bool cuda_kernels_built() { return false; }

torch::Tensor cuda_kernel_statistics(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, bool, double) {
  throw std::logic_error("this build has no contrastive CUDA kernels");
}

torch::Tensor cuda_kernel_gradient(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                                   const torch::Tensor&, double) {
  throw std::logic_error("this build has no contrastive CUDA kernels");
}

SpreadTileSums spread_tile_sums(const torch::Tensor&, const torch::Tensor&, const torch::Tensor&) {
  throw std::logic_error("this build has no CUDA kernels");
}

void spread_tile_coefficients(torch::Tensor&, const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                              const torch::Tensor&, const torch::Tensor&, const torch::Tensor&, const torch::Tensor&,
                              const torch::Tensor&) {
  throw std::logic_error("this build has no CUDA kernels");
}

}  // namespace geomsim::train::detail
