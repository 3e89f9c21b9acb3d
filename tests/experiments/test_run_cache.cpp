// The run cache of the training experiments and the statistics of their pages.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/experiments/run_cache.hpp"
#include "geomsim/experiments/seed_statistics.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"

namespace fs = std::filesystem;
using namespace geomsim;

namespace {

struct TemporaryFolder {
  fs::path path = fs::temp_directory_path() / ("geomsim-run-cache-" + std::to_string(::getpid()));
  TemporaryFolder() { fs::create_directories(path); }
  ~TemporaryFolder() { fs::remove_all(path); }
};

RunRow planned(const std::string& method, int seed, int epochs) {
  RunRow row;
  row.set("method", method);
  row.set("seed", std::to_string(seed));
  row.set("epochs", std::to_string(epochs));
  return row;
}

RunRow finished(const std::string& method, int seed, int epochs, double accuracy) {
  RunRow row = planned(method, seed, epochs);
  row.set("fine_probe", accuracy);
  return row;
}

}  // namespace

TEST_CASE("The run cache keeps every finished run and finds it again after a restart", "[experiments][run_cache]") {
  TemporaryFolder folder;
  const std::string path = (folder.path / "runs.csv").string();
  {
    RunCache cache(path, {"method", "seed"});
    CHECK(cache.rows().empty());
    CHECK_FALSE(cache.find(planned("supcon", 0, 3)));
    cache.add(finished("supcon", 0, 3, 0.7042));
    cache.add(finished("thanos", 0, 3, 0.7317));
    RunRow with_extra = finished("thanos", 1, 3, 0.7251);
    with_extra.set("K_g", 11.125);  // a metric only some runs have
    cache.add(with_extra);
  }
  // The file on disk, exactly: the union of the columns, empty cells where a run has none.
  CHECK(read_whole_file(path, "out") ==
        "method,seed,epochs,fine_probe,K_g\n"
        "supcon,0,3,0.7042,\n"
        "thanos,0,3,0.7317,\n"
        "thanos,1,3,0.7251,11.125\n");
  RunCache again(path, {"method", "seed"});
  REQUIRE(again.rows().size() == 3);
  const auto hit = again.find(planned("thanos", 1, 3));
  REQUIRE(hit);
  CHECK(hit->number("fine_probe") == 0.7251);  // shortest round-trip text: the same double
  CHECK(hit->number("K_g") == 11.125);
  CHECK_FALSE(again.find(planned("supcon", 0, 3))->number("K_g"));
  CHECK_FALSE(again.find(planned("supcon", 2, 3)));
  // A run with the same key but another budget is refused, naming the column and both values.
  CHECK_THROWS_WITH(again.find(planned("supcon", 0, 5)),
                    Catch::Contains("supcon") && Catch::Contains("epochs = 5") && Catch::Contains("epochs = 3"));
  // So is one with a parameter the cached row lacks.
  RunRow more = planned("supcon", 0, 3);
  more.set("recipe", "paper");
  CHECK_THROWS_WITH(again.find(more), Catch::Contains("recipe = paper") && Catch::Contains("(none)"));
  // Adding a run with an existing key replaces it, and rewrites the file.
  again.add(finished("supcon", 0, 3, 0.71));
  CHECK(RunCache(path, {"method", "seed"}).find(planned("supcon", 0, 3))->number("fine_probe") == 0.71);
  CHECK(RunCache(path, {"method", "seed"}).rows().size() == 3);
  // No temporary is left beside it: the file and its lock (empty, kept for the next writer).
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(folder.path)) files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  CHECK(files == std::vector<std::string>{"runs.csv", "runs.csv.lock"});
  CHECK(fs::file_size(folder.path / "runs.csv.lock") == 0);
}

TEST_CASE("Processes that add runs to one cache at once lose none of them", "[experiments][run_cache]") {
  // Four processes (the tasks of a job array), each having read the cache when it was empty,
  // each add 25 runs as fast as they can. Without the lock and the re-read under it, each
  // rewrite would hold only its own process's runs (measured once without them: 29 of the 101 survived).
  TemporaryFolder folder;
  const std::string path = (folder.path / "runs.csv").string();
  RunCache(path, {"method", "seed"}).add(finished("erm", -1, 1, 0.5));  // one run before they start
  constexpr int kWriters = 4, kRuns = 25;
  std::vector<pid_t> writers;
  for (int w = 0; w < kWriters; ++w) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int status = 0;
      try {
        RunCache cache(path, {"method", "seed"});
        for (int i = 0; i < kRuns; ++i) cache.add(finished("writer" + std::to_string(w), i, 1, 0.25 * w + 0.001 * i));
      } catch (...) {
        status = 1;
      }
      _exit(status);
    }
    writers.push_back(pid);
  }
  for (const pid_t pid : writers) {
    int status = -1;
    waitpid(pid, &status, 0);
    CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
  }
  const RunCache cache(path, {"method", "seed"});
  CHECK(cache.rows().size() == 1 + kWriters * kRuns);  // every run once (a key twice is refused on reading)
  for (int w = 0; w < kWriters; ++w) {
    for (int i = 0; i < kRuns; ++i) {
      const auto row = cache.find(planned("writer" + std::to_string(w), i, 1));
      REQUIRE(row);
      CHECK(row->number("fine_probe") == 0.25 * w + 0.001 * i);
    }
  }
  CHECK(cache.find(planned("erm", -1, 1)));
}

