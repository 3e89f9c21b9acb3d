// Riemannian trust regions: known optima (with the gradient-difference Hessian), the
// Appendix H problems (with the exact Hessian), and the two Hessian paths against each other.
#include <catch2/catch.hpp>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/objectives/pair_energy.hpp"
#include "geomsim/solvers/multi_start.hpp"
#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/solvers/trust_region_solver.hpp"

using namespace geomsim;

namespace {
// The same objective without its Hessian, so that the solver differences the gradient.
class WithoutHessian final : public Objective {
 public:
  explicit WithoutHessian(const Objective& inner) : inner_(inner) {}
  Index num_points() const override { return inner_.num_points(); }
  std::string name() const override { return inner_.name(); }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override { return inner_.evaluate(U); }
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> G) const override {
    return inner_.evaluate_with_gradient(U, G);
  }

 private:
  const Objective& inner_;
};
}  // namespace

TEST_CASE("Trust regions reach the Thomson optima for N = 4, 6, 12", "[rtr][solver]") {
  // Best-known Thomson energies (sum of 1/|u_i - u_j| over unordered pairs): tetrahedron,
  // octahedron, icosahedron. RieszEnergy has no exact Hessian: this runs the difference path.
  const auto [N, energy] = GENERATE(table<int, double>({{4, 3.674234614174767}, {6, 9.985281374238570},
                                                          {12, 49.165253058}}));
  const RieszEnergy thomson(N, 1.0);
  const auto result = multi_start(TrustRegionSolver(), thomson, 3, {0, 1, 2});
  CAPTURE(N, result.best().summary.brief_report());
  CHECK(result.best().summary.status == SolveStatus::kGradientToleranceReached);
  CHECK(result.best().summary.loss == Approx(energy).epsilon(1e-10));
}

TEST_CASE("Trust regions match the Appendix H optima and reach gtol", "[rtr][appendix_h]") {
  const auto [K, ny, d, alpha, expected] = GENERATE(table<int, int, int, double, double>(
      {{2, 20, 2, 0.7, -1.205008366846}, {2, 20, 2, 0.8, -0.882607047524}, {3, 8, 3, 0.64, -1.085008366846},
       {3, 8, 3, 0.8, -0.988956198310}}));
  SpreadProblem p{K, ny, d, alpha, 0.5};
  SolveSettings settings;
  settings.solver = "rtr";
  // At K = 3, alpha = 0.8 most starts end in a nearby local minimum (-0.988907); seeds 5, 6
  // and 16 of 0..19 find the best one.
  settings.seeds = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const auto s = solve_spread_problem(p, settings);
  CHECK(s.solver == "rtr");
  CHECK(s.loss == Approx(expected).margin(1e-11));
  for (const auto& run : s.runs) {
    INFO("seed " << run.seed << ": " << run.summary.brief_report());
    CHECK(run.summary.status == SolveStatus::kGradientToleranceReached);
  }
}

TEST_CASE("The exact and the difference Hessian lead to the same minimum", "[rtr][hessian]") {
  const SpreadLoss loss(balanced_labels(3, 10), 0.7, 0.5);
  const WithoutHessian differenced(loss);
  Matrix a = random_uniform_sphere(5, 30, 3), b = a;
  const auto exact = TrustRegionSolver().minimize(loss, a);
  const auto approx = TrustRegionSolver().minimize(differenced, b);
  CHECK(exact.status == SolveStatus::kGradientToleranceReached);
  CHECK(approx.converged());
  CHECK(approx.loss == Approx(exact.loss).margin(1e-11));
  // Tighter stationarity than L-BFGS reaches on the same problem.
  Matrix c = random_uniform_sphere(5, 30, 3);
  const auto lbfgs = RlbfgsSolver().minimize(loss, c);
  CHECK(exact.stationarity <= lbfgs.stationarity);
}
