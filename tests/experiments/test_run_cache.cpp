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

TEST_CASE("A cached run of another results version is stale: trained again and replaced, never refused", "[experiments][run_cache]") {
  TemporaryFolder folder;
  const std::string path = (folder.path / "runs.csv").string();
  const auto versioned = [](RunRow row, const std::string& version) {
    row.set(kResultsVersionColumn, version);
    return row;
  };
  RunCache cache(path, {"method", "seed"});
  cache.add(finished("supcon", 0, 3, 0.70));                   // a row from before versions
  cache.add(versioned(finished("thanos", 0, 3, 0.73), "1"));
  // Without a version the planned run finds the row as before; with one, only a row of that version.
  CHECK(cache.find(planned("supcon", 0, 3))->number("fine_probe") == 0.70);
  CHECK_FALSE(cache.find(versioned(planned("supcon", 0, 3), "2")));
  CHECK_FALSE(cache.find(versioned(planned("thanos", 0, 3), "2")));
  CHECK(cache.find(versioned(planned("thanos", 0, 3), "1"))->number("fine_probe") == 0.73);
  // Staleness is decided before the other parameters: another budget at another version is a run
  // to train, not a refusal; at the cached version it is still refused.
  CHECK_FALSE(cache.find(versioned(planned("thanos", 0, 5), "2")));
  CHECK_THROWS_WITH(cache.find(versioned(planned("thanos", 0, 5), "1")), Catch::Contains("epochs = 5"));
  // The run trained again replaces the stale row: one row per key, of the new version.
  cache.add(versioned(finished("thanos", 0, 3, 0.74), "2"));
  const RunCache again(path, {"method", "seed"});
  CHECK(again.rows().size() == 2);
  CHECK(again.find(versioned(planned("thanos", 0, 3), "2"))->number("fine_probe") == 0.74);
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

  // Unpaired (cells taken as independent): (A2 - B2) - (A4 - B4) with the four cells' variances.
  const SeedSummary a2{3, 0.8, 0.03}, b2{3, 0.6, 0.04}, a4{3, 0.7, 0.02}, b4{4, 0.68, 0.05};
  const Contrast c = linear_contrast({{1, a2}, {-1, b2}, {-1, a4}, {1, b4}});
  CHECK(c.value == Approx(0.18).epsilon(1e-12));
  CHECK(c.standard_error == Approx(std::sqrt(0.0009 / 3 + 0.0016 / 3 + 0.0004 / 3 + 0.0025 / 4)).epsilon(1e-12));
  CHECK(c.n == 3);
  CHECK_FALSE(c.paired);
  CHECK(linear_contrast({{0.5, a2}, {0.5, a4}}).value == Approx(0.75));
}

TEST_CASE("Student's t quantile against its exact values", "[experiments][statistics]") {
  // Closed forms: t(0.975, 1) = tan(0.475 pi), t(0.975, 2) = 0.95 sqrt(2 / 0.0975); the others
  // from mpmath at 40 digits (the regularized incomplete beta function inverted by findroot).
  CHECK(std::abs(student_t_quantile(0.975, 1) - 12.70620473617471) < 1e-12);
  CHECK(std::abs(student_t_quantile(0.975, 2) - 4.302652729749464) < 1e-12);
  CHECK(std::abs(student_t_quantile(0.975, 9) - 2.262157162798205) < 1e-12);
  CHECK(std::abs(student_t_quantile(0.975, 4) - 2.776445105197794) < 1e-12);
  CHECK(std::abs(student_t_quantile(0.975, 3.5) - 2.940088637982730) < 1e-12);
  CHECK(std::abs(student_t_quantile(0.025, 2) + 4.302652729749464) < 1e-12);
  CHECK(student_t_quantile(0.5, 7) == Approx(0.0).margin(1e-15));
  CHECK_THROWS_WITH(student_t_quantile(1.0, 2), Catch::Contains("(0, 1)"));
  CHECK_THROWS_WITH(student_t_quantile(0.975, 0), Catch::Contains("degrees of freedom"));
  CHECK_THROWS_WITH(student_t_quantile(0.975, std::nan("")), Catch::Contains("degrees of freedom"));
}

