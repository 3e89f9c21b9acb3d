#include "sweep_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <set>

#include "cli_support.hpp"
#include "geomsim/experiments/sweep.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::cli {
namespace {

void write_atomically(const std::string& path, const std::string& content, const std::string& argument) {
  OutputTransaction out;
  out.stage(path, content, argument);
  out.commit();
}

}  // namespace

void add_sweep_options(CLI::App& command, SweepOptions& o) {
  command.add_option("--K", o.K, "numbers of classes K >= 2: a value, a list 2,3 or a range 2:6 (2:6:2 with a step)")->capture_default_str();
  command.add_option("--ny", o.ny, "points per class n_y >= 1 (values, list or range)")->capture_default_str();
  command.add_option("--d", o.d, "ambient dimensions d >= 2 (values, list or range; default: max(K, 2) for each K)");
  command.add_option("--alpha", o.alpha, "alpha values in [0, 1], e.g. 0.5:0.9:0.01 or 0.6,0.7")->capture_default_str();
  command.add_option("--tau", o.tau, "temperatures in [1/700, 1000] (values, list or range)")->capture_default_str();
  command.add_option("--seeds", o.seeds, "random starts per point, e.g. 0:4; the best run is kept")->capture_default_str();
  command.add_option("--solver", o.solver, solver_name_list(" or ", true) + " (as for the main command)")->capture_default_str();
  command.add_option("--restarts", o.restarts, restarts_help() + " (per point)")->check(at_least(0));
  command.add_option("--cluster-tol", o.cluster_tolerance, "atom tolerance of the geometry summary")->capture_default_str();
  command.add_option("--shard", o.shard, "run only shard i of n (points whose grid index is i mod n), e.g. 0/4; slurm: this job array task's")
      ->capture_default_str();
  command.add_option("--out", o.out, "the CSV to write; if it exists, its points are skipped (resume: it must hold the same "
                                     "--seeds, --solver, --restarts and --cluster-tol)")->required();
  command.footer("Whole-number lists (--K, --ny, --d, --seeds) take " + integer_list_forms() + "; real lists (--alpha, --tau) take " +
                 number_list_forms() + ". On a terminal, progress (points done/total, elapsed, ETA) is shown on stderr. "
                 "The lists may multiply to at most " + std::to_string(static_cast<long>(kMaxSweepPoints)) + " grid points.");
  command.add_flag("--quiet,-q", o.quiet, "no summary on stdout");
}

int run_sweep_command(const SweepOptions& o) {
  SweepGrid grid;
  grid.K = parse_integer_list(o.K, "K", 2, 100000);
  grid.ny = parse_integer_list(o.ny, "ny", 1, 1000000);
  grid.alpha = parse_number_list(o.alpha, "alpha");
  grid.tau = parse_number_list(o.tau, "tau");
  for (double a : grid.alpha) require_in_closed_range("alpha", a, 0.0, 1.0);
  for (double t : grid.tau) require_positive("tau", t);
  const Shard shard = parse_shard(o.shard);
  SolveSettings settings;
  settings.seeds = parse_seed_list(o.seeds, "seeds");
  settings.solver = o.solver;
  settings.restarts = o.restarts;
  settings.cluster_tolerance = o.cluster_tolerance;
  require_positive("cluster-tol", o.cluster_tolerance);
  const std::string seeds_text = format_seed_list(settings.seeds);

  std::vector<SweepPoint> points;
  if (o.d.empty()) {  // d = max(K, 2) for each K: one d per K
    SweepGrid counted = grid;
    counted.d = {0};
    require_sweep_size(counted);
    for (int K : grid.K) {
      SweepGrid one = grid;
      one.K = {K};
      one.d = {std::max(K, 2)};
      for (const auto& p : sweep_points(one)) points.push_back(p);
    }
  } else {
    grid.d = parse_integer_list(o.d, "d", 2, 1000000);
    points = sweep_points(grid);
  }
  points = shard_points(points, shard);
  // Check the solver name once, before any work.
  make_solver(settings.solver);
  require_distinct_files({{"out", o.out}});  // read (resume) and written: one file by design
  require_writable_path(o.out, "out");

  std::vector<SweepRow> done;
  if (std::filesystem::exists(o.out)) {
    done = read_sweep_csv(o.out, "out");
    require_same_settings(done, settings, seeds_text, o.out, "out");
  }
  std::set<std::string> done_keys;
  for (const auto& row : done) done_keys.insert(row.point.key());
  std::size_t already = 0;
  for (const auto& p : points) already += done_keys.count(p.key());

  const bool show_progress = isatty(fileno(stderr)) != 0;
  const auto start = std::chrono::steady_clock::now();
  auto last_save = start;
  std::vector<SweepRow> saved = done;  // everything written so far, for checkpoints
  const auto on_row = [&](const SweepRow& row, std::size_t completed, std::size_t total) {
    saved.push_back(row);
    const auto now = std::chrono::steady_clock::now();
    // Checkpoint at most once a second (atomically: an interrupted sweep leaves a whole file).
    if (now - last_save > std::chrono::seconds(1) || completed == total) {
      write_atomically(o.out, sweep_csv(saved), "out");
      last_save = now;
    }
    if (show_progress) {
      const double elapsed = std::chrono::duration<double>(now - start).count();
      // The points left at the mean rate so far (points differ in cost: an estimate, refined as rows land).
      const std::string eta = format_eta(elapsed, completed, total);
      std::fprintf(stderr, "\rgeomsim sweep: %zu/%zu points, %s, last %s -> %s     ", completed, total, eta.c_str(),
                   row.point.key().c_str(), row.geometry.c_str());
      std::fflush(stderr);
    }
  };
  const std::vector<SweepRow> rows = run_sweep(points, settings, seeds_text, done, on_row);
  if (show_progress) std::fprintf(stderr, "\n");
  write_atomically(o.out, sweep_csv(rows), "out");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!o.quiet) {
    std::cout << "geomsim sweep: " << points.size() << " points (shard " << shard.index << "/" << shard.count << "), "
              << already << " already in " << o.out << ", " << points.size() - already << " solved in "
              << fixed(seconds, 3) << " s; " << rows.size() << " rows written to " << o.out << "\n";
  }
  return 0;
}

void add_merge_options(CLI::App& command, MergeOptions& o) {
  command.add_option("inputs", o.inputs, "sweep CSVs (shards) to join")->required();
  command.add_option("--out", o.out, "the merged CSV, in grid order")->required();
}

int run_merge_command(const MergeOptions& o) {
  std::vector<NamedPath> files;
  for (const auto& path : o.inputs) files.push_back({"inputs", path});
  files.push_back({"out", o.out});
  require_distinct_files(files);
  require_writable_path(o.out, "out");
  std::vector<std::vector<SweepRow>> inputs;
  for (const auto& path : o.inputs) inputs.push_back(read_sweep_csv(path, "inputs"));
  const auto rows = merge_sweep_rows(inputs);
  write_atomically(o.out, sweep_csv(rows), "out");
  std::cout << "geomsim merge: " << rows.size() << " rows from " << o.inputs.size() << " files written to " << o.out << "\n";
  return 0;
}

}  // namespace geomsim::cli