TEST_CASE("The run cache refuses files it did not write, and bad cells", "[experiments][run_cache]") {
  TemporaryFolder folder;
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream((folder.path / name).string()) << text;
    return (folder.path / name).string();
  };
  const std::vector<std::string> key = {"method", "seed"};
  CHECK_THROWS_WITH(RunCache(write("empty.csv", ""), key), Catch::Contains("no header") && Catch::Contains("move it away"));
  CHECK_THROWS_WITH(RunCache(write("width.csv", "method,seed\nsupcon,0,1\n"), key), Catch::Contains("line 2 has 3 cells for 2 columns"));
  CHECK_THROWS_WITH(RunCache(write("twice.csv", "method,method\na,b\n"), key), Catch::Contains("the column method appears twice"));
  CHECK_THROWS_WITH(RunCache(write("quote.csv", "method,seed\n\"a\",0\n"), key), Catch::Contains("quote"));
  CHECK_THROWS_WITH(RunCache(write("duplicate.csv", "method,seed,x\nsupcon,0,1\nsupcon,0,2\n"), key),
                    Catch::Contains("two rows are the run method=supcon seed=0"));
  RunRow row;
  CHECK_THROWS_WITH(row.set("method", "a,b"), Catch::Contains("must not hold commas"));
  CHECK_THROWS_WITH(row.set("a\"b", "x"), Catch::Contains("without commas, quotes"));
  CHECK_THROWS_AS(row.set("fine_probe", std::nan("")), std::logic_error);
  CHECK_THROWS_AS(row.set("fine_probe", INFINITY), std::logic_error);
  RunCache cache((folder.path / "new.csv").string(), key);
  RunRow keyless;
  keyless.set("method", "supcon");
  CHECK_THROWS_WITH(cache.add(keyless), Catch::Contains("lacks the key column seed"));
  CHECK_FALSE(fs::exists(folder.path / "new.csv"));
}

TEST_CASE("The run cache's checks are linear: hashed keys and columns, a bounded header", "[experiments][run_cache]") {
  TemporaryFolder folder;
  const std::vector<std::string> key = {"method", "seed"};
  // 20 001 rows whose last repeats a key (the fuzzer's reproducer: 37 s with a pairwise check).
  std::string rows = "method,seed,fine_probe\n";
  for (int k = 0; k < 20000; ++k) rows += "supcon," + std::to_string(k) + ",0.5\n";
  const std::string many = (folder.path / "many.csv").string();
  std::ofstream(many) << rows;
  {
    RunCache cache(many, key);
    CHECK(cache.rows().size() == 20000);
    RunRow last;
    last.set("method", "supcon");
    last.set("seed", "19999");
    REQUIRE(cache.find(last));
    CHECK(cache.find(last)->number("fine_probe") == 0.5);
  }
  std::ofstream(many, std::ios::app) << "supcon,7,0.25\n";
  CHECK_THROWS_WITH(RunCache(many, key), Catch::Contains("two rows are the run method=supcon seed=7"));
  // A header of 200 004 columns is refused by its count, before its names are compared.
  std::string wide = "method,seed";
  for (int k = 0; k < 200002; ++k) wide += ",c" + std::to_string(k);
  const std::string wide_path = (folder.path / "wide.csv").string();
  std::ofstream(wide_path) << wide << "\n";
  CHECK_THROWS_WITH(RunCache(wide_path, key), Catch::Contains("its header has 200004 columns, more than the 1000 a run table may have"));
  // A header of 1000 columns, all distinct, is a run table; one name twice among them is not.
  std::string thousand = "method,seed";
  for (int k = 0; k < 998; ++k) thousand += ",c" + std::to_string(k);
  std::ofstream(wide_path) << thousand << "\n";
  CHECK(RunCache(wide_path, key).rows().empty());
  std::ofstream(wide_path) << thousand << ",c5\n";
  CHECK_THROWS_WITH(RunCache(wide_path, key), Catch::Contains("more than the 1000"));
  std::ofstream(wide_path) << "method,seed,c1,c2,c1\n";
  CHECK_THROWS_WITH(RunCache(wide_path, key), Catch::Contains("the column c1 appears twice"));
  // A cell with a carriage return is refused (a row written on another system, or damage).
  std::ofstream(wide_path) << "method,seed\r\nsupcon,0\n";
  CHECK_THROWS_WITH(RunCache(wide_path, key), Catch::Contains("column 2 has no plain name"));
}

