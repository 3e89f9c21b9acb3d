// Sweeps: grid order, shards, resume, CSV round trip, merge, and thread-count independence.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <cstdlib>
#include <set>

#include "geomsim/experiments/sweep.hpp"
#include "geomsim/support/errors.hpp"
#include "helpers.hpp"
#include "scratch_folder.hpp"

using namespace geomsim;

namespace {
SweepGrid small_grid() {
  SweepGrid grid;
  grid.K = {2, 3};
  grid.ny = {4};
  grid.d = {3};
  grid.tau = {0.5};
  grid.alpha = {0.5, 0.7, 0.9};
  return grid;
}
SolveSettings quick() {
  SolveSettings s;
  s.seeds = {0, 1};
  s.solver = "rlbfgs";
  return s;
}
std::string without_seconds(std::string csv) {
  // The last column is the wall time; everything else must be reproducible.
  std::string out;
  std::size_t start = 0;
  while (start < csv.size()) {
    const std::size_t end = csv.find('\n', start);
    const std::string line = csv.substr(start, end - start);
    out += line.substr(0, line.rfind(',')) + "\n";
    start = end + 1;
  }
  return out;
}
}  // namespace

TEST_CASE("A shard is i/n, or a Slurm array task's, and refuses what does not fit by name", "[sweep][shard]") {
  const Shard two = parse_shard("2/5");
  CHECK((two.index == 2 && two.count == 5));
  CHECK((two.contains(7) && !two.contains(8) && !two.whole()));
  CHECK(parse_shard("0/1").whole());
  for (const char* bad : {"5/5", "-1/4", "1/0", "1/", "/4", "1/4x", "x", "", "0/1000001"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH(parse_shard(bad), Catch::Contains("shard must be i/n with 0 <= i < n"));
  }
  // The array variables as sbatch --array=3-9:2 sets them for its task 7: the third of 4 tasks.
  const char* names[] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"};
  for (const char* name : names) unsetenv(name);
  CHECK(testing::refusal([] { parse_shard("slurm"); }).rfind("the environment variable SLURM_ARRAY_TASK_ID is not set, and --shard slurm needs it", 0) == 0);
  setenv("SLURM_ARRAY_TASK_ID", "7", 1);
  setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "3", 1);
  setenv("SLURM_ARRAY_TASK_STEP", "2", 1);
  const Shard task = parse_shard("slurm");
  CHECK((task.index == 2 && task.count == 4));
  setenv("SLURM_ARRAY_TASK_ID", "8", 1);  // not a task of that range
  CHECK_THROWS_WITH(parse_shard("slurm"), Catch::Contains("SLURM_ARRAY_TASK_ID = 8 is not one of the tasks of an array from SLURM_ARRAY_TASK_MIN = 3"));
  setenv("SLURM_ARRAY_TASK_ID", "seven", 1);
  CHECK_THROWS_WITH(parse_shard("slurm"), Catch::Contains("SLURM_ARRAY_TASK_ID must be a whole number in [0, 4000000] for --shard slurm, got 'seven'"));
  CHECK_THROWS_AS(parse_shard("slurm"), InvalidEnvironment);
  // Values no Slurm array sets are refused by name before any arithmetic: (ID - MIN) with ID =
  // 2^63 - 1 and MIN = -1 overflowed, and ran as shard 0 of 4.
  setenv("SLURM_ARRAY_TASK_ID", "9223372036854775807", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "-1", 1);
  setenv("SLURM_ARRAY_TASK_STEP", "1", 1);
  CHECK(testing::refusal([] { parse_shard("slurm"); }) ==
        "the environment variable SLURM_ARRAY_TASK_ID must be a whole number in [0, 4000000] for --shard slurm, got '9223372036854775807'");
  setenv("SLURM_ARRAY_TASK_ID", "3", 1);
  CHECK_THROWS_WITH(parse_shard("slurm"), Catch::Contains("SLURM_ARRAY_TASK_MIN must be a whole number in [0, 4000000] for --shard slurm, got '-1'"));
  setenv("SLURM_ARRAY_TASK_MIN", "0", 1);
  for (const char* step : {"0", "-9223372036854775808", "4000001"}) {
    setenv("SLURM_ARRAY_TASK_STEP", step, 1);
    CHECK_THROWS_WITH(parse_shard("slurm"), Catch::Contains("SLURM_ARRAY_TASK_STEP must be a whole number in [1, 4000000]"));
  }
  setenv("SLURM_ARRAY_TASK_STEP", "1", 1);
  for (const char* count : {"0", "1000001", "99999999999999999999"}) {
    setenv("SLURM_ARRAY_TASK_COUNT", count, 1);
    CHECK_THROWS_WITH(parse_shard("slurm"), Catch::Contains("SLURM_ARRAY_TASK_COUNT must be a whole number in [1, 1000000]"));
  }
  setenv("SLURM_ARRAY_TASK_COUNT", "4", 1);
  unsetenv("SLURM_ARRAY_TASK_STEP");  // --array=0-3 sets no step
  setenv("SLURM_ARRAY_TASK_ID", "3", 1);
  setenv("SLURM_ARRAY_TASK_MIN", "0", 1);
  CHECK(parse_shard("slurm").index == 3);
  for (const char* name : names) unsetenv(name);
}

