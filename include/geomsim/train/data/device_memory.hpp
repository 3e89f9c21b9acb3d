#pragma once
// Memory checks before a computation allocates on a device: the machine's memory for the CPU
// (support/memory_budget.hpp), the device's free memory for CUDA (cuda_runtime.hpp).
#include <c10/core/Device.h>

#include <string>

namespace geomsim::train {

// Throws InvalidArgument (naming `argument`, the option that sets the size, and what needs the
// bytes) when `bytes` exceed what `device` has available.
void require_device_memory(const c10::Device& device, double bytes, const std::string& what,
                           const std::string& argument = "points");

}  // namespace geomsim::train
