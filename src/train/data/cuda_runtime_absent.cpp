// cuda_runtime.hpp for a libtorch without CUDA (or GEOMSIM_WITH_CUDA=OFF): no CUDA device can
// exist, so there is no CUDA memory to report and nothing to configure; timing uses the clock.
#include <algorithm>
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

struct PhaseTimer::State {
  std::vector<double> totals;  // milliseconds per phase
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

PhaseTimer::PhaseTimer(const c10::Device& /*device*/, int phases) : state_(std::make_unique<State>()) {
  state_->totals.assign(static_cast<std::size_t>(std::max(phases, 0)), 0.0);
}
PhaseTimer::~PhaseTimer() = default;
void PhaseTimer::begin() { record(-1); }
void PhaseTimer::mark(int phase) { record(phase); }
void PhaseTimer::record(int phase) {
  const auto now = std::chrono::steady_clock::now();
  if (phase >= 0) {
    state_->totals[static_cast<std::size_t>(phase)] += std::chrono::duration<double, std::milli>(now - state_->last).count();
  }
  state_->last = now;
}
std::vector<double> PhaseTimer::take_ms() {
  std::vector<double> totals = state_->totals;
  std::fill(state_->totals.begin(), state_->totals.end(), 0.0);
  return totals;
}

}  // namespace geomsim::train