TEST_CASE("Sweep points come in grid order and shards partition them", "[sweep]") {
  const auto points = sweep_points(small_grid());
  REQUIRE(points.size() == 6);
  CHECK(points[0].key() == "K=2 ny=4 d=3 tau=0.5 alpha=0.5");
  CHECK(points[2].key() == "K=2 ny=4 d=3 tau=0.5 alpha=0.9");
  CHECK(points[3].K == 3);
  std::multiset<std::string> seen;
  for (int i = 0; i < 4; ++i) {
    for (const auto& p : shard_points(points, parse_shard(std::to_string(i) + "/4"))) seen.insert(p.key());
  }
  CHECK(seen.size() == 6);
  CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == 6);
  CHECK_THROWS_WITH(parse_shard("4/4"), Catch::Contains("shard must be i/n with 0 <= i < n"));
  CHECK_THROWS_AS(parse_shard("x"), InvalidArgument);
  SweepGrid bad = small_grid();
  bad.alpha = {1.5};
  CHECK_THROWS_WITH(sweep_points(bad), Catch::Contains("alpha must be in [0, 1]"));
  bad = small_grid();
  bad.tau.clear();
  CHECK_THROWS_WITH(sweep_points(bad), Catch::Contains("tau must list at least one value"));
}

TEST_CASE("Sweep rows carry the theory's prediction", "[sweep]") {
  const auto points = sweep_points(small_grid());
  const SweepRow collapsed = run_sweep_point(points[0], quick(), "0:1");
  CHECK(collapsed.prediction.regime == "collapsed");
  CHECK(collapsed.geometry == "collapsed");
  CHECK(collapsed.loss == Approx(*collapsed.prediction.loss).epsilon(1e-10));
  SweepPoint split{3, 8, 3, 0.64, 0.5};
  const SweepRow row = run_sweep_point(split, quick(), "0:1");
  CHECK(row.prediction.regime == "split");
  CHECK(row.spread == Approx(*row.prediction.spread).epsilon(1e-6));
  CHECK(row.atoms == "4+4|4+4|4+4");
  CHECK(row.max_atoms == 2);
  SweepPoint wide{2, 8, 5, 0.7, 0.5};
  CHECK(predict(wide).regime == "continuous");
  CHECK_FALSE(predict(wide).spread.has_value());
}

TEST_CASE("A sweep is reproducible, resumable, and its shards merge into the full run", "[sweep]") {
  const auto points = sweep_points(small_grid());
  const auto serial = testing::with_threads(1, [&] { return run_sweep(points, quick(), "0:1", {}); });
  const auto parallel = testing::with_threads(2, [&] { return run_sweep(points, quick(), "0:1", {}); });
  const std::string csv = sweep_csv(serial);
  CHECK(without_seconds(sweep_csv(parallel)) == without_seconds(csv));

  // CSV round trip is exact.
  const auto parsed = parse_sweep_csv(csv, "memory", "out");
  CHECK(sweep_csv(parsed) == csv);

  // Resume: the rows already done are not solved again (no callback for them).
  std::vector<SweepRow> half(serial.begin(), serial.begin() + 3);
  std::size_t solved = 0;
  const auto resumed = run_sweep(points, quick(), "0:1", half, [&](const SweepRow&, std::size_t, std::size_t total) {
    solved++;
    CHECK(total == 3);
  });
  CHECK(solved == 3);
  CHECK(without_seconds(sweep_csv(resumed)) == without_seconds(csv));

  // Shards merge back into the full sweep, in grid order.
  std::vector<std::vector<SweepRow>> shards;
  for (int i = 0; i < 3; ++i) {
    shards.push_back(run_sweep(shard_points(points, {i, 3}), quick(), "0:1", {}));
  }
  CHECK(without_seconds(sweep_csv(merge_sweep_rows(shards))) == without_seconds(csv));

  // Conflicting inputs are refused.
  auto other = serial;
  other[0].loss += 1e-3;
  CHECK_THROWS_WITH(merge_sweep_rows({serial, other}), Catch::Contains("two inputs disagree"));
}

