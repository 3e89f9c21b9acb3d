// cuda_runtime.hpp against a libtorch built with CUDA: compiled only there (GEOMSIM_WITH_CUDA,
// CMakeLists.txt), so the CUDA runtime's and c10::cuda's headers are at hand.
#include "geomsim/train/data/cuda_runtime.hpp"

#include <ATen/Context.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <chrono>

namespace geomsim::train {

bool built_with_cuda() { return true; }

std::optional<DeviceMemory> cuda_memory(const c10::Device& device) {
  if (!device.is_cuda()) return std::nullopt;
  const c10::cuda::CUDAGuard guard(device.has_index() ? device.index() : c10::DeviceIndex{0});
  std::size_t free = 0, total = 0;
  C10_CUDA_CHECK(cudaMemGetInfo(&free, &total));
  return DeviceMemory{static_cast<double>(free), static_cast<double>(total)};
}

void use_deterministic_cuda_libraries(const c10::Device& device) {
  if (!device.is_cuda()) return;
  at::globalContext().setBenchmarkCuDNN(false);
  at::globalContext().setDeterministicCuDNN(true);
  at::globalContext().setDeterministicAlgorithms(true, /*warn_only=*/true);
}

struct DeviceTimer::State {
  c10::DeviceIndex index = -1;  // -1: the CPU
  cudaEvent_t start = nullptr, stop = nullptr;
  std::chrono::steady_clock::time_point clock_start;
};

DeviceTimer::DeviceTimer(const c10::Device& device) : state_(std::make_unique<State>()) {
  if (!device.is_cuda()) return;
  state_->index = device.has_index() ? device.index() : c10::DeviceIndex{0};
  const c10::cuda::CUDAGuard guard(state_->index);
  C10_CUDA_CHECK(cudaEventCreate(&state_->start));
  C10_CUDA_CHECK(cudaEventCreate(&state_->stop));
}

DeviceTimer::~DeviceTimer() {
  if (state_->index < 0) return;
  const c10::cuda::CUDAGuard guard(state_->index);
  cudaEventDestroy(state_->start);  // no check: a destructor must not throw
  cudaEventDestroy(state_->stop);
}

void DeviceTimer::start() {
  if (state_->index < 0) {
    state_->clock_start = std::chrono::steady_clock::now();
    return;
  }
  C10_CUDA_CHECK(cudaEventRecord(state_->start, c10::cuda::getCurrentCUDAStream(state_->index).stream()));
}

double DeviceTimer::stop() {
  if (state_->index < 0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - state_->clock_start).count();
  }
  C10_CUDA_CHECK(cudaEventRecord(state_->stop, c10::cuda::getCurrentCUDAStream(state_->index).stream()));
  C10_CUDA_CHECK(cudaEventSynchronize(state_->stop));
  float milliseconds = 0.0F;
  C10_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, state_->start, state_->stop));
  return static_cast<double>(milliseconds) / 1000.0;
}

}  // namespace geomsim::train
