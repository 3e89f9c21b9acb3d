// Benchmarks of the core: the default command's solve and the objective's throughput.
//
//   build/tests/benchmarks/geomsim_bench [--benchmark_filter=...]
//
// Each timing is set beside a baseline measured in the same run, as a counter:
//   vs_gemm   time of one objective+gradient / time of the N x N x d product U^T U by
//             the BLAS's dgemm (blas_gemm_seconds: best of 3, on the OpenMP threads; the
//             Gram matrix is the floor for any Gram-based evaluation); gemm_gflops is that
//             product's rate, and blas names the library that ran it. A vs_gemm below 1 (the
//             objective faster than one GEMM of its shape) cannot be an honest measurement:
//             the benchmark then sets measurement_fault = 1 and says so in its label;
//   vs_naive  time of one objective+gradient / time of the value alone by a plain
//             double loop over pairs (the textbook implementation; N <= 2400 only).
// (The BM_ThomsonEnergy baseline is such a loop for the Thomson energy.)
#include <benchmark/benchmark.h>
#include <cblas.h>
#include <dlfcn.h>
#include <omp.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/metrics/neural_collapse.hpp"
#include "geomsim/objectives/pair_energy.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/solvers/rlbfgs_solver.hpp"
#include "geomsim/solvers/solver_registry.hpp"

using namespace geomsim;

namespace {

// The seconds per call of f in each of `batches` timed batches, each of calls until 0.05 s.
template <class F>
std::vector<double> batch_seconds_per_call(F&& f, int batches) {
  std::vector<double> t;
  for (int rep = 0; rep < batches; ++rep) {
    int calls = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0.0;
    do {
      f();
      ++calls;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < 0.05);
    t.push_back(elapsed / calls);
  }
  return t;
}

template <class F>
double seconds_per_call(F&& f) {  // median of 5 timed batches
  std::vector<double> t = batch_seconds_per_call(f, 5);
  std::nth_element(t.begin(), t.begin() + 2, t.end());
  return t[2];
}

// The baseline: G = U^T U (N x N x d) by the BLAS's dgemm, best of 3 (each of the 3 a batch of
// calls of at least 0.05 s, so a small shape is timed over many calls and a large one once).
// The best, not the median: a GEMM cannot run faster than the machine allows, so the fastest
// of 3 is the one least disturbed by other work (one N x N x d GEMM measured 10.75 s in one
// run and 34.2 s in another at N = 5 10^4, d = 128, with Eigen's kernel on column panels).
// The N x N result of 8 N^2 bytes is not held at once beyond 512 MB (N > 8192; at N = 5 10^4 it
// would be 20 GB): it is computed in column panels as wide as 512 MB allows, each one dgemm call
// into the same buffer; the flops are the same. The BLAS is linked as the system's libblas.so.3
// (on Debian the alternative in use: here OpenBLAS, its OpenMP build, on the same threads).
double blas_gemm_seconds(const Matrix& U) {
  const Index N = U.cols(), d = U.rows();
  const Index width = std::min<Index>(N, std::max<Index>(256, (Index{1} << 26) / std::max<Index>(N, 1)));
  Matrix G(N, width);
  const auto product = [&] {
    for (Index c0 = 0; c0 < N; c0 += width) {
      const Index w = std::min(width, N - c0);
      cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, static_cast<int>(N), static_cast<int>(w),
                  static_cast<int>(d), 1.0, U.data(), static_cast<int>(d), U.col(c0).data(), static_cast<int>(d),
                  0.0, G.data(), static_cast<int>(N));
    }
    benchmark::DoNotOptimize(G.data());
  };
  const std::vector<double> t = batch_seconds_per_call(product, 3);
  return *std::min_element(t.begin(), t.end());
}

