#pragma once
// What only a libtorch built with CUDA can do. The CMake option GEOMSIM_WITH_CUDA (AUTO: when
// the libtorch found has CUDA) picks one of two implementations: cuda_runtime.cpp, compiled
// only against a CUDA libtorch (it includes the CUDA runtime's and c10::cuda's headers), or
// cuda_runtime_absent.cpp, where no CUDA device can exist and every call says so.
#include <c10/core/Device.h>

#include <memory>
#include <optional>
#include <vector>

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

// The time of consecutive phases of work queued on a device, for profiling a loop: begin()
// starts the first phase, and each mark(k) ends the phase running since the previous mark (or
// begin()) and counts its time to phase k, so that the phases between begin() and the last mark
// tile that stretch. On a CUDA device a mark records an event on the device's current stream (no
// host wait; the events of a run are kept, one per mark); on the CPU, whose work is done when a
// call returns, it reads the steady clock.
class PhaseTimer {
 public:
  PhaseTimer(const c10::Device& device, int phases);
  ~PhaseTimer();
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  void begin();
  void mark(int phase);  // 0 <= phase < phases (unchecked: it is called in the hot loop)
  // Milliseconds per phase since the last take() (or construction); on CUDA waits once for the
  // device to reach the last mark. Then forgets the marks: the next phase starts at begin().
  std::vector<double> take_ms();

 private:
  void record(int phase);  // phase -1: begin()
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace geomsim::train
