#include "device_solve.hpp"

#include <memory>

#include "geomsim/train/data/device.hpp"
#include "geomsim/train/losses/tensor_spread_objective.hpp"

namespace geomsim::cli {

int run_device_solve(const SolveOptions& options) {
  const c10::Device device = train::resolve_device(options.device);
  SolveOptions on_device = options;
  on_device.device = train::device_name(device);
  return run_solve(on_device, [device](const std::vector<int>& labels, double alpha, double tau) {
    return std::make_unique<train::TensorSpreadObjective>(labels, alpha, tau, device);
  });
}

}  // namespace geomsim::cli