// The file of the library that holds cblas_dgemm, for the report.
std::string blas_library() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&cblas_dgemm), &info) == 0 || info.dli_fname == nullptr) return "unknown";
  char* resolved = realpath(info.dli_fname, nullptr);  // libblas.so.3 is a link to the alternative in use
  if (resolved == nullptr) return info.dli_fname;
  std::string out = resolved;
  std::free(resolved);
  return out;
}

// Sets vs_gemm, gemm_seconds and gemm_gflops beside an evaluation of `seconds`, and flags a
// ratio below 1 as a measurement fault (in the label, and measurement_fault = 1).
void report_against_gemm(benchmark::State& state, const Matrix& U, double seconds) {
  const double gemm = blas_gemm_seconds(U);
  const double n = static_cast<double>(U.cols()), d = static_cast<double>(U.rows());
  const double ratio = seconds / gemm;
  state.counters["gemm_seconds"] = gemm;
  state.counters["gemm_gflops"] = 2.0 * n * n * d / gemm * 1e-9;
  state.counters["vs_gemm"] = ratio;
  state.counters["measurement_fault"] = ratio < 1.0 ? 1.0 : 0.0;
  state.SetLabel(ratio < 1.0 ? "MEASUREMENT FAULT: vs_gemm < 1 (the objective faster than one GEMM of its shape); "
                               "rerun on a quieter machine; blas " + blas_library()
                             : "blas " + blas_library());
}

// eq. (39)-(40) by a direct double loop over pairs (value only).
double naive_loss(const Matrix& U, const std::vector<int>& h, int K, int ny, double alpha, double tau) {
  const Index N = U.cols();
  double first = 0, second = 0, third = 0;
  for (Index i = 0; i < N; ++i) {
    double neg = 0, pos = 0;
    for (Index j = 0; j < N; ++j) {
      const double d2 = (U.col(i) - U.col(j)).squaredNorm();
      if (h[static_cast<std::size_t>(i)] != h[static_cast<std::size_t>(j)]) {
        neg += std::exp(-d2 / (2 * tau));
      } else {
        pos += std::exp(-d2 / (2 * tau));
        third += d2 / (2 * tau);
      }
    }
    first += std::log(neg / ((K - 1) * ny));
    second += std::log(pos / ny);
  }
  const double n = static_cast<double>(N);
  return (1 - alpha) * first / n + alpha * second / n + (1 - alpha) * third / (K * ny * ny);
}

void BM_DefaultCommandSolve(benchmark::State& state) {
  // geomsim --K 3 --alpha 0.64 --tau 0.5: n_y = 8, d = 3, seeds 0-4 and 100 restarts, RLBFGS (the default).
  const int threads = static_cast<int>(state.range(0));
  const int saved = omp_get_max_threads();
  omp_set_num_threads(threads);
  SpreadProblem p;
  SolveSettings settings;
  for (auto _ : state) benchmark::DoNotOptimize(solve_spread_problem(p, settings).loss);
  omp_set_num_threads(saved);
  state.counters["threads"] = threads;
}

void BM_ObjectiveAndGradient(benchmark::State& state) {
  const int K = static_cast<int>(state.range(0));
  const int ny = static_cast<int>(state.range(1));
  const int d = static_cast<int>(state.range(2));
  const auto path = state.range(3) == 1 ? PairEvaluation::kStored
                    : state.range(3) == 2 ? PairEvaluation::kStreamed
                                          : PairEvaluation::kAuto;
  const auto labels = balanced_labels(K, ny);
  const SpreadLoss loss(labels, 0.7, 0.5, path);
  const Matrix U = random_uniform_sphere(d, K * ny, 1);
  Matrix G(d, K * ny);
  for (auto _ : state) benchmark::DoNotOptimize(loss.evaluate_with_gradient(U, G));
  const double per_eval = seconds_per_call([&] { benchmark::DoNotOptimize(loss.evaluate_with_gradient(U, G)); });
  state.SetItemsProcessed(state.iterations());
  state.counters["N"] = K * ny;
  state.counters["d"] = d;
  report_against_gemm(state, U, per_eval);
  if (K * ny <= 2400) {
    state.counters["vs_naive"] =
        per_eval / seconds_per_call([&] { benchmark::DoNotOptimize(naive_loss(U, labels, K, ny, 0.7, 0.5)); });
  }
}

