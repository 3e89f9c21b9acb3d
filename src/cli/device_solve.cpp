#include "device_solve.hpp"

#include <memory>

#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/losses/tensor_rlbfgs_solver.hpp"
#include "geomsim/train/losses/tensor_spread_objective.hpp"

namespace geomsim::cli {

int run_device_solve(const SolveOptions& options) {
  const c10::Device device = train::resolve_device(options.device);
  SolveOptions on_device = options;
  on_device.device = train::device_name(device);
  // RLBFGS keeps its state on a GPU beside the objective (issue 49: at N = 2e4, d = 128 the
  // Eigen solver's copies and host recursion cost 0.25 s an iteration against the objective's
  // 25-29 ms). On the CPU the Eigen solver stays: there the objective's tensors and the host's
  // matrices share the memory, and it is the default the core's results were measured with.
  const auto adapt = [device](const Solver& solver) -> std::unique_ptr<Solver> {
    const auto* rlbfgs = dynamic_cast<const RlbfgsSolver*>(&solver);
    if (device.is_cpu() || rlbfgs == nullptr) return nullptr;
    return std::make_unique<train::TensorRlbfgsSolver>(rlbfgs->options());
  };
  return run_solve(
      on_device,
      [device](const std::vector<int>& labels, double alpha, double tau) {
        return std::make_unique<train::TensorSpreadObjective>(labels, alpha, tau, device);
      },
      adapt);
}

}  // namespace geomsim::cli
