#pragma once
// Steps shared by the two manifold solvers (RlbfgsSolver, TrustRegionSolver): the start,
// the stopping tests at the top of each iteration, and the final report. Internal header.
#include "geomsim/solvers/rlbfgs_loop.hpp"
#include "geomsim/solvers/solver.hpp"

namespace geomsim::detail {

// The iterate's value, Euclidean gradient G and Riemannian gradient g = P_U G.
struct FirstOrder {
  double f = 0.0;
  Matrix G, g;
};

// Checks that U has one column per point of the objective, puts every column on the sphere,
// and evaluates there (one evaluation).
FirstOrder start_on_sphere(const Objective& objective, Matrix& U);

// The tests every iteration begins with: a non-finite value or gradient (kFailure), the
// relative Riemannian gradient |g| <= gradient_tolerance |G| (kGradientToleranceReached),
// and the time budget (kMaxTimeReached, when max_seconds > 0). Returns true, with the
// summary's status and message set, when the solver must stop.
bool should_stop(double f, const Matrix& g, const Matrix& G, double gradient_tolerance, double max_seconds,
                 double elapsed_seconds, SolveSummary& summary);

// LossChangeTest, and the scalar forms of the tests below: solvers/rlbfgs_loop.hpp.

// Fills the summary's loss, stationarity and constraint violation, and turns a converged
// status other than gtol at a point less stationary than stationarity_tolerance into kStalled.
void finish(double f, const Matrix& U, const Matrix& g, const Matrix& G, double stationarity_tolerance,
            SolveSummary& summary);

}  // namespace geomsim::detail