TEST_CASE("A contrast paired by seed, against a hand computation", "[experiments][statistics]") {
  // C = (A + B)/2 - C over the seeds every cell holds. By hand (numpy):
  //   A = [0.71, 0.74, 0.69, 0.75], B = [0.70, 0.72, 0.70, 0.71], C = [0.60, 0.66, 0.61, 0.62]
  //   D = 0.5*A + 0.5*B - C = [0.105, 0.07, 0.085, 0.11]
  //   D.mean() = 0.0925, D.std(ddof=1) = 0.018484227510682377, se = sd / sqrt(4) = 0.009242113755341189
  // Seed 9 is in A and C only and seed 7 in B only: both left out. The order of a cell's seeds
  // does not matter.
  const SeedValues a{{"0", 0.71}, {"1", 0.74}, {"2", 0.69}, {"3", 0.75}, {"9", 0.10}};
  const SeedValues b{{"3", 0.71}, {"2", 0.70}, {"1", 0.72}, {"0", 0.70}, {"7", 0.99}};
  const SeedValues c{{"0", 0.60}, {"1", 0.66}, {"2", 0.61}, {"3", 0.62}, {"9", 0.00}};
  const Contrast p = paired_contrast({{0.5, a}, {0.5, b}, {-1.0, c}});
  CHECK(p.paired);
  CHECK(p.n == 4);
  CHECK(p.value == Approx(0.0925).epsilon(1e-12));
  CHECK(p.standard_error == Approx(0.009242113755341189).epsilon(1e-12));
  CHECK(p.degrees_of_freedom == 3.0);
  // t(0.975, 3) = 3.182446305283710 (mpmath): the interval 0.0925 -+ 0.029412...
  CHECK(p.t_critical() == Approx(3.182446305283710).epsilon(1e-12));
  CHECK(p.low() == Approx(0.0925 - 3.182446305283710 * 0.009242113755341189).epsilon(1e-12));
  CHECK(p.high() == Approx(0.0925 + 3.182446305283710 * 0.009242113755341189).epsilon(1e-12));
  CHECK(judge_positive(p) == Verdict::holds);
  CHECK(contrast_text(p, 100, "points", 2) == "+9.25 points, 95% CI [+6.31, +12.19] (paired, n = 4 seeds, se 0.92, t(3) = 3.182)");
  // The same values taken as independent give a much larger se: the pairing is what the seeds share.
  CHECK(linear_contrast({{0.5, summarize({0.71, 0.74, 0.69, 0.75})}, {0.5, summarize({0.70, 0.72, 0.70, 0.71})},
                         {-1.0, summarize({0.60, 0.66, 0.61, 0.62})}})
            .standard_error > 1.5 * p.standard_error);
  // design_contrast pairs them too.
  CHECK(design_contrast({{0.5, a}, {0.5, b}, {-1.0, c}}).value == Approx(0.0925).epsilon(1e-12));
  CHECK(design_contrast({{0.5, a}, {0.5, b}, {-1.0, c}}).paired);

  // No common seed, or one: untestable when paired.
  const Contrast none = paired_contrast({{1.0, SeedValues{{"0", 0.5}, {"1", 0.6}}}, {-1.0, SeedValues{{"2", 0.5}, {"3", 0.4}}}});
  CHECK(none.n == 0);
  CHECK(judge_positive(none) == Verdict::untestable);
  CHECK(contrast_text(none, 100, "points", 2) == "no seed common to every cell: no noise estimate");
  const Contrast one = paired_contrast({{1.0, SeedValues{{"0", 0.5}, {"1", 0.6}}}, {-1.0, SeedValues{{"1", 0.5}, {"3", 0.4}}}});
  CHECK(one.n == 1);
  CHECK(one.value == Approx(0.1));
  CHECK(judge_positive(one) == Verdict::untestable);
  CHECK(contrast_text(one, 100, "points", 1) == "+10.0 points (1 paired seed): no noise estimate");
  CHECK_THROWS_WITH(paired_contrast({}), Catch::Contains("at least one cell"));
  CHECK_THROWS_WITH(paired_contrast({{1.0, SeedValues{}}}), Catch::Contains("without seeds"));
  CHECK_THROWS_WITH(paired_contrast({{1.0, SeedValues{{"0", 0.5}, {"0", 0.6}}}}), Catch::Contains("one seed twice"));
  CHECK_THROWS_WITH(paired_contrast({{1.0, SeedValues{{"0", std::nan("")}}}}), Catch::Contains("non-finite"));

  // Cells without 2 common seeds (a design that does not pair them): unpaired, Welch–Satterthwaite.
  // numpy: a = [0.8, 0.82, 0.78], b = [0.7, 0.75, 0.71, 0.69]; C = 0.0875, se = 0.0175,
  // df = (va + vb)^2 / (va^2/2 + vb^2/3) = 4.974065832885753 with va = a.var(ddof=1)/3, vb = b.var(ddof=1)/4.
  const Contrast u = design_contrast({{1.0, SeedValues{{"0", 0.8}, {"1", 0.82}, {"2", 0.78}}},
                                      {-1.0, SeedValues{{"3", 0.7}, {"4", 0.75}, {"5", 0.71}, {"6", 0.69}}}});
  CHECK_FALSE(u.paired);
  CHECK(u.n == 3);
  CHECK(u.value == Approx(0.0875).epsilon(1e-12));
  CHECK(u.standard_error == Approx(0.0175).epsilon(1e-12));
  CHECK(u.degrees_of_freedom == Approx(4.974065832885753).epsilon(1e-12));
  CHECK(u.t_critical() == Approx(2.5746182977247893).epsilon(1e-12));  // mpmath
  CHECK(contrast_text(u, 100, "points", 2) == "+8.75 points, 95% CI [+4.24, +13.26] (unpaired, n = 3 seeds, se 1.75, t(5.0) = 2.575)");
  // A cell holding a seed twice cannot be paired either.
  CHECK_FALSE(design_contrast({{1.0, SeedValues{{"0", 0.8}, {"0", 0.82}, {"1", 0.78}}}, {-1.0, SeedValues{{"0", 0.7}, {"1", 0.75}}}}).paired);
}

