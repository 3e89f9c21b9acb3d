// RLBFGS's curvature pairs (issue 49): from 32 MB of pairs on, the solver keeps the inner
// products of its stored pairs and transports them inside the recursion's first pass; below, it
// runs the plain form. Here both are held to the plain form as geomsim ran it before issue 49
// (Manopt's rlbfgs): every stored vector projected onto each new tangent space after each step,
// then the two-loop recursion on the vectors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <memory>
#include <vector>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/solvers/rlbfgs_loop.hpp"
#include "geomsim/solvers/rlbfgs_solver.hpp"

using namespace geomsim;

namespace {

// f(U) = sum_i <a_i, u_i> + 1/2 sum_i u_i^T diag(w) u_i with w log-spaced over [1, 100]: cheap,
// so that N can exceed the solver's blocks of columns, and slow to converge (condition 100).
class SeparableQuadratic final : public Objective {
 public:
  SeparableQuadratic(int d, int N) : a_(0.5 * random_uniform_sphere(d, N, 7)), w_(d) {
    for (int i = 0; i < d; ++i) w_(i) = std::pow(100.0, static_cast<double>(i) / (d - 1));
  }
  Index num_points() const override { return a_.cols(); }
  std::string name() const override { return "separable_quadratic"; }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override {
    return (a_.array() * U.array()).sum() + 0.5 * (U.array().square().colwise() * w_.array()).sum();
  }
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> G) const override {
    G.noalias() = a_ + w_.asDiagonal() * U;
    return evaluate(U);
  }

 private:
  Matrix a_;
  Eigen::VectorXd w_;
};

// The solver's line-search test (solvers/rlbfgs_loop.hpp): Armijo's on the values, on the slopes
// where the values are lost to rounding.
using detail::sufficient_decrease;

struct Run {
  double loss = 0.0;
  int iterations = 0, evaluations = 0;
};

// RLBFGS as it was before issue 49, on vectors: `iterations` loop passes with the solver's
// start, line search, cautious update and restarts, no stopping test.
Run plain_rlbfgs(const Objective& objective, Matrix& U, int iterations, std::size_t memory = 10) {
  normalize_columns(U);
  Matrix G(U.rows(), U.cols());
  double f = objective.evaluate_with_gradient(U, G);
  Matrix g = project_to_tangent(U, G);
  std::deque<Matrix> S, Y;
  std::deque<double> rho;
  Run run;
  run.evaluations = 1;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    Matrix q = g;
    std::vector<double> a(S.size());
    for (std::size_t k = S.size(); k-- > 0;) {
      a[k] = rho[k] * inner(S[k], q);
      q -= a[k] * Y[k];
    }
    if (!S.empty()) q *= 1.0 / (rho.back() * Y.back().squaredNorm());
    for (std::size_t k = 0; k < S.size(); ++k) q += (a[k] - rho[k] * inner(Y[k], q)) * S[k];
    Matrix p = -q;
    double slope = inner(g, p);
    if (!(slope < 0.0)) {
      S.clear(), Y.clear(), rho.clear();
      p = -g;
      slope = -g.squaredNorm();
    }
    double t = S.empty() ? std::min(1.0, 0.1 / p.colwise().norm().maxCoeff()) : 1.0;
    Matrix U_next, G_next(U.rows(), U.cols());
    double f_next = 0.0;
    bool accepted = false;
    for (int backtrack = 0; backtrack < 60 && !accepted; ++backtrack) {
      retract_step(U, t, p, U_next);
      f_next = objective.evaluate_with_gradient(U_next, G_next);
      ++run.evaluations;
      accepted = sufficient_decrease(f, f_next, t, slope, [&] { return retraction_slope(U, t, p, G_next); });
      if (!accepted) t *= 0.5;
    }
    if (!accepted) {
      if (S.empty()) break;
      S.clear(), Y.clear(), rho.clear();
      continue;
    }
    ++run.iterations;
    const Matrix g_next = project_to_tangent(U_next, G_next);
    const Matrix s = project_to_tangent(U_next, t * p);
    const Matrix y = g_next - project_to_tangent(U_next, g);
    for (auto& v : S) project_onto_tangent(U_next, v);  // transport: every stored vector, every iteration
    for (auto& v : Y) project_onto_tangent(U_next, v);
    const double sy = inner(s, y);
    if (sy > 1e-10 * s.norm() * y.norm()) {
      if (S.size() == memory) S.pop_front(), Y.pop_front(), rho.pop_front();
      S.push_back(s), Y.push_back(y), rho.push_back(1.0 / sy);
    }
    U = U_next, G = G_next, g = g_next, f = f_next;
  }
  run.loss = f;
  return run;
}

}  // namespace

