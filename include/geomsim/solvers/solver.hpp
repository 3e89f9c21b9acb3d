#pragma once
// The Solver interface: minimise an Objective over point sets on the unit sphere
// (every column of U has unit norm). Solvers take the same Objective, so multi-start,
// the CLI and the sweeps are written once for all of them.
//
// Every way a solve can end is a named SolveStatus with a message (Ceres-style): a
// caller never gets a silently bad result.
#include <string>
#include <utility>
#include <vector>

#include "geomsim/objectives/objective.hpp"

namespace geomsim {

enum class SolveStatus {
  kGradientToleranceReached,  // relative Riemannian gradient below gradient_tolerance
  kFunctionToleranceReached,  // relative change of f below ftol_rel
  kStepToleranceReached,      // relative change of x below xtol_rel
  kRoundoffLimited,           // no further progress possible in floating point
  kMaxEvaluationsReached,
  kMaxTimeReached,
  kStalled,                   // stopped, restarts exhausted, at a point that is not stationary
  kFailure,                   // the algorithm failed (message says why)
};

// "gtol", "ftol", "xtol", "roundoff", "max_evaluations", "max_time", "stalled", "failure".
std::string to_string(SolveStatus status);
// Whether the status means the solver stopped at a (local) optimum.
bool is_converged(SolveStatus status);

struct SolveSummary {
  double loss = 0.0;               // objective at the returned points, which lie exactly on the sphere
  int iterations = 0;              // major iterations of the algorithm
  int evaluations = 0;             // objective evaluations (with or without gradient)
  double constraint_violation = 0; // max | |u_i| - 1 | at the solver's final iterate, before projection
  double stationarity = 0.0;       // relative Riemannian gradient at the solution, see stationarity()
  int restarts = 0;                // restarts after a stop at a non-stationary point
  SolveStatus status = SolveStatus::kFailure;
  std::string message;             // the stop reason in words
  double seconds = 0.0;
  bool converged() const { return is_converged(status); }
  std::string brief_report() const;  // one line
};

class Solver {
 public:
  virtual ~Solver() = default;
  virtual std::string name() const = 0;
  // The solver's numeric settings by name, for reports (e.g. {"ftol_rel", 1e-13}).
  virtual std::vector<std::pair<std::string, double>> settings() const = 0;
  // Minimises `objective` starting from U (d x N, unit columns) and leaves the solution,
  // projected exactly onto the sphere, in U. Throws InvalidArgument when the problem is
  // outside what this solver can handle (e.g. too many variables).
  virtual SolveSummary minimize(const Objective& objective, Matrix& U) const = 0;
  // Bytes one minimize() call allocates for the solver's own state on N points in R^d (not
  // the objective's evaluations, nor its Hessian), so that a caller can check that a solve
  // fits before it starts (experiments/solve_memory.hpp).
  virtual double state_bytes(Index num_points, Index dim) const = 0;
  // Throws InvalidArgument when N points in R^d are beyond what this solver handles (before
  // any work; minimize() checks it too).
  virtual void require_supported_size(Index /*num_points*/, Index /*dim*/) const {}
  // Whether minimize() builds the objective's exact Hessian (Objective::hessian), whose
  // memory is the objective's to state.
  virtual bool uses_exact_hessian() const { return false; }
};

// First-order optimality on the product of spheres: |P G|_F / |G|_F, where G is the
// Euclidean gradient at the (unit-norm) points U and P projects each column onto the
// tangent space of its sphere. 0 at a critical point; O(1) far from one. (0 when G = 0.)
double stationarity(const Objective& objective, const Matrix& U);

}  // namespace geomsim
