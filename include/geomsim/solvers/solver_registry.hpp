#pragma once
// The registry of concrete solvers: the one place that knows every implementation of
// the Solver interface (solver.hpp), so that the interface itself stays free of them.
#include <memory>
#include <string>

#include "geomsim/solvers/solver.hpp"

namespace geomsim {

// The solvers the CLI can select by name: "slsqp" (the paper's method), "rlbfgs" (the
// manifold solver), or "auto": SLSQP up to kAutoSlsqpMaxVariables = N d variables (the
// paper's Appendix H problems have 72-80), RLBFGS beyond. Both reach the same best loss
// (to 7e-13 over 8 settings x 20 seeds), but SLSQP's O((N d)^3) iterations cost 4.7 s
// per seed at N d = 256 (K = 4, n_y = 8, d = 8) against 2.5 ms for RLBFGS.
// max_seconds > 0 caps the wall time of each minimize() call (the run then ends as
// kMaxTimeReached, with its stationarity reported); 0 leaves the solver's own limits.
// Throws InvalidArgument("solver") for an unknown name, ("max-seconds") for a negative cap.
constexpr Index kAutoSlsqpMaxVariables = 100;
std::unique_ptr<Solver> make_solver(const std::string& name, Index num_points, Index dim, double max_seconds = 0.0);

}  // namespace geomsim
