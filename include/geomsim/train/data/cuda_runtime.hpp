#pragma once
// What only a libtorch built with CUDA can do. The CMake option GEOMSIM_WITH_CUDA (AUTO: when
// the libtorch found has CUDA) picks one of two implementations: cuda_runtime.cpp, compiled
// only against a CUDA libtorch (it includes the CUDA runtime's and c10::cuda's headers), or
// cuda_runtime_absent.cpp, where no CUDA device can exist and every call says so.
#include <c10/core/Device.h>

#include <memory>
#include <optional>

namespace geomsim::train {

// Whether this geomsim was compiled against a libtorch with CUDA (not whether a GPU is visible).
bool built_with_cuda();

struct DeviceMemory {
  double free_bytes = 0.0;
  double total_bytes = 0.0;
};
// A CUDA device's free and total memory (cudaMemGetInfo), counting what libtorch's caching
// allocator holds but does not use as free. nullopt for any other device.
std::optional<DeviceMemory> cuda_memory(const c10::Device& device);

// The reproducibility settings for a training run on `device`: cuDNN picks deterministic
// algorithms and does not autotune (benchmark mode off), and libtorch takes the deterministic
// implementation of every operation that has one (index_add, attention's backward, ...; the
// others warn), so that two runs, or a run and its resume, do the same arithmetic. cuBLAS is
// deterministic only with CUBLAS_WORKSPACE_CONFIG=:4096:8 (or :16:8) in the environment before
// the first CUDA call; train_encoder calls this for CUDA runs. A no-op for the CPU.
void use_deterministic_cuda_libraries(const c10::Device& device);

// Elapsed time of work queued on a device: CUDA events on the device's current stream (no host
// wait until stop()), the steady clock on the CPU.
class DeviceTimer {
 public:
  explicit DeviceTimer(const c10::Device& device);
  ~DeviceTimer();
  DeviceTimer(const DeviceTimer&) = delete;
  DeviceTimer& operator=(const DeviceTimer&) = delete;
  void start();
  // Seconds since start(), once the device has finished the work queued in between.
  double stop();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace geomsim::train