TEST_CASE("A run cache that is not a regular file is refused unopened", "[experiments][run_cache]") {
  TemporaryFolder folder;
  const std::string fifo = (folder.path / "runs.csv").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);  // no writer: an open for reading would block
  CHECK_THROWS_WITH(RunCache(fifo, {"method"}), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
}

TEST_CASE("Mean and sd over seeds, and the standard error of a contrast", "[experiments][statistics]") {
  const SeedSummary s = summarize({0.70, 0.71, 0.75});
  CHECK(s.n == 3);
  CHECK(s.mean == Approx(0.72).epsilon(1e-15));
  // sample sd by hand: deviations -0.02, -0.01, 0.03; sum of squares 0.0014; / 2 = 0.0007
  CHECK(s.sd == Approx(std::sqrt(0.0007)).epsilon(1e-12));
  CHECK(s.standard_error() == Approx(std::sqrt(0.0007 / 3)).epsilon(1e-12));
  CHECK(mean_sd_text(s, 100, 1) == "72.0 ± 2.6");
  CHECK(mean_sd_text(summarize({0.5}), 100, 1) == "50.0 (1 seed)");
  CHECK(summarize({0.5}).sd == 0.0);
  CHECK_THROWS_WITH(summarize({}), Catch::Contains("at least one"));
  CHECK_THROWS_WITH(summarize({1.0, std::nan("")}), Catch::Contains("finite"));

  // (A2 - B2) - (A4 - B4) with the four cells' variances.
  const SeedSummary a2{3, 0.8, 0.03}, b2{3, 0.6, 0.04}, a4{3, 0.7, 0.02}, b4{4, 0.68, 0.05};
  const Contrast c = linear_contrast({{1, a2}, {-1, b2}, {-1, a4}, {1, b4}});
  CHECK(c.value == Approx(0.18).epsilon(1e-12));
  CHECK(c.standard_error == Approx(std::sqrt(0.0009 / 3 + 0.0016 / 3 + 0.0004 / 3 + 0.0025 / 4)).epsilon(1e-12));
  CHECK(c.fewest_seeds == 3);
  CHECK(linear_contrast({{0.5, a2}, {0.5, a4}}).value == Approx(0.75));
}

TEST_CASE("Verdicts: holds, does not hold, within noise, untestable", "[experiments][statistics]") {
  // se = 0.01: the boundary is 2 se = 0.02 either way.
  CHECK(judge_positive({0.021, 0.01, 3}) == Verdict::holds);
  CHECK(judge_positive({0.02, 0.01, 3}) == Verdict::within_noise);
  CHECK(judge_positive({-0.02, 0.01, 3}) == Verdict::within_noise);
  CHECK(judge_positive({-0.021, 0.01, 3}) == Verdict::does_not_hold);
  CHECK(judge_positive({0.5, 0.0, 1}) == Verdict::untestable);
  CHECK(judge_positive({0.0, 0.0, 2}) == Verdict::within_noise);
  CHECK(all_of({Verdict::holds, Verdict::holds}) == Verdict::holds);
  CHECK(all_of({Verdict::holds, Verdict::within_noise}) == Verdict::within_noise);
  CHECK(all_of({Verdict::within_noise, Verdict::untestable}) == Verdict::untestable);
  CHECK(all_of({Verdict::untestable, Verdict::does_not_hold, Verdict::holds}) == Verdict::does_not_hold);
  CHECK(verdict_text(Verdict::does_not_hold) == "does not hold");
}

TEST_CASE("The experiment page escapes table cells and lists the claims", "[experiments][page]") {
  ExperimentPage page("Table 3");
  page.table({"a", "b"}, {{"x|y", "line\nbreak"}});
  CHECK(page.markdown().find("| x\\|y | line break |") != std::string::npos);
  CHECK_THROWS_AS(page.table({"a", "b"}, {{"only one"}}), std::logic_error);
  page.claims({{"THANOS is best", "seed 004, §5", "THANOS significantly outperforms SupCon", "11.1 points", "+2.00 points (se 0.50)",
                Verdict::holds}});
  const std::string& md = page.markdown();
  CHECK(md.find("| THANOS is best | seed 004, §5 | 11.1 points | +2.00 points (se 0.50) | **holds** |") != std::string::npos);
  CHECK(md.find("- seed 004, §5: \"THANOS significantly outperforms SupCon\"") != std::string::npos);
  CHECK(md.find("within noise") != std::string::npos);
}