// Peak resident memory of this process so far (VmHWM), in MB.
double peak_resident_mb() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  }
  return 0.0;
}

// The scale targets: objective + gradient at N = 10 n_y (K = 10), d = 128 on the automatic
// path, once, beside one N x N x d GEMM (blas_gemm_seconds) on the same threads, and the
// process's peak resident memory after the evaluation (run one size per process, e.g.
// --benchmark_filter='ObjectiveAndGradientLarge/5000', so that no other benchmark's memory
// counts; it includes the points and the gradient, 2 N d doubles).
void BM_ObjectiveAndGradientLarge(benchmark::State& state) {
  const int ny = static_cast<int>(state.range(0));
  const auto labels = balanced_labels(10, ny);
  const SpreadLoss loss(labels, 0.7, 0.5);
  const Matrix U = random_uniform_sphere(128, 10 * ny, 1);
  Matrix G(128, 10 * ny);
  double seconds = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(loss.evaluate_with_gradient(U, G));
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["peak_rss_mb"] = peak_resident_mb();
  state.counters["N"] = 10.0 * ny;
  state.counters["seconds"] = seconds;
  report_against_gemm(state, U, seconds);
  state.counters["threads"] = omp_get_max_threads();
}

// Solver by benchmark argument: 0 SLSQP, 1 RLBFGS, 2 trust regions; max_seconds caps the
// run (0: none).
std::unique_ptr<Solver> solver_by_index(std::int64_t index, double max_seconds) {
  static const char* const names[] = {"slsqp", "rlbfgs", "rtr"};
  return make_solver(names[index], max_seconds);
}

// The Thomson energy sum_{i<j} 1/|u_i - u_j| by a direct double loop (value only).
double naive_thomson(const Matrix& U) {
  double sum = 0.0;
  for (Index i = 0; i < U.cols(); ++i) {
    for (Index j = i + 1; j < U.cols(); ++j) sum += 1.0 / (U.col(i) - U.col(j)).norm();
  }
  return sum;
}

// The Thomson problem's energy and gradient (Riesz s = 1 on S^2) for N points.
void BM_ThomsonEnergy(benchmark::State& state) {
  const auto N = static_cast<Index>(state.range(0));
  const RieszEnergy energy(N, 1.0);
  const Matrix U = random_uniform_sphere(3, N, 1);
  Matrix G(3, N);
  for (auto _ : state) benchmark::DoNotOptimize(energy.evaluate_with_gradient(U, G));
  const double per_eval = seconds_per_call([&] { benchmark::DoNotOptimize(energy.evaluate_with_gradient(U, G)); });
  state.counters["N"] = static_cast<double>(N);
  if (N <= 2400) state.counters["vs_naive"] = per_eval / seconds_per_call([&] { benchmark::DoNotOptimize(naive_thomson(U)); });
}

// One seed of K classes of n_y points on S^{d-1} (tau 0.5) by the solver of the first benchmark
// argument, reporting what the time buys: the loss, the stationarity, the status.
void solve_once(benchmark::State& state, int K, int ny, int d, double alpha, double max_seconds) {
  const SpreadLoss loss(balanced_labels(K, ny), alpha, 0.5);
  const auto solver = solver_by_index(state.range(0), max_seconds);
  SolveSummary summary;
  for (auto _ : state) {
    Matrix U = random_uniform_sphere(d, K * ny, 0);
    summary = solver->minimize(loss, U);
  }
  state.SetLabel(solver->name() + " " + to_string(summary.status));
  state.counters["loss"] = summary.loss;
  state.counters["iterations"] = summary.iterations;
  state.counters["stationarity"] = summary.stationarity;
}

