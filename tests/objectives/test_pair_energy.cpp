// Riesz and Gaussian energies, and both solvers against their known minimisers.
#include <catch2/catch.hpp>
#include <cmath>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/objectives/gradient_check.hpp"
#include "geomsim/objectives/pair_energy.hpp"
#include "geomsim/solvers/multi_start.hpp"
#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/solvers/slsqp_solver.hpp"
#include "geomsim/support/errors.hpp"
#include "helpers.hpp"

using namespace geomsim;

namespace {

// The 12 vertices of the icosahedron, (0, +-1, +-phi) and its cyclic permutations.
Matrix icosahedron() {
  const double phi = (1 + std::sqrt(5.0)) / 2;
  Matrix v(3, 12);
  int k = 0;
  for (int a : {-1, 1}) {
    for (int b : {-1, 1}) {
      v.col(k++) << 0, a, b * phi;
      v.col(k++) << a, b * phi, 0;
      v.col(k++) << b * phi, 0, a;
    }
  }
  normalize_columns(v);
  return v;
}

double best_energy(const Solver& solver, const Objective& f, int d) {
  return multi_start(solver, f, d, {0, 1, 2, 3, 4}).best().summary.loss;
}

}  // namespace

TEST_CASE("Energy gradients agree with central finite differences", "[pair_energy][gradient]") {
  const Matrix U = random_uniform_sphere(4, 9, 3);
  const double s = GENERATE(0.0, 1.0, 2.5);
  CHECK(check_gradient(RieszEnergy(9, s), U, 1).relative_error < 1e-8);
  const double t = GENERATE(0.5, 2.0);
  CHECK(check_gradient(GaussianEnergy(9, t), U, 2).relative_error < 1e-8);
}

TEST_CASE("Both solvers reach the Thomson problem's known minima", "[pair_energy][solver]") {
  // Minimal Coulomb (s = 1) energies on S^2: tetrahedron, octahedron, icosahedron. The
  // first two are 6/sqrt(8/3) and 12/sqrt(2) + 3/2 in closed form; the icosahedron's
  // value is the standard tabulated one (e.g. the Cambridge Cluster Database).
  const auto [N, energy] = GENERATE(table<int, double>({{4, 3.674234614174767}, {6, 9.985281374238570},
                                                        {12, 49.165253057593916}}));
  const RieszEnergy f(N, 1.0);
  // The energies are O(10) and both solvers stop at relative changes ~1e-13.
  CHECK(best_energy(SlsqpSolver(), f, 3) == Approx(energy).epsilon(1e-11));
  CHECK(best_energy(RlbfgsSolver(), f, 3) == Approx(energy).epsilon(1e-11));
}

TEST_CASE("Both solvers find universally optimal configurations of the Gaussian energy", "[pair_energy][solver]") {
  const double t = GENERATE(0.5, 2.0);
  SECTION("the regular simplex, N = d + 1 = 5") {
    const GaussianEnergy f(5, t);
    const double expected = 10 * std::exp(-t * 2.0 * 5 / 4);  // |u - v|^2 = 2N/(N-1) for all 10 pairs
    CHECK(best_energy(SlsqpSolver(), f, 4) == Approx(expected).epsilon(1e-11));
    CHECK(best_energy(RlbfgsSolver(), f, 4) == Approx(expected).epsilon(1e-11));
  }
  SECTION("the cross-polytope, N = 2d = 8 in R^4") {
    const GaussianEnergy f(8, t);
    const double expected = 4 * std::exp(-4 * t) + 24 * std::exp(-2 * t);  // 4 antipodal pairs, 24 orthogonal
    CHECK(best_energy(SlsqpSolver(), f, 4) == Approx(expected).epsilon(1e-11));
    CHECK(best_energy(RlbfgsSolver(), f, 4) == Approx(expected).epsilon(1e-11));
  }
  SECTION("the icosahedron, N = 12 on S^2") {
    const GaussianEnergy f(12, t);
    const double expected = f.evaluate(icosahedron());
    CHECK(best_energy(SlsqpSolver(), f, 3) == Approx(expected).epsilon(1e-11));
    CHECK(best_energy(RlbfgsSolver(), f, 3) == Approx(expected).epsilon(1e-11));
  }
}

TEST_CASE("Energy parameters are validated", "[pair_energy][errors]") {
  CHECK_THROWS_AS(RieszEnergy(4, -1.0), InvalidArgument);
  CHECK_THROWS_AS(RieszEnergy(4, std::nan("")), InvalidArgument);
  CHECK_THROWS_AS(GaussianEnergy(4, 0.0), InvalidArgument);
  CHECK_THROWS_AS(GaussianEnergy(1, 1.0), InvalidArgument);
  CHECK(std::isinf(RieszEnergy(2, 1.0).evaluate(Matrix::Ones(3, 2))));  // coincident points
}

TEST_CASE("Blocked energies equal a direct pair loop beyond one block, for any thread count", "[pair_energy][determinism]") {
  // N = 700 spans three blocks of kBlock = 256 points (the last one partial).
  const Index N = 700;
  const Matrix U = random_uniform_sphere(3, N, 4);
  const auto direct = [&](auto phi) {  // sum over i < j of phi(|u_i - u_j|^2), in long double
    long double sum = 0;
    for (Index i = 0; i < N; ++i) {
      for (Index j = i + 1; j < N; ++j) sum += phi(static_cast<long double>((U.col(i) - U.col(j)).squaredNorm()));
    }
    return static_cast<double>(sum);
  };
  const RieszEnergy thomson(N, 1.0), log_energy(N, 0.0), riesz(N, 2.5);
  const GaussianEnergy gaussian(N, 2.0);
  CHECK(thomson.evaluate(U) == Approx(direct([](long double D) { return 1 / std::sqrt(D); })).epsilon(1e-12));
  CHECK(log_energy.evaluate(U) == Approx(direct([](long double D) { return -std::log(D) / 2; })).epsilon(1e-12));
  CHECK(riesz.evaluate(U) == Approx(direct([](long double D) { return std::pow(D, -1.25L); })).epsilon(1e-12));
  CHECK(gaussian.evaluate(U) == Approx(direct([](long double D) { return std::exp(-2 * D); })).epsilon(1e-12));
  CHECK(check_gradient(thomson, U, 5).relative_error < 1e-8);
  CHECK(check_gradient(gaussian, U, 6).relative_error < 1e-8);

  Matrix g1(3, N), g2(3, N);
  const double v1 = testing::with_threads(1, [&] { return thomson.evaluate_with_gradient(U, g1); });
  const double v2 = testing::with_threads(2, [&] { return thomson.evaluate_with_gradient(U, g2); });
  CHECK(v1 == v2);  // bitwise
  CHECK(g1 == g2);
}