TEST_CASE("Verdicts: holds, does not hold, within noise, untestable", "[experiments][statistics]") {
  // Paired, n = 3: t(2) = 4.302652729749464, se = 0.01, so the boundary is C = 0.04302652729749464.
  const double t2 = 4.302652729749464;
  const auto paired = [](double value, double se, std::size_t n) {
    Contrast c;
    c.value = value;
    c.standard_error = se;
    c.n = n;
    c.paired = true;
    c.degrees_of_freedom = n >= 2 ? static_cast<double>(n - 1) : 0.0;
    return c;
  };
  CHECK(judge_positive(paired(t2 * 0.01 + 1e-9, 0.01, 3)) == Verdict::holds);
  CHECK(judge_positive(paired(t2 * 0.01 - 1e-9, 0.01, 3)) == Verdict::within_noise);
  CHECK(judge_positive(paired(0.0, 0.01, 3)) == Verdict::within_noise);
  CHECK(judge_positive(paired(-t2 * 0.01 + 1e-9, 0.01, 3)) == Verdict::within_noise);
  CHECK(judge_positive(paired(-t2 * 0.01 - 1e-9, 0.01, 3)) == Verdict::does_not_hold);
  // Under the old rule (2 se) 0.03 would hold; with n = 3 it is within noise.
  CHECK(judge_positive(paired(0.03, 0.01, 3)) == Verdict::within_noise);
  // n = 10: t(9) = 2.262157162798205.
  CHECK(judge_positive(paired(0.02262157162798205 + 1e-9, 0.01, 10)) == Verdict::holds);
  CHECK(judge_positive(paired(0.02262157162798205 - 1e-9, 0.01, 10)) == Verdict::within_noise);
  CHECK(judge_positive(paired(-0.02262157162798205 - 1e-9, 0.01, 10)) == Verdict::does_not_hold);
  // n = 2: t(1) = 12.70620473617471.
  CHECK(judge_positive(paired(0.127, 0.01, 2)) == Verdict::within_noise);
  CHECK(judge_positive(paired(0.1271, 0.01, 2)) == Verdict::holds);
  // Fewer than 2 seeds: untestable whatever the value.
  CHECK(judge_positive(paired(0.5, 0.0, 1)) == Verdict::untestable);
  CHECK(judge_positive(paired(0.5, 0.0, 0)) == Verdict::untestable);
  // No spread at all: the interval is the point; 0 itself is within noise.
  CHECK(judge_positive(paired(0.0, 0.0, 2)) == Verdict::within_noise);
  CHECK(judge_positive(paired(1e-12, 0.0, 2)) == Verdict::holds);
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
  const Contrast c = paired_contrast({{1.0, SeedValues{{"0", 0.52}, {"1", 0.50}, {"2", 0.51}}},
                                      {-1.0, SeedValues{{"0", 0.50}, {"1", 0.49}, {"2", 0.48}}}});
  const Contrast u = design_contrast({{1.0, SeedValues{{"0", 0.52}, {"1", 0.50}}}, {-1.0, SeedValues{{"3", 0.50}, {"4", 0.49}}}});
  page.claims({{"THANOS is best", "seed 004, §5", "THANOS significantly outperforms SupCon", "11.1 points", contrast_text(c, 100, "points", 2),
                judge_positive(c), {c}},
               {"unpaired", "seed 004, §5", "", "", contrast_text(u, 100, "points", 2), judge_positive(u), {u}}});
  const std::string& md = page.markdown();
  // D = [0.02, 0.01, 0.03]: C = 0.02, se = 0.01 / sqrt(3) = 0.005774, t(2) = 4.303: [-0.48, +4.48].
  CHECK(md.find("| THANOS is best | seed 004, §5 | 11.1 points | +2.00 points, 95% CI [-0.48, +4.48] (paired, n = 3 seeds, se 0.58, "
                "t(2) = 4.303) | **within noise** |") != std::string::npos);
  CHECK(md.find("- seed 004, §5: \"THANOS significantly outperforms SupCon\"") != std::string::npos);
  CHECK(md.find("**paired by seed**") != std::string::npos);
  CHECK(md.find("Here: n = 3 paired seeds, t(2) = 4.303 (1 contrast).") != std::string::npos);
  CHECK(md.find("1 contrast's cells share fewer than 2 seeds, so the design does not pair them") != std::string::npos);
}