// A mid-size problem (K = 4, n_y = 8, d = 8: 256 variables) by each solver.
void BM_MidSizeSolve(benchmark::State& state) { solve_once(state, 4, 8, 8, 0.7, 0.0); }

// Time to converge for N = 2000, d = 32, K = 10 by RLBFGS (1) and trust regions (2), each
// capped at 120 s, at alpha = the second argument / 1000: 700 (the uniform regime; the
// issue names no alpha), 535 (inside the window (0.5263, 0.5412)) and 500 (collapsed). The
// label says whether it converged.
void BM_LargeSolve(benchmark::State& state) {
  solve_once(state, 10, 200, 32, static_cast<double>(state.range(1)) / 1000.0, 120.0);
}

// Wang & Isola's uniformity of N unit embeddings in d = 128 (N(N-1)/2 pairs, blocked): the
// pair rate, and its GEMM-equivalent rate (the Gram tiles' 2 d flops per pair).
void BM_Uniformity(benchmark::State& state) {
  const auto N = static_cast<Index>(state.range(0));
  const Matrix U = random_uniform_sphere(128, N, 1);
  for (auto _ : state) benchmark::DoNotOptimize(uniformity(U));
  const double pairs = static_cast<double>(N) * static_cast<double>(N - 1) / 2.0;
  state.counters["pairs_per_s"] = benchmark::Counter(pairs, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["gram_gflops"] = benchmark::Counter(pairs * 2.0 * 128 / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

// NC1, NC2 and NC4 of N embeddings in d = 128 with K = 100 classes.
void BM_NeuralCollapse(benchmark::State& state) {
  const auto N = static_cast<Index>(state.range(0));
  const Matrix U = random_uniform_sphere(128, N, 1);
  std::vector<int> labels(static_cast<std::size_t>(N));
  for (Index i = 0; i < N; ++i) labels[static_cast<std::size_t>(i)] = static_cast<int>(i % 100);
  for (auto _ : state) {
    benchmark::DoNotOptimize(neural_collapse(U, labels));
    benchmark::DoNotOptimize(nearest_class_mean_agreement(U, labels, labels));
  }
}

// This thread's CPU seconds: on a shared machine the wall clock also counts the time the
// thread waited for a core.
double thread_cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// A separable objective on (S^{d-1})^N of O(N d) cost, so that a solve's time is the solver's:
// f(U) = sum_i <a_i, u_i> + 1/2 sum_i u_i^T W u_i with W = diag(w), w log-spaced over [1, 100]
// (a Rayleigh quotient with a tilt per point: condition number 100, so that RLBFGS takes
// hundreds of iterations and its memory is full from the tenth on). It times its own
// evaluations, which the benchmark subtracts.
class SeparableQuadratic final : public Objective {
 public:
  SeparableQuadratic(int d, int N) : a_(0.5 * random_uniform_sphere(d, N, 7)), w_(d) {
    for (Index i = 0; i < d; ++i) w_(i) = std::pow(100.0, static_cast<double>(i) / static_cast<double>(d - 1));
  }
  Index num_points() const override { return a_.cols(); }
  std::string name() const override { return "separable_quadratic"; }
  double evaluate(const Eigen::Ref<const Matrix>& U) const override {
    return (a_.array() * U.array()).sum() + 0.5 * (U.array().square().colwise() * w_.array()).sum();
  }
  double evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> G) const override {
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    G.noalias() = a_ + w_.asDiagonal() * U;
    const double f = 0.5 * (U.array() * (a_.array() + G.array())).sum();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    cpu_seconds_ += thread_cpu_seconds() - cpu_start;
    return f;
  }
  double seconds() const { return seconds_; }
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  Matrix a_;
  Eigen::VectorXd w_;
  mutable double seconds_ = 0.0, cpu_seconds_ = 0.0;
};

// RLBFGS's own time per iteration at N points in d dimensions (memory 10, the default), on the
// separable objective above: the solve's time less its evaluations', over iterations 11-60 (the
// difference of a 60- and a 10-iteration solve from the same start, so that the memory is full
// and the set-up, whose first touch of 14 d x N matrices is the same in both, cancels). The
// solver runs on one thread: solver_cpu_ms_per_iteration is the same on that thread's CPU
// clock, which a busy machine disturbs less than the wall clock (the waits for a core).
void BM_RlbfgsIteration(benchmark::State& state) {
  const int N = static_cast<int>(state.range(0)), d = static_cast<int>(state.range(1));
  const Matrix U0 = random_uniform_sphere(d, N, 3);
  const auto solver_seconds = [&](int iterations, int& done, double& cpu) {
    RlbfgsSolver::Options options;
    options.max_iterations = iterations;
    options.gradient_tolerance = 0.0;
    options.ftol = 0.0;
    const SeparableQuadratic objective(d, N);
    Matrix U = U0;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = thread_cpu_seconds();
    const SolveSummary summary = RlbfgsSolver(options).minimize(objective, U);
    cpu = thread_cpu_seconds() - cpu_start - objective.cpu_seconds();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    done = summary.iterations;
    return seconds - objective.seconds();
  };
  double per_iteration = 0.0, cpu_per_iteration = 0.0;
  int short_run = 0, long_run = 0;
  for (auto _ : state) {
    double cpu_a = 0.0, cpu_b = 0.0;
    const double a = solver_seconds(10, short_run, cpu_a), b = solver_seconds(60, long_run, cpu_b);
    per_iteration = (b - a) / (long_run - short_run);
    cpu_per_iteration = (cpu_b - cpu_a) / (long_run - short_run);
  }
  state.counters["solver_ms_per_iteration"] = 1e3 * per_iteration;
  state.counters["solver_cpu_ms_per_iteration"] = 1e3 * cpu_per_iteration;
  state.counters["iterations"] = long_run;
  state.counters["N"] = N;
  state.counters["d"] = d;
}

}  // namespace

BENCHMARK(BM_Uniformity)->Arg(10000)->Arg(100000)->UseRealTime()->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_NeuralCollapse)->Arg(10000)->Arg(100000)->UseRealTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MidSizeSolve)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->Iterations(1);
BENCHMARK(BM_LargeSolve)
    ->Args({1, 700})
    ->Args({2, 700})
    ->Args({1, 535})
    ->Args({1, 500})
    ->Unit(benchmark::kSecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_RlbfgsIteration)
    ->Args({20000, 128})
    ->Args({2000, 32})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(1);
BENCHMARK(BM_DefaultCommandSolve)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
// N = 24, 240, 2400 at d = 3, 32, 128 (the foundation's sizes), N = 2000 at d = 32 (the large
// solve's, issue 50's portable-against-native target), then N = 100, 1000, 10000 at d = 128 (the
// scale targets; 10000 is issue 50's other).
BENCHMARK(BM_ObjectiveAndGradient)
    ->Args({3, 8, 3, 0})
    ->Args({10, 24, 32, 0})
    ->Args({10, 240, 128, 0})
    ->Args({10, 200, 32, 0})
    ->Args({10, 10, 128, 0})
    ->Args({10, 100, 128, 0})
    ->Args({10, 1000, 128, 0})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);
// Stored (1) against streamed (2) evaluation, for kAuto's switch.
BENCHMARK(BM_ObjectiveAndGradient)
    ->ArgsProduct({{8}, {64, 128, 256, 512, 1024}, {3, 32, 128}, {1, 2}})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_ObjectiveAndGradientLarge)->Arg(1000)->Arg(5000)->Iterations(1)->UseRealTime()->Unit(benchmark::kSecond);

BENCHMARK(BM_ThomsonEnergy)->Arg(2000)->Arg(10000)->UseRealTime()->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
