// cuda_runtime.hpp against a libtorch built with CUDA: compiled only there (GEOMSIM_WITH_CUDA,
// CMakeLists.txt), so the CUDA runtime's and c10::cuda's headers are at hand.
#include "geomsim/train/data/cuda_runtime.hpp"

#include <ATen/Context.h>
#include <c10/cuda/CUDAException.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#include <cuda_runtime_api.h>

#include <algorithm>
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

struct PhaseTimer::State {
  c10::DeviceIndex index = -1;  // -1: the CPU
  std::vector<double> totals;   // milliseconds per phase (the CPU's; CUDA's are summed in take_ms)
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
  // CUDA: events[0, used) recorded in this order since the last take_ms; phase_of[i] is the phase
  // that events[i] ends (-1: a begin()). Created as needed and reused after take_ms.
  std::vector<cudaEvent_t> events;
  std::vector<int> phase_of;
  std::size_t used = 0;
};

PhaseTimer::PhaseTimer(const c10::Device& device, int phases) : state_(std::make_unique<State>()) {
  state_->totals.assign(static_cast<std::size_t>(std::max(phases, 0)), 0.0);
  if (device.is_cuda()) state_->index = device.has_index() ? device.index() : c10::DeviceIndex{0};
}

PhaseTimer::~PhaseTimer() {
  if (state_->events.empty()) return;
  const c10::cuda::CUDAGuard guard(state_->index);
  for (cudaEvent_t event : state_->events) cudaEventDestroy(event);  // no check: a destructor must not throw
}

void PhaseTimer::begin() { record(-1); }
void PhaseTimer::mark(int phase) { record(phase); }

void PhaseTimer::record(int phase) {
  State& s = *state_;
  if (s.index < 0) {
    const auto now = std::chrono::steady_clock::now();
    if (phase >= 0) s.totals[static_cast<std::size_t>(phase)] += std::chrono::duration<double, std::milli>(now - s.last).count();
    s.last = now;
    return;
  }
  if (s.used == s.events.size()) {
    const c10::cuda::CUDAGuard guard(s.index);  // the event belongs to the timer's device
    cudaEvent_t event = nullptr;
    C10_CUDA_CHECK(cudaEventCreate(&event));
    s.events.push_back(event);
    s.phase_of.push_back(-1);
  }
  s.phase_of[s.used] = phase;
  C10_CUDA_CHECK(cudaEventRecord(s.events[s.used], c10::cuda::getCurrentCUDAStream(s.index).stream()));
  ++s.used;
}

std::vector<double> PhaseTimer::take_ms() {
  State& s = *state_;
  std::vector<double> totals = s.totals;
  if (s.index >= 0 && s.used > 0) {
    const c10::cuda::CUDAGuard guard(s.index);
    C10_CUDA_CHECK(cudaEventSynchronize(s.events[s.used - 1]));
    for (std::size_t i = 1; i < s.used; ++i) {
      if (s.phase_of[i] < 0) continue;
      float milliseconds = 0.0F;
      C10_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, s.events[i - 1], s.events[i]));
      totals[static_cast<std::size_t>(s.phase_of[i])] += static_cast<double>(milliseconds);
    }
  }
  s.used = 0;
  std::fill(s.totals.begin(), s.totals.end(), 0.0);
  return totals;
}

}  // namespace geomsim::train
