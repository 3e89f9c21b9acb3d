#include "geomsim/train/data/device_memory.hpp"

#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/data/cuda_runtime.hpp"

namespace geomsim::train {

void require_device_memory(const c10::Device& device, double bytes, const std::string& what, const std::string& argument) {
  if (const auto memory = cuda_memory(device)) {
    if (bytes > memory->free_bytes) {
      throw InvalidArgument(argument, what + " needs " + format_bytes(bytes) + " on " + device.str() + ", which has " +
                                          format_bytes(memory->free_bytes) + " free of " +
                                          format_bytes(memory->total_bytes));
    }
    return;
  }
  if (device.is_cpu()) require_memory(argument, bytes, what);
}

}  // namespace geomsim::train
