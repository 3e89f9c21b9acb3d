#include "geomsim/solvers/multi_start.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/support/thread_team.hpp"

namespace geomsim {
namespace {

// Runs `rounds` rounds. Round r: begin(r) on one thread returns the round's job count n;
// job(r, k) for k in [0, n), `concurrent` at a time; then end(r) on one thread. The first
// exception (jobs first, in order) is carried out after the round that raised it.
//
// All rounds share one thread team: between rounds the workers wait at a barrier, spinning
// for a while, instead of going to sleep at the end of a team and being woken for the next.
// On this 2-core virtual machine the other core, once idle, took milliseconds to come back:
// 25 OpenMP regions of a 20-ms restart phase cost a 2-thread run as much as one thread.
using RoundBegin = std::function<int(int)>;
using RoundJob = std::function<void(int, std::size_t)>;
using RoundEnd = std::function<void(int)>;
void run_rounds(int rounds, int concurrent, const RoundBegin& begin, const RoundJob& job, const RoundEnd& end) {
  std::vector<std::exception_ptr> errors;
  std::exception_ptr failure;
  bool failed = false;
  int count = 0;
  const auto guarded = [&](const auto& f) {
    try {
      f();
    } catch (...) {
      failure = std::current_exception();
      failed = true;
    }
  };
  const auto open_round = [&](int r) {
    guarded([&] { count = begin(r); });
    errors.assign(failed ? 0 : static_cast<std::size_t>(count), nullptr);
  };
  const auto run_job = [&](int r, int k) {
    try {
      job(r, static_cast<std::size_t>(k));
    } catch (...) {
      errors[static_cast<std::size_t>(k)] = std::current_exception();
    }
  };
  const auto close_round = [&](int r) {
    for (const auto& error : errors) {
      if (error) {
        failure = error;
        failed = true;
        return;
      }
    }
    guarded([&] { end(r); });
  };
  if (concurrent <= 1) {  // no team at all: the objective may use the threads inside
    for (int r = 0; r < rounds; ++r) {
      open_round(r);
      if (failed) break;
      for (int k = 0; k < count; ++k) run_job(r, k);
      close_round(r);
      if (failed) break;
    }
  } else {
    ThreadTeam team(concurrent);  // support/thread_team.hpp: why not an OpenMP region
    std::atomic<int> next{0};
    team.run([&](int slot) {
      for (int r = 0; r < rounds; ++r) {
        if (slot == 0) {
          open_round(r);
          next.store(0, std::memory_order_relaxed);
        }
        team.barrier();  // every thread sees count, errors and failed
        if (failed) break;
        for (int k = next.fetch_add(1); k < count; k = next.fetch_add(1)) run_job(r, k);
        team.barrier();
        if (slot == 0) close_round(r);
        team.barrier();
        if (failed) break;
      }
    });
  }
  if (failure) std::rethrow_exception(failure);
}

// The start of restart r, from its own random stream. Restarts cycle through four kinds: a
// fresh uniform start (r even); every point of the incumbent turned along a random tangent
// direction by an angle of 1/3, 1 or 3 times `perturbation` (r = 1 mod 4), which explores
// neighbouring basins; and a few points (1, 2, ... up to N/4, cycling) moved to fresh uniform
// places (r = 3 mod 4), which moves points between atoms. At K = 2, n_y = 8, d = 2,
// alpha = 0.81, 4 % of fresh starts reach the lowest basin and no turn of the 4+4 atoms did.
Matrix restart_point(const Matrix& U, int restart, double perturbation) {
  Rng rng(0x5eedba5e00000000ULL + static_cast<std::uint64_t>(restart));
  const auto gaussian = [&](Index rows, Index cols) { return random_gaussian(rows, cols, rng); };
  if (restart % 2 == 0) return gaussian(U.rows(), U.cols()).colwise().normalized();
  if (restart % 4 == 3) {
    const Index most = std::max<Index>(1, U.cols() / 4);
    const Index moved = 1 + static_cast<Index>(restart / 4) % most;
    Matrix out = U;
    for (Index k = 0; k < moved; ++k) {
      const auto i = static_cast<Index>(rng.uniform_index(static_cast<std::size_t>(U.cols())));
      out.col(i) = gaussian(U.rows(), 1).normalized();
    }
    return out;
  }
  static const double factors[] = {1.0 / 3.0, 1.0, 3.0};
  const double angle = perturbation * factors[(restart / 4) % 3];
  const Matrix step = project_to_tangent(U, gaussian(U.rows(), U.cols()));
  const double typical = std::sqrt(static_cast<double>(std::max<Index>(U.rows() - 1, 1)));
  return retract(U, (angle / typical) * step);
}

}  // namespace

std::size_t count_starts(const std::vector<MultiStartRun>& runs) {
  return static_cast<std::size_t>(std::count_if(runs.begin(), runs.end(), [](const MultiStartRun& r) { return !r.polish; }));
}

int concurrent_seeds(Index num_points, std::size_t seeds, int threads) {
  if (omp_in_parallel() || threads <= 1 || seeds <= 1) return 1;
  const bool busy_inside = num_points >= kObjectiveParallelPoints;
  if (busy_inside && seeds < static_cast<std::size_t>(kSeedsPerThread) * static_cast<std::size_t>(threads)) return 1;
  return static_cast<int>(std::min<std::size_t>(seeds, static_cast<std::size_t>(threads)));
}

MultiStartResult multi_start(const Solver& solver, const Objective& objective, int dim,
                             const std::vector<std::uint64_t>& seeds, const MultiStartOptions& options) {
  if (seeds.empty()) throw InvalidArgument("seeds", "must name at least one seed");
  require_at_least("restarts", options.restarts, 0);
  require_positive("perturbation", options.perturbation);
  const auto start = std::chrono::steady_clock::now();
  const int threads = std::max(omp_get_max_threads(), 1);
  std::vector<Matrix> solutions(seeds.size());
  std::vector<MultiStartRun> runs(seeds.size());
  run_rounds(
      1, concurrent_seeds(objective.num_points(), seeds.size(), threads),
      [&](int) { return static_cast<int>(seeds.size()); },
      [&](int, std::size_t s) {
        // Each run works on a matrix of its own and moves it into place at the end: neighbouring
        // elements of a shared vector would put two threads' iterates in one cache line.
        Matrix U = random_uniform_sphere(dim, objective.num_points(), seeds[s]);
        runs[s].seed = seeds[s];
        runs[s].summary = solver.minimize(objective, U);
        solutions[s] = std::move(U);
      },
      [](int) {});

  MultiStartResult result;
  bool found = false;
  for (std::size_t s = 0; s < runs.size(); ++s) {
    const double loss = runs[s].summary.loss;
    if (std::isfinite(loss) && (!found || loss < runs[result.best_run].summary.loss)) {
      result.best_run = s;
      found = true;
    }
  }
  if (!found) throw std::runtime_error("multi_start: every run failed: " + runs.front().summary.message);
  result.points = std::move(solutions[result.best_run]);
  result.seed_runs = runs.size();

  // Restarts, a batch from the same incumbent at a time.
  const Solver& restart_solver = options.restart_solver != nullptr ? *options.restart_solver : solver;
  std::vector<Matrix> trial;
  std::vector<MultiStartRun> trial_runs;
  std::uint64_t incumbent_seed = 0;
  const auto begin_batch = [&](int round) {
    const int batch = std::min(kRestartBatch, options.restarts - round * kRestartBatch);
    trial.assign(static_cast<std::size_t>(batch), Matrix());
    trial_runs.assign(static_cast<std::size_t>(batch), MultiStartRun());
    incumbent_seed = runs[result.best_run].seed;
    return batch;
  };
  const auto run_restart = [&](int round, std::size_t b) {
    const int restart = round * kRestartBatch + static_cast<int>(b);
    Matrix U = restart_point(result.points, restart, options.perturbation);  // own matrix, as the seeds'
    trial_runs[b].seed = incumbent_seed;
    trial_runs[b].restart = restart;
    trial_runs[b].summary = restart_solver.minimize(objective, U);
    trial[b] = std::move(U);
  };
  const auto merge_batch = [&](int) {
    for (std::size_t b = 0; b < trial.size(); ++b) {
      runs.push_back(trial_runs[b]);
      const double best = runs[result.best_run].summary.loss, loss = trial_runs[b].summary.loss;
      // Lower by more than rounding: the same minimum reached again does not count.
      if (!std::isfinite(loss) || loss >= best - 1e-13 * std::max(1.0, std::abs(best))) continue;
      result.best_run = runs.size() - 1;
      result.points = std::move(trial[b]);
      ++result.improvements;
      // A restart's solver may stop on a looser test than the seeds' (the screen of
      // make_restart_solver stops at stationarity 1e-4): the seeds' solver finishes the new
      // incumbent from its end, so the later restarts are held against a finished minimum.
      if (&restart_solver == &solver) continue;
      Matrix polished = result.points;
      MultiStartRun polish = runs[result.best_run];
      polish.polish = true;
      polish.summary = solver.minimize(objective, polished);
      runs.push_back(polish);
      if (std::isfinite(polish.summary.loss) && polish.summary.loss <= loss) {
        result.best_run = runs.size() - 1;
        result.points = std::move(polished);
      }
    }
  };
  const int rounds = (options.restarts + kRestartBatch - 1) / kRestartBatch;
  const auto batch_size = static_cast<std::size_t>(std::min(options.restarts, kRestartBatch));
  run_rounds(rounds, concurrent_seeds(objective.num_points(), batch_size, threads),
             begin_batch, run_restart, merge_batch);
  result.runs = std::move(runs);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  result.threads = threads;
  return result;
}

}  // namespace geomsim