TEST_CASE("A sweep CSV written before issue 31 reads its regime 'spread' as 'continuous'", "[sweep]") {
  // d > K: a continuous optimum and a continuous prediction, the two columns that said "spread".
  const SweepRow row = run_sweep_point({2, 8, 5, 0.9, 0.5}, quick(), "0:1");
  REQUIRE(row.geometry == "continuous");
  REQUIRE(row.prediction.regime == "continuous");
  const std::string csv = sweep_csv({row});
  std::string legacy = csv;
  for (std::size_t at = legacy.find(",continuous,"); at != std::string::npos; at = legacy.find(",continuous,", at)) {
    legacy.replace(at, 12, ",spread,");
  }
  REQUIRE(legacy != csv);
  const auto parsed = parse_sweep_csv(legacy, "old.csv", "out");
  CHECK(parsed.front().geometry == "continuous");
  CHECK(parsed.front().prediction.regime == "continuous");
  CHECK(sweep_csv(parsed) == csv);  // rewritten in today's names
}

TEST_CASE("A corrupt sweep CSV is refused with its line", "[sweep][errors]") {
  CHECK_THROWS_WITH(parse_sweep_csv("a,b\n", "x.csv", "out"), Catch::Contains("x.csv line 1: is not a geomsim sweep CSV"));
  const auto rows = run_sweep(sweep_points(small_grid()), quick(), "0:1", {});
  std::string csv = sweep_csv(rows);
  const std::string truncated = csv.substr(0, csv.size() - 30);
  CHECK_THROWS_WITH(parse_sweep_csv(truncated, "x.csv", "out"), Catch::Contains("x.csv line 7"));
  std::string garbled = csv;
  garbled.replace(garbled.find("\n2,4,3,") + 1, 1, "z");
  CHECK_THROWS_WITH(parse_sweep_csv(garbled, "x.csv", "out"), Catch::Contains("column K: 'z' is not an integer"));
}

TEST_CASE("A sweep CSV is read from a regular file only, its header before the rest", "[sweep][errors]") {
  const auto dir = std::filesystem::temp_directory_path() / ("geomsim-sweep-read-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto rows = run_sweep(sweep_points(small_grid()), quick(), "0:1", {});
  const std::string good = (dir / "good.csv").string(), bad = (dir / "bad.csv").string(), fifo = (dir / "fifo.csv").string();
  std::ofstream(good) << sweep_csv(rows);
  CHECK(read_sweep_csv(good, "inputs").size() == rows.size());
  std::ofstream(bad) << std::string(1 << 20, '\0');
  CHECK_THROWS_WITH(read_sweep_csv(bad, "inputs"), Catch::Contains("bad.csv line 1: is not a geomsim sweep CSV (wrong header)"));
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: an open for reading would block
  CHECK_THROWS_WITH(read_sweep_csv(fifo, "out"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_sweep_csv("/dev/zero", "inputs"), Catch::Contains("is a character device"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("A checkpoint that cannot be written ends the sweep with its error, not std::terminate", "[sweep][errors]") {
  // on_row runs inside an OpenMP critical section, which an exception may not leave: before, a
  // sweep whose CSV could not be written (full disk, folder removed) died with exit 134.
  const auto points = sweep_points(small_grid());
  std::size_t calls = 0;
  const auto failing_write = [&](const SweepRow&, std::size_t, std::size_t) {
    ++calls;
    throw InvalidArgument("out", "cannot write 'sweep.csv': No space left on device");
  };
  for (int threads : {1, 2}) {
    calls = 0;
    testing::with_threads(threads, [&] {
      CHECK_THROWS_WITH(run_sweep(points, quick(), "0:1", {}, failing_write), "out cannot write 'sweep.csv': No space left on device");
      return 0;
    });
    CHECK(calls == 1);  // the points after the failure are skipped
  }
  // A solve that fails keeps its own exception type too (not a generic "sweep failed").
  SweepGrid bad = small_grid();
  SolveSettings unknown = quick();
  unknown.solver = "newton";
  CHECK_THROWS_AS(run_sweep(sweep_points(bad), unknown, "0:1", {}), InvalidArgument);
}
