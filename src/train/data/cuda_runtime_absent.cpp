// cuda_runtime.hpp for a libtorch without CUDA (or GEOMSIM_WITH_CUDA=OFF): no CUDA device can
// exist, so there is no CUDA memory to report and nothing to configure; timing uses the clock.
#include <chrono>

#include "geomsim/train/data/cuda_runtime.hpp"

namespace geomsim::train {

bool built_with_cuda() { return false; }

std::optional<DeviceMemory> cuda_memory(const c10::Device& /*device*/) { return std::nullopt; }

void use_deterministic_cuda_libraries(const c10::Device& /*device*/) {}

struct DeviceTimer::State {
  std::chrono::steady_clock::time_point start;
};

DeviceTimer::DeviceTimer(const c10::Device& /*device*/) : state_(std::make_unique<State>()) {}
DeviceTimer::~DeviceTimer() = default;
void DeviceTimer::start() { state_->start = std::chrono::steady_clock::now(); }
double DeviceTimer::stop() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - state_->start).count();
}

}  // namespace geomsim::train