TEST_CASE("RLBFGS's iterates equal the plain two-loop recursion over transported vectors for 50 iterations",
          "[rlbfgs][solver]") {
  // The same algorithm in another order of sums, so the iterates agree to rounding, grown over
  // 50 iterations: 1e-10 is the tolerance (float64), about 1e5 times the rounding of one
  // iteration; the counts of iterations and evaluations agree exactly (no line-search decision flips).
  struct Case {
    const char* name;
    std::unique_ptr<Objective> objective;
    int d;
    std::uint64_t seed;
  };
  std::vector<Case> cases;
  // the worked example (geomsim --K 3 --alpha 0.64 --tau 0.5): d = 3, the unrolled columns
  cases.push_back({"worked example", std::make_unique<SpreadLoss>(balanced_labels(3, 8), 0.64, 0.5), 3, 0});
  // N = 2000, d = 32, K = 10 (the large benchmark's problem, collapsed regime)
  cases.push_back({"N = 2000", std::make_unique<SpreadLoss>(balanced_labels(10, 200), 0.5, 0.5), 32, 1});
  // the kept inner products (pairs of 36 MB and 34 MB, m = 10): N = 14000, d = 16, seven of the
  // solver's 2048-column blocks, the last one partial; N = 70000, d = 3, the short columns
  cases.push_back({"N = 14000", std::make_unique<SeparableQuadratic>(16, 14000), 16, 2});
  cases.push_back({"N = 70000", std::make_unique<SeparableQuadratic>(3, 70000), 3, 4});
  RlbfgsSolver::Options options;
  options.max_iterations = 50;
  options.gradient_tolerance = 0.0;  // no stopping test: 50 iterations
  options.ftol = 0.0;
  for (const auto& c : cases) {
    INFO(c.name);
    Matrix a = random_uniform_sphere(c.d, static_cast<int>(c.objective->num_points()), c.seed), b = a;
    const SolveSummary solved = RlbfgsSolver(options).minimize(*c.objective, a);
    const Run plain = plain_rlbfgs(*c.objective, b, 50);
    CHECK(solved.iterations == plain.iterations);
    CHECK(solved.evaluations == plain.evaluations);
    CHECK((a - b).cwiseAbs().maxCoeff() <= 1e-10);
    CHECK(solved.loss == Approx(plain.loss).margin(1e-12));
  }
}

TEST_CASE("RLBFGS's iterates equal the plain recursion's with memories of 1 and 3 pairs", "[rlbfgs][solver]") {
  // A full ring from the first or the third iteration on (the tolerance as above).
  const SpreadLoss loss(balanced_labels(3, 8), 0.64, 0.5);
  RlbfgsSolver::Options options;
  options.max_iterations = 50;
  options.gradient_tolerance = 0.0;
  options.ftol = 0.0;
  for (const int memory : {1, 3}) {
    INFO("memory " << memory);
    options.memory = memory;
    Matrix a = random_uniform_sphere(3, 24, 3), b = a;
    const SolveSummary solved = RlbfgsSolver(options).minimize(loss, a);
    const Run plain = plain_rlbfgs(loss, b, 50, static_cast<std::size_t>(memory));
    CHECK(solved.evaluations == plain.evaluations);
    CHECK((a - b).cwiseAbs().maxCoeff() <= 1e-10);
  }
}
