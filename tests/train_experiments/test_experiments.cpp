// The training experiments' machinery: claims on a run table, plans, and the kinds' registry
// (checked against the list geomsim's report hands to geomsim-torch, training_program.hpp).
#include "../train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_runs.hpp"
#include "geomsim/train_experiments/run_identity.hpp"
#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/figures/line_figure.hpp"
#include "geomsim/train_experiments/spread_figure.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_corruptions.hpp"
#include "geomsim/train/losses/conditioning_kernels.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "training_program.hpp"
#include "../scratch_folder.hpp"

using namespace geomsim;
using namespace geomsim::train_experiments;
using geomsim::cli::is_training_experiment_kind;
using geomsim::cli::training_experiment_kinds;
using nlohmann::json;
using geomsim::testing::ScratchFolder;

namespace {
using geomsim::testing::file_bytes;

std::size_t occurrences(const std::string& text, const std::string& wanted) {
  std::size_t found = 0;
  for (auto at = text.find(wanted); at != std::string::npos; at = text.find(wanted, at + 1)) ++found;
  return found;
}

std::size_t matches(const std::string& text, const std::regex& pattern) {
  return static_cast<std::size_t>(std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

RunRow run(const std::string& method, const std::string& hierarchy, int seed, double accuracy) {
  RunRow r;
  r.set("method", method);
  r.set("hierarchy", hierarchy);
  r.set("encoder", "cnn");
  r.set("seed", std::to_string(seed));
  r.set("fine_probe", accuracy);
  return r;
}

// Three seeds per cell with known means and sds: value = mean + {-d, 0, +d} (sd = d).
std::vector<RunRow> table_rows() {
  std::vector<RunRow> rows;
  const auto cell = [&](const std::string& m, const std::string& h, double mean, double d) {
    rows.push_back(run(m, h, 0, mean - d));
    rows.push_back(run(m, h, 1, mean));
    rows.push_back(run(m, h, 2, mean + d));
  };
  cell("supcon", "fmnist-2", 0.50, 0.01);
  cell("spread", "fmnist-2", 0.70, 0.01);
  cell("thanos", "fmnist-2", 0.80, 0.02);
  cell("supcon", "fmnist-4", 0.60, 0.01);
  cell("spread", "fmnist-4", 0.62, 0.01);
  cell("thanos", "fmnist-4", 0.61, 0.02);
  return rows;
}

json claim(const std::string& test) {
  return {{"claim", "c"}, {"source", "seed 004"}, {"metric", "fine_probe"}, {"scale", 100}, {"unit", "points"}, {"test", test}};
}

// A small MLP run on Debian's Fashion-MNIST, one thread on the CPU (batch 32, width 8, embedding 4).
TrainRunOptions tiny_mlp_run(const std::string& loss, int64_t train_samples, int64_t test_samples, std::uint64_t seed) {
  TrainRunOptions o;
  o.model.kind = "mlp";
  o.train.loss = loss;
  o.model.width = 8;
  o.model.embedding_dim = 4;
  o.train.batch_size = 32;
  o.train_samples = train_samples;
  o.test_samples = test_samples;
  o.train.seed = seed;
  o.threads = 1;
  o.quiet = true;
  o.train.device = torch::kCPU;
  return o;
}

}  // namespace

TEST_CASE("Claims are contrasts of seed means averaged over the free axes", "[cli][experiments][claims]") {
  const RunTable table(table_rows(), {"method", "hierarchy", "encoder"});
  json greater = claim("greater");
  greater["a"] = {{"method", "thanos"}};
  greater["b"] = {{"method", "spread"}};
  // Paired by seed: D_s = ((0.80 - 0.70) + (0.61 - 0.62)) / 2 + (s - 1)(0.02 - 0.01) = 0.045 + {-0.01, 0, 0.01};
  // sd(D) = 0.01, se = 0.01 / sqrt(3) = 0.005774, t(2) = 4.302653: 0.045 -+ 0.024841.
  const ClaimOutcome o = evaluate_claim(greater, table, {{"encoder", "cnn"}});
  CHECK(o.measured == "+4.50 points, 95% CI [+2.02, +6.98] (paired, n = 3 seeds, se 0.58, t(2) = 4.303)");
  REQUIRE(o.contrasts.size() == 1);
  CHECK(o.contrasts[0].paired);
  CHECK(o.contrasts[0].n == 3);
  CHECK(o.verdict == Verdict::holds);
  CHECK(o.statement == "c [encoder cnn]");

  // Only on fmnist-4: D = -0.01 + {-0.01, 0, 0.01}: -0.01 -+ 0.0248, within noise.
  json narrow = greater;
  narrow["a"]["hierarchy"] = "fmnist-4";
  narrow["b"]["hierarchy"] = "fmnist-4";
  CHECK(evaluate_claim(narrow, table, {}).verdict == Verdict::within_noise);

  // The gain of spread over supcon: 0.20 on fmnist-2, 0.02 on fmnist-4; difference 0.18.
  json gain = claim("gain_larger");
  gain["a"] = {{"method", "spread"}};
  gain["b"] = {{"method", "supcon"}};
  gain["in"] = {{"hierarchy", "fmnist-2"}};
  gain["than"] = {{"hierarchy", "fmnist-4"}};
  // Paired, the seeds' offsets cancel (spread and supcon share d = 0.01 on both): D = 0.18 at every seed.
  const ClaimOutcome g = evaluate_claim(gain, table, {});
  CHECK(g.measured == "+18.00 points, 95% CI [+18.00, +18.00] (paired, n = 3 seeds, se 0.00, t(2) = 4.303)");
  CHECK(g.verdict == Verdict::holds);

  // best: thanos vs spread averages 0.045 (holds), vs supcon 0.155 (holds).
  json best = claim("best");
  best["a"] = {{"method", "thanos"}};
  best["axis"] = "method";
  const ClaimOutcome b = evaluate_claim(best, table, {});
  CHECK(b.verdict == Verdict::holds);
  CHECK(b.measured == "+4.50 points, 95% CI [+2.02, +6.98] (paired, n = 3 seeds, se 0.58, t(2) = 4.303) over the closest, spread");
  CHECK(b.contrasts.size() == 2);
  // spread is not best: thanos beats it, the interval -4.50 -+ 2.48 lies below 0.
  best["a"] = {{"method", "spread"}};
  CHECK(evaluate_claim(best, table, {}).verdict == Verdict::does_not_hold);

  // Where one side has no runs for some value of a free axis (thanos never trained on
  // fmnist-4 here), the contrast is taken over the values both sides have: fmnist-2 alone,
  // D = 0.10 + {-0.01, 0, 0.01}: 0.10 -+ 0.024841.
  auto rows = table_rows();
  rows.erase(rows.begin() + 15, rows.begin() + 18);  // thanos on fmnist-4
  const ClaimOutcome m = evaluate_claim(greater, RunTable(rows, {"method", "hierarchy", "encoder"}), {});
  CHECK(m.measured == "+10.00 points, 95% CI [+7.52, +12.48] (paired, n = 3 seeds, se 0.58, t(2) = 4.303)");
  // A side without any run makes the claim untestable.
  json nobody = greater;
  nobody["a"] = {{"method", "thanos2"}};
  const ClaimOutcome u = evaluate_claim(nobody, table, {});
  CHECK(u.verdict == Verdict::untestable);
  CHECK(u.measured == "runs missing");
  // Lists of selectors are averaged: (thanos + spread)/2 - supcon = (0.155 + 0.11) / 2.
  json lists = greater;
  lists["a"] = json::array({{{"method", "thanos"}}, {{"method", "spread"}}});
  lists["b"] = {{"method", "supcon"}};
  CHECK(evaluate_claim(lists, table, {}).measured.rfind("+13.25 points", 0) == 0);
  // at_least: the mean of supcon on fmnist-2 (0.50) against 0.45 and 0.55.
  json least = claim("at_least");
  least["a"] = {{"method", "supcon"}, {"hierarchy", "fmnist-2"}};
  least["value"] = 0.45;
  CHECK(evaluate_claim(least, table, {}).verdict == Verdict::holds);
  CHECK(evaluate_claim(least, table, {}).measured == "above 45.00 by +5.00 points, 95% CI [+2.52, +7.48] (paired, n = 3 seeds, se 0.58, t(2) = 4.303)");
  least["value"] = 0.55;
  CHECK(evaluate_claim(least, table, {}).verdict == Verdict::does_not_hold);
  json most = least;
  most["test"] = "at_most";
  CHECK(evaluate_claim(most, table, {}).verdict == Verdict::holds);
  CHECK(evaluate_claim(most, table, {}).measured == "below 55.00 by +5.00 points, 95% CI [+2.52, +7.48] (paired, n = 3 seeds, se 0.58, t(2) = 4.303)");
  // One seed per cell: no noise estimate.
  std::vector<RunRow> single;
  for (const auto& r : table_rows()) {
    if (r.text("seed") == "1") single.push_back(r);
  }
  CHECK(evaluate_claim(greater, RunTable(single, {"method", "hierarchy", "encoder"}), {}).verdict == Verdict::untestable);
}

TEST_CASE("A claim scores each side by its own metric where the seed does (metric_b)", "[cli][experiments][claims]") {
  // thanos's head_accuracy is its fine_probe + 0.03 at every seed; spread has fine_probe only.
  auto rows = table_rows();
  for (auto& r : rows) {
    if (r.text("method") == "thanos") r.set("head_accuracy", *r.number("fine_probe") + 0.03);
  }
  const RunTable table(rows, {"method", "hierarchy", "encoder"});
  json greater = claim("greater");
  greater["a"] = {{"method", "spread"}};
  greater["b"] = {{"method", "thanos"}};
  // fine_probe alike: -4.50 points (the first test case's contrast, reversed); spread's probe
  // against thanos's head: 3 points more against it, seed by seed.
  CHECK(evaluate_claim(greater, table, {}).measured.rfind("-4.50 points, 95% CI [-6.98, -2.02]", 0) == 0);
  greater["metric_b"] = "head_accuracy";
  const ClaimOutcome o = evaluate_claim(greater, table, {});
  CHECK(o.measured.rfind("-7.50 points, 95% CI [-9.98, -5.02]", 0) == 0);
  CHECK(o.verdict == Verdict::does_not_hold);
  // Side a's metric is not side b's: a side lacking its own metric is missing.
  json swapped = greater;
  swapped["a"] = {{"method", "thanos"}};
  swapped["b"] = {{"method", "spread"}};
  CHECK(evaluate_claim(swapped, table, {}).verdict == Verdict::untestable);
  // steadier: each side's range over the hierarchy, of its own metric. thanos's head ranges as its
  // probe does (0.19 at each seed, +-0.00 offsets cancel), spread's probe 0.08: b's minus a's.
  json steadier = claim("steadier");
  steadier["a"] = {{"method", "spread"}};
  steadier["b"] = {{"method", "thanos"}};
  steadier["axis"] = "hierarchy";
  steadier["metric_b"] = "head_accuracy";
  CHECK(evaluate_claim(steadier, table, {}).measured.rfind("the first's range over hierarchy below the second's by +11.00 points", 0) == 0);
  // Only claims with a side b take it.
  json best = claim("best");
  best["a"] = {{"method", "thanos"}};
  best["axis"] = "method";
  best["metric_b"] = "head_accuracy";
  CHECK_THROWS_WITH(validate_claims({{"claims", json::array({best})}}, {"method", "hierarchy", "encoder"}),
                    Catch::Contains("\"metric_b\" scores a claim's side \"b\", which a \"best\" claim does not have"));
  greater["metric_b"] = 3;
  CHECK_THROWS_WITH(validate_claims({{"claims", json::array({greater})}}, {"method", "hierarchy", "encoder"}),
                    Catch::Contains("\"metric_b\" must be a string"));
}

TEST_CASE("Claims pair the runs by seed: a seed's shared data draw cancels", "[cli][experiments][claims]") {
  // Each seed draws other data: every method's value moves with it (0.50, 0.60, 0.70); thanos is
  // 0.02 above supcon at every seed, give or take 0.001. Unpaired, se = sqrt(2 x 0.01 / 3) = 0.082
  // would leave the 2-point gain within noise; paired, D = [0.021, 0.019, 0.020] and se = 0.000577.
  std::vector<RunRow> rows;
  const double base[] = {0.50, 0.60, 0.70}, jitter[] = {0.001, -0.001, 0.0};
  for (int s = 0; s < 3; ++s) {
    rows.push_back(run("supcon", "fmnist-2", s, base[s]));
    rows.push_back(run("thanos", "fmnist-2", s, base[s] + 0.02 + jitter[s]));
  }
  // A fourth seed that only thanos has is left out of the pairs.
  rows.push_back(run("thanos", "fmnist-2", 3, 0.10));
  const RunTable table(rows, {"method", "hierarchy", "encoder"});
  json greater = claim("greater");
  greater["a"] = {{"method", "thanos"}};
  greater["b"] = {{"method", "supcon"}};
  const ClaimOutcome o = evaluate_claim(greater, table, {});
  CHECK(o.verdict == Verdict::holds);
  // 0.02 -+ 4.302653 x 0.000577 = [0.017516, 0.022484]
  CHECK(o.measured == "+2.00 points, 95% CI [+1.75, +2.25] (paired, n = 3 seeds, se 0.06, t(2) = 4.303)");
}

TEST_CASE("A steadier claim compares each seed's range over an axis, paired by seed", "[cli][experiments][claims]") {
  // The learning rate as the axis, two augmentation settings as a free axis. supcon's accuracy
  // moves by 0.02 over lr with augmentation and by 0.04 without; ce's by 0.10 and 0.20, plus a
  // seed's own 0.01 s. The ranges averaged over augmentation: supcon 0.03, ce 0.15 + 0.01 s, so
  // D_s = 0.12 + 0.01 s for s = 0, 1, 2: 0.13 -+ 4.302653 x 0.01 / sqrt(3).
  std::vector<RunRow> rows;
  const auto add = [&](const std::string& method, const std::string& lr, const std::string& augmentation, int seed, double value) {
    RunRow r = run(method, "identity", seed, value);
    r.set("lr", lr);
    r.set("augmentation", augmentation);
    rows.push_back(r);
  };
  for (int s = 0; s < 3; ++s) {
    for (const auto& [augmentation, scale] : {std::pair<std::string, double>{"true", 1.0}, {"false", 2.0}}) {
      add("supcon", "0.0001", augmentation, s, 0.80 - 0.02 * scale);
      add("supcon", "0.001", augmentation, s, 0.80);
      add("supcon", "0.01", augmentation, s, 0.80 - 0.01 * scale);
      add("ce", "0.0001", augmentation, s, 0.80 - (0.10 * scale + 0.01 * s));
      add("ce", "0.001", augmentation, s, 0.80);
      add("ce", "0.01", augmentation, s, 0.78);
    }
  }
  const RunTable table(rows, {"method", "hierarchy", "encoder", "lr", "augmentation"});
  json steadier = claim("steadier");
  steadier["a"] = {{"method", "supcon"}};
  steadier["b"] = {{"method", "ce"}};
  steadier["axis"] = "lr";
  const ClaimOutcome o = evaluate_claim(steadier, table, {});
  CHECK(o.verdict == Verdict::holds);
  CHECK(o.measured == "the first's range over lr below the second's by +13.00 points, 95% CI [+10.52, +15.48] (paired, n = 3 seeds, se 0.58, t(2) = 4.303)");
  // Fixing augmentation to true: supcon's range 0.02, ce's 0.10 + 0.01 s.
  steadier["a"]["augmentation"] = "true";
  steadier["b"]["augmentation"] = "true";
  CHECK(evaluate_claim(steadier, table, {}).measured.rfind("the first's range over lr below the second's by +9.00 points", 0) == 0);
  // Reversed, it does not hold.
  std::swap(steadier["a"], steadier["b"]);
  CHECK(evaluate_claim(steadier, table, {}).verdict == Verdict::does_not_hold);
  // An axis with one value among a side's runs has no range.
  steadier["axis"] = "hierarchy";
  CHECK(evaluate_claim(steadier, table, {}).verdict == Verdict::untestable);
}

TEST_CASE("A definition's claims are checked before any training", "[cli][experiments][claims]") {
  const std::vector<std::string> axes = {"method", "hierarchy"};
  json d = {{"claims", json::array({claim("greater")})}};
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("claim 1 needs a selector \"a\""));
  d["claims"][0]["a"] = {{"methd", "x"}};
  d["claims"][0]["b"] = {{"method", "y"}};
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("names \"methd\", which is not an axis"));
  d["claims"][0]["a"] = {{"method", "x"}};
  CHECK_NOTHROW(validate_claims(d, axes));
  d["claims"][0]["test"] = "larger";
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("\"test\" must be greater, best, gain_larger, at_least, at_most or steadier"));
  d["claims"][0]["test"] = "steadier";
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("a \"steadier\" claim needs \"axis\""));
  d["claims"][0]["axis"] = "method";
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("fixes method, the axis it varies over"));
  d["claims"][0]["axis"] = "hierarchy";
  CHECK_NOTHROW(validate_claims(d, axes));
  d["claims"][0]["a"] = json::array({{{"method", "x"}}});
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("claim's \"a\" is one selector, not a list"));
  d["claims"][0].erase("axis");
  d["claims"][0]["test"] = "best";
  CHECK_THROWS_WITH(validate_claims(d, axes), Catch::Contains("needs \"axis\""));
  CHECK_NOTHROW(validate_claims(json::object(), axes));
}

TEST_CASE("Every training kind geomsim report knows has one runner, and no other", "[cli][experiments][registry]") {
  std::set<std::string> listed, registered;
  for (const auto& kind : training_experiment_kinds()) listed.insert(kind.name);
  for (const auto& entry : experiment_kind_registry()) {
    CHECK(entry.run != nullptr);
    CHECK(registered.insert(entry.name).second);  // no kind twice
  }
  CHECK(listed == registered);
  for (const auto& name : listed) CHECK(is_training_experiment_kind(name));
  CHECK_FALSE(is_training_experiment_kind("alpha_spread"));
}

TEST_CASE("The methods of the paper's tables map to losses and autoencoders", "[cli][experiments][methods]") {
  CHECK(training_method("thanos").loss == "thanos");
  CHECK(training_method("thanos").autoencoder == "joint");
  CHECK(training_method("gauto").autoencoder == "general");
  CHECK(training_method("cauto").loss == "autoencoder");
  CHECK(training_method("supcon+cauto").loss == "supcon");
  CHECK_THROWS_WITH(training_method("thanos2"), Catch::Contains("names the method 'thanos2'"));
  // Every method's options pass the trainer's checks, given the number of clusters that a method
  // conditioned on clusters of its attributes needs (the others drop it).
  TrainRunOptions base;
  base.cond_clusters = 10;
  for (const auto& m : training_methods()) {
    CAPTURE(m.name);
    CHECK_NOTHROW(validate(method_options(base, m)));
    CHECK((method_options(base, m).cond_clusters == 10) == clusters_attributes(m));
  }
  CHECK(clusters_attributes(training_method("fair-infonce-colour")));
  CHECK_FALSE(clusters_attributes(training_method("cclk-fair-colour")));
}

TEST_CASE("The CCL-K kernel methods condition on the images' attributes with each kernel", "[experiments][methods]") {
  for (const auto& kernel : geomsim::train::conditioning_kernel_names()) {
    const TrainingMethod& m = training_method("cclk-weak-attr-" + kernel);
    CAPTURE(m.name);
    const TrainRunOptions o = method_options(TrainRunOptions{}, m);
    CHECK(o.train.loss == "cclk-weak");
    CHECK(o.train.loss_options.cond_kernel == kernel);
    CHECK(o.condition_on == "attributes:ink,aspect,intensity");
    const RunRow row = training_parameters(m.name, o);
    CHECK(row.text("cond_kernel") == std::optional<std::string>(kernel));
    CHECK(row.text("condition_on") == std::optional<std::string>("attributes:ink+aspect+intensity"));
    CHECK(row.text("cond_bandwidth").has_value() == (kernel == "rbf" || kernel == "laplacian"));
  }
  CHECK(method_options(TrainRunOptions{}, training_method("cclk-weak-fine")).condition_on == "attributes:fine");
  CHECK(method_options(TrainRunOptions{}, training_method("cclk-weak")).condition_on == "labels");
  CHECK_FALSE(training_parameters("supcon", method_options(TrainRunOptions{}, training_method("supcon"))).text("cond_kernel"));
}

TEST_CASE("A transfer definition sweeps the learning rate as an axis of its own key", "[experiments][methods]") {
  json p = {{"methods", {"supcon", "ce"}}, {"hierarchies", {"identity"}}, {"encoders", {"cnn"}}, {"seeds", "0:1"},
            {"alpha", 0.5}, {"tau", 0.1}, {"lr", {1e-4, 1e-3, 1e-2}}, {"train_images", 256}, {"test_images", 200}, {"epochs", 1}};
  const auto plan = plan_transfer_runs(p);
  REQUIRE(plan.size() == 2 * 2 * 3);  // seeds x methods x learning rates
  std::set<std::string> rates, checkpoints;
  for (const auto& run : plan) {
    rates.insert(run.parameters.text("lr").value_or(""));
    CHECK(run.parameters.text("lr") == std::optional<std::string>(format_number(run.options.train.learning_rate)));
    CHECK(run.label.find(" lr ") != std::string::npos);
    checkpoints.insert(run_checkpoint_path("out", "x", run.parameters, true));
  }
  CHECK(rates == std::set<std::string>{format_number(1e-4), "0.001", "0.01"});
  CHECK(checkpoints.size() == plan.size());
  const auto key = transfer_key_columns(p);
  CHECK(key.back() == "lr");
  // One learning rate: the key every cached run was written with, and that rate in every run.
  json one = p;
  one["lr"] = 0.003;
  CHECK(transfer_key_columns(one).size() == key.size() - 1);
  CHECK(plan_transfer_runs(one).front().options.train.learning_rate == 0.003);
  CHECK(plan_transfer_runs(one).front().parameters.text("lr") == std::optional<std::string>("0.003"));
  // Both sweeps at once: every combination.
  json both = p;
  both["methods"] = {"cclk-weak-attr-rbf"};
  both["cond_bandwidth"] = {0.1, 1};
  CHECK(plan_transfer_runs(both).size() == 2 * 2 * 3);
  CHECK(transfer_key_columns(both).size() == key.size() + 1);
  json bad = p;
  bad["lr"] = {1e-3, "fast"};
  CHECK_THROWS_AS(plan_transfer_runs(bad), InvalidArgument);
}

TEST_CASE("A transfer definition sweeps the number of clusters, once for a method that clusters nothing", "[experiments][methods]") {
  json p = {{"methods", {"weaksup-infonce-attr", "cclk-weak-attr-cosine"}}, {"hierarchies", {"fmnist-2"}}, {"encoders", {"cnn"}},
            {"seeds", "0:1"}, {"alpha", 0.5}, {"tau", 0.5}, {"cond_clusters", {3, 10, 30}}, {"train_images", 256},
            {"test_images", 200}, {"epochs", 1}};
  const auto plan = plan_transfer_runs(p);
  // Two seeds: three cluster counts of WeaklySup-InfoNCE, one run of CCL-K (which reads none).
  REQUIRE(plan.size() == 2 * (3 + 1));
  std::multiset<std::string> counts;
  std::set<std::string> checkpoints;
  for (const auto& run : plan) {
    const std::string k = run.parameters.text("cond_clusters").value_or("");
    counts.insert(run.parameters.text("method").value_or("") + " " + k);
    checkpoints.insert(run_checkpoint_path("out", "x", run.parameters, false));
    if (k == "none") {
      CHECK(run.options.cond_clusters == 0);
      CHECK(run.label.find("clusters") == std::string::npos);
    } else {
      CHECK(std::to_string(run.options.cond_clusters) == k);
      CHECK(run.options.condition_on == "attributes:ink,aspect,intensity");
      CHECK(run.parameters.text("condition_on") == std::optional<std::string>("attributes:ink+aspect+intensity"));
      CHECK(run.label.find(" clusters " + k) != std::string::npos);
    }
  }
  CHECK(counts == std::multiset<std::string>{"cclk-weak-attr-cosine none", "cclk-weak-attr-cosine none", "weaksup-infonce-attr 3",
                                             "weaksup-infonce-attr 3", "weaksup-infonce-attr 10", "weaksup-infonce-attr 10",
                                             "weaksup-infonce-attr 30", "weaksup-infonce-attr 30"});
  CHECK(checkpoints.size() == plan.size());  // a file of its own for each run
  CHECK(transfer_key_columns(p).back() == "cond_clusters");
  // A clustering method needs a count; a count is a whole number.
  json none = p;
  none.erase("cond_clusters");
  CHECK_THROWS_AS(plan_transfer_runs(none), InvalidArgument);
  json fractional = p;
  fractional["cond_clusters"] = {3, 2.5};
  CHECK_THROWS_AS(plan_transfer_runs(fractional), InvalidArgument);
  // One count: not an axis; the count in the clustering method's runs alone.
  json one = p;
  one["cond_clusters"] = 10;
  const auto single = plan_transfer_runs(one);
  REQUIRE(single.size() == 2 * 2);
  for (const auto& run : single) {
    CHECK(run.options.cond_clusters == (run.parameters.text("method") == std::optional<std::string>("weaksup-infonce-attr") ? 10 : 0));
  }
}

TEST_CASE("A transfer definition sweeps SupCon's number of positives, 0 (all) included, for supcon only", "[experiments][methods]") {
  json p = {{"methods", {"supcon"}}, {"hierarchies", {"identity"}}, {"encoders", {"cnn"}}, {"seeds", "0:1"}, {"alpha", 0.5},
            {"tau", 0.1}, {"positives", {0, 1, 5}}, {"train_images", 256}, {"test_images", 200}, {"epochs", 1}};
  const auto plan = plan_transfer_runs(p);
  REQUIRE(plan.size() == 2 * 3);
  std::set<std::string> values, checkpoints;
  for (const auto& run : plan) {
    const std::string n = run.parameters.text("positives").value_or("");
    values.insert(n);  // 0 too: the swept value is in its key column even where it is the default
    CHECK(format_number(run.options.train.loss_options.positives) == n);
    CHECK(run_loss_options(run.options).positives == run.options.train.loss_options.positives);
    checkpoints.insert(run_checkpoint_path("out", "x", run.parameters, false));
  }
  CHECK(values == std::set<std::string>{"0", "1", "5"});
  CHECK(checkpoints.size() == plan.size());
  CHECK(transfer_key_columns(p).back() == "positives");
  json other = p;
  other["methods"] = {"supcon", "spread"};
  CHECK_THROWS_WITH(plan_transfer_runs(other), Catch::Contains("sweeps positives, which the method spread does not use"));
  // Outside a sweep, the default leaves no column: every earlier cached supcon run keeps its row.
  CHECK_FALSE(training_parameters("supcon", method_options(TrainRunOptions{}, training_method("supcon"))).text("positives"));
}

TEST_CASE("A transfer definition sweeps CCL-K's RBF bandwidth as an axis of its own key", "[experiments][methods]") {
  json p = {{"methods", {"cclk-weak-attr-rbf", "cclk-weak-attr-laplacian"}}, {"hierarchies", {"fmnist-2"}}, {"encoders", {"cnn"}},
            {"seeds", "0:1"}, {"alpha", 0.5}, {"tau", 0.5}, {"cond_bandwidth", {0.1, 1, 10}}, {"train_images", 256},
            {"test_images", 200}, {"epochs", 1}};
  const auto plan = plan_transfer_runs(p);
  REQUIRE(plan.size() == 2 * 2 * 3);  // seeds x methods x bandwidths
  std::set<std::string> bandwidths, checkpoints;
  for (const auto& run : plan) {
    bandwidths.insert(run.parameters.text("cond_bandwidth").value_or(""));
    CHECK(run.parameters.text("cond_bandwidth") == std::optional<std::string>(format_number(run.options.train.loss_options.cond_bandwidth)));
    checkpoints.insert(run_checkpoint_path("out", "x", run.parameters));
  }
  CHECK(bandwidths == std::set<std::string>{"0.1", "1", "10"});
  CHECK(checkpoints.size() == plan.size());  // every run its own file
  const auto key = transfer_key_columns(p);
  CHECK(std::find(key.begin(), key.end(), "cond_bandwidth") != key.end());
  // One bandwidth: the key every cached transfer run was written with.
  json one = p;
  one["cond_bandwidth"] = 2;
  CHECK(transfer_key_columns(one).size() == key.size() - 1);
  CHECK(plan_transfer_runs(one).front().options.train.loss_options.cond_bandwidth == 2.0);
  // A method that reads no bandwidth would train the same run again for each value.
  json cosine = p;
  cosine["methods"] = {"cclk-weak-attr-rbf", "cclk-weak-attr-cosine"};
  CHECK_THROWS_WITH(plan_transfer_runs(cosine), Catch::Contains("sweeps cond_bandwidth, which the method cclk-weak-attr-cosine does not use"));
  cosine["methods"] = {"supcon"};
  CHECK_THROWS_AS(plan_transfer_runs(cosine), InvalidArgument);
}

TEST_CASE("Method labels and titles reach gnuplot only as escaped text", "[cli][experiments]") {
  // Every label the experiments draw goes through GnuplotFigure::text: a quoted string that a
  // plot line accepts whatever the label holds (quotes, a backquote, system(), a line break).
  for (const auto& m : training_methods()) {
    GnuplotFigure fig(100, 100);
    CAPTURE(m.label);
    CHECK_NOTHROW(fig.line("plot $s0 using 1:2 title " + GnuplotFigure::text(m.label + ", fmnist-2")));
  }
  GnuplotFigure fig(100, 100);
  CHECK_NOTHROW(fig.line("set title " + GnuplotFigure::text("Table 9's `rm -rf x` system(\"ls\")\nsecond line")));
  CHECK(GnuplotFigure::text("Table 9's text") == "'Table 9''s text' noenhanced");
}

TEST_CASE("A robustness definition plans every data set, method and seed as geomsim robustness options", "[cli][experiments][robustness]") {
  const json p = {{"datasets", {"undersampled", "spurious"}},
                  {"methods", {"erm", "thanos", "cclk-fair"}},
                  {"seeds", "3:4"},
                  {"train_per_subclass", 30},
                  {"lr", 0.05},
                  {"model", "cnn"},
                  {"threads", 1}};
  const RobustnessPlan plan = plan_robustness_runs(p);
  // cclk-fair needs the background attribute, which only the spurious set has.
  REQUIRE(plan.runs.size() == (2 + 3) * 2u);
  REQUIRE(plan.skipped == std::vector<std::string>{"cclk-fair on undersampled"});
  std::set<std::string> keys;
  for (const auto& run : plan.runs) {
    const RobustnessRunOptions& o = run.options;
    CAPTURE(run.label);
    // The definition's values reach the command's options; the rest are its defaults.
    CHECK(o.dataset.train_per_subclass == 30);
    CHECK(o.run.end.learning_rate == 0.05);
    CHECK(o.run.model.kind == "cnn");
    CHECK(o.threads == 1);
    CHECK(o.quiet);
    CHECK(o.run.end.epochs == RobustnessRunOptions{}.run.end.epochs);
    CHECK(o.dataset.validation_per_subclass == RobustnessRunOptions{}.dataset.validation_per_subclass);
    // The seed draws the data set and the training.
    CHECK(o.dataset.seed == o.run.seed);
    // The cache row holds the key and every option, as the command's --json records them.
    CHECK(run.parameters.text("dataset") == o.dataset.dataset);
    CHECK(run.parameters.text("method") == o.run.method);
    CHECK(run.parameters.text("seed") == std::to_string(o.run.seed));
    CHECK(run.parameters.text("train_per_subclass") == std::optional<std::string>("30"));
    CHECK(run.parameters.number("lr") == 0.05);
    // ... and the results version of the code (run_identity.hpp).
    CHECK(run.parameters.text(kResultsVersionColumn) == std::to_string(kTrainingResultsVersion));
    CHECK(run.parameters.cells().size() == robustness_parameters(o).size() + 1);
    CHECK(keys.insert(*run.parameters.text("dataset") + " " + *run.parameters.text("method") + " " + *run.parameters.text("seed")).second);
  }
  CHECK(plan.runs.front().options.dataset.dataset == "undersampled");
  CHECK(plan.runs.front().options.run.method == "erm");
  CHECK(plan.runs.front().options.run.seed == 3u);
  CHECK(plan.runs.back().options.run.method == "cclk-fair");
  CHECK(plan.runs.back().options.run.seed == 4u);

  const auto with = [&](const std::string& key, const json& value) {
    json q = p;
    q[key] = value;
    return q;
  };
  CHECK_THROWS_WITH(plan_robustness_runs(with("methods", {"thanos", "dro"})), Catch::Contains("names the method 'dro'"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("datasets", {"waterbirds"})), Catch::Contains("names the data set 'waterbirds'"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("epoch", 3)), Catch::Contains("'epoch', which the robustness kind does not know"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("data_seed", 3)), Catch::Contains("'data_seed', which the robustness kind does not know"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("epochs", 2.5)), Catch::Contains("parameter 'epochs' must be a whole number"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("lr", "fast")), Catch::Contains("parameter 'lr' must be a number"));
  // What the command itself would refuse is refused before any training, naming its option.
  CHECK_THROWS_WITH(plan_robustness_runs(with("rare_fraction", 0.0)), Catch::Contains("rare-fraction"));
  CHECK_THROWS_WITH(plan_robustness_runs(with("epochs", 0)), Catch::Contains("epochs"));
}

TEST_CASE("A robustness run's parameters read back into the options they came from", "[experiments][robustness]") {
  RobustnessRunOptions o;
  o.dataset.dataset = "spurious";
  o.run.method = "thanos";
  o.dataset.train_per_subclass = 17;
  o.dataset.rare_fraction = 0.125;
  o.dataset.seed = 11;
  o.run.end.learning_rate = 0.03;
  o.run.clustering.pca_components = 5;
  o.run.seed = 9;
  o.data = "/somewhere";
  const json parameters = robustness_parameters(o);
  const RobustnessRunOptions back = robustness_options_from_parameters(parameters);
  CHECK(robustness_parameters(back) == parameters);  // every key, one table both ways
  CHECK(back.dataset.train_per_subclass == 17);
  CHECK(back.dataset.seed == 11u);
  CHECK(back.run.end.learning_rate == 0.03);
  CHECK(back.data == "/somewhere");
  // A subset sets only its keys; the base keeps the rest.
  const RobustnessRunOptions partial = robustness_options_from_parameters(json{{"lr", 0.5}}, o);
  CHECK(partial.run.end.learning_rate == 0.5);
  CHECK(partial.run.clustering.pca_components == 5);

  const auto refused = [](const json& values, const std::string& phrase) {
    try {
      (void)robustness_options_from_parameters(values);
      FAIL("accepted " << values.dump());
    } catch (const InvalidArgument& e) {
      CHECK(e.argument() == "definition");
      CHECK_THAT(e.requirement(), Catch::Contains(phrase));
    }
  };
  refused(json{{"epochs", 2.5}}, "'epochs' must be a whole number");
  refused(json{{"seed", -1}}, "'seed' must be a whole number >= 0");
  refused(json{{"lr", "fast"}}, "'lr' must be a number");
  refused(json{{"model", 3}}, "'model' must be a string");
  refused(json{{"learning_rate", 0.1}}, "'learning_rate' is not a robustness option");
  refused(json::array({1, 2}), "must be a JSON object");
}

TEST_CASE("The methods table reads alpha and tau from the loss registry, as the cached runs recorded them", "[experiments]") {
  // Which methods' cache rows carry alpha and tau: the committed caches were written with these.
  const std::set<std::string> with_alpha = {"spread", "thanos", "spread+gauto", "thanos-per-class", "spread-corrected"};
  const std::set<std::string> without_tau = {"cauto", "gauto", "cauto-per-class", "ce"};
  for (const auto& m : training_methods()) {
    CAPTURE(m.name);
    CHECK(m.uses_alpha == (with_alpha.count(m.name) == 1));
    CHECK(m.uses_tau == (without_tau.count(m.name) == 0));
  }
}

TEST_CASE("A definition's notes quote the claims' verdicts instead of typing them", "[cli][experiments][claims]") {
  ClaimOutcome a, b, c, d;
  a.verdict = Verdict::holds;
  a.measured = "+1.0 points";
  b.verdict = Verdict::within_noise;
  c.verdict = Verdict::does_not_hold;
  d.verdict = Verdict::untestable;
  d.measured = "runs missing";
  const std::vector<Selector> scopes = {{{"dataset", "undersampled"}}, {{"dataset", "spurious"}}};
  const std::vector<ClaimOutcome> outcomes = {a, b, c, d};  // claims 1, 2 on undersampled, then on spurious
  CHECK(expand_claim_references("F1: {verdict 2 undersampled}, {verdict 1 spurious} ({measured 2 spurious}); worst {measured 1 undersampled}.",
                                outcomes, 2, scopes) == "F1: within noise, does not hold (runs missing); worst +1.0 points.");
  CHECK(expand_claim_references("no references, 10 %", outcomes, 2, scopes) == "no references, 10 %");
  CHECK(expand_claim_references("{verdict 2}", {a, b}, 2, {{}}) == "within noise");
  CHECK_THROWS_WITH(expand_claim_references("{verdict 2}", outcomes, 2, scopes), Catch::Contains("needs the scope's value"));
  CHECK_THROWS_WITH(expand_claim_references("{verdict 3 spurious}", outcomes, 2, scopes), Catch::Contains("names no claim: the definition has 2"));
  CHECK_THROWS_WITH(expand_claim_references("{verdict 0 spurious}", outcomes, 2, scopes), Catch::Contains("names no claim"));
  CHECK_THROWS_WITH(expand_claim_references("{verdict 1x spurious}", outcomes, 2, scopes), Catch::Contains("names no claim"));
  CHECK_THROWS_WITH(expand_claim_references("{verdict 1 celeba}", outcomes, 2, scopes), Catch::Contains("names no scope"));
  CHECK_THROWS_WITH(expand_claim_references("{sd 1 spurious}", outcomes, 2, scopes), Catch::Contains("is not a claim reference"));
  CHECK_THROWS_WITH(expand_claim_references("{}", outcomes, 2, scopes), Catch::Contains("is not a claim reference"));
  CHECK_THROWS_WITH(expand_claim_references("{verdict}", outcomes, 2, scopes), Catch::Contains("needs a claim's number"));
  CHECK_THROWS_WITH(expand_claim_references("a {verdict 1 spurious", outcomes, 2, scopes), Catch::Contains("at character 3 is never closed"));
  // validate_claims refuses a bad reference before any training.
  json definition = {{"claims", json::array({claim("at_least")})}, {"notes", "x {verdict 2}"}};
  definition["claims"][0]["a"] = {{"method", "x"}};
  definition["claims"][0]["value"] = 0.5;
  CHECK_THROWS_WITH(validate_claims(definition, {"method"}), Catch::Contains("{verdict 2} names no claim: the definition has 1"));
  definition["notes"] = "x {verdict 1} and {measured 1 cnn}";
  CHECK_NOTHROW(validate_claims(definition, {"method"}));
}

// The script holds the body once per image (PNG, SVG, the one- and two-column PDFs): an entry
// that the legend has once appears 4 times.
TEST_CASE("The trained spread figure is a house-style line figure with the paper's PDFs and one legend entry per curve",
          "[experiments][figures]") {
  ScratchFolder dir("spread-figure");
  SpreadFigure f;
  f.title = "Spread against α";
  f.subtitle = "fmnist-2 (K = 2), cnn, d = 128, τ = 0.5, 20 epochs, seeds 0:2";
  f.K = 2;
  f.alphas = {0.95, 0.2, 0.5, 0.8};  // any order: drawn in increasing alpha
  f.trained = {0.9, 0.1, 0.3, 0.6};
  f.trained_sd = {0.01, 0.02, 0.03, 0.04};
  f.trained_legend = "trained L_spread, mean ± sd";
  f.simulated = {1.0, 0.0, 0.2, 0.7};
  f.simulated_legend = "simulated optimum";
  f.references = {{"SupCon (no α)", 0.05}};
  const GnuplotFigure figure = spread_figure(f);
  REQUIRE(figure.has_paper_sizes());
  figure.render(dir("fig"));
  for (const char* file : {"fig.png", "fig.svg", "fig.gp"}) CHECK(!file_bytes(dir(file)).empty());
  CHECK(file_bytes(dir("fig.pdf")).rfind("%PDF-", 0) == 0);
  CHECK(file_bytes(dir("fig-2col.pdf")).rfind("%PDF-", 0) == 0);
  const std::string script = file_bytes(dir("fig.gp"));
  // Three curves drawn (the trained one with error bars), each with one legend entry; the
  // threshold K/(2K-1) = 0.667 lies inside the swept alphas: one entry for it; no theory entry.
  CHECK(matches(script, std::regex("\\$c\\d+ using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle")) == 4);
  CHECK(matches(script, std::regex("with linespoints lt [123] lw 2 pi \\d+ notitle")) == 12);
  CHECK(occurrences(script, "NaN with linespoints lt") == 3 * 4);
  for (const char* entry : {"'trained L_spread, mean ± sd'", "'simulated optimum'", "'SupCon (no α)'", "'α = K/(2K−1)'"}) {
    CHECK(occurrences(script, std::string("title ") + entry) == 4);
  }
  CHECK(occurrences(script, "title 'theory'") == 0);
  CHECK(occurrences(script, "d = 128, τ = 0.5, 20 epochs, seeds 0:2") > 0);
  // The points in increasing alpha.
  CHECK(script.find("0.2 0.1 0.02\n0.5 0.3 0.03\n0.8 0.6 0.04\n0.95 0.9 0.01") != std::string::npos);

  SECTION("no entry for what is not drawn") {
    f.K = 4;  // 4/7 = 0.571 lies outside
    f.alphas = {0.7, 0.9}, f.trained = {0.5, 0.8}, f.trained_sd = {}, f.simulated = {0.6, 0.9}, f.references = {};
    spread_figure(f).render(dir("two"));
    const std::string two = file_bytes(dir("two.gp"));
    CHECK(occurrences(two, "NaN with linespoints lt") == 2 * 4);
    CHECK(occurrences(two, "α = K/(2K−1)") == 0);
    CHECK(occurrences(two, "set arrow from") == 0);
    CHECK(file_bytes(dir("two-2col.pdf")).rfind("%PDF-", 0) == 0);
  }
}

TEST_CASE("A scatter line figure draws markers only, and a curve without points has no legend entry", "[experiments][figures]") {
  LineFigureSpec spec;
  spec.title = "σ_f(z) against p(z|y)";
  spec.subtitle = "t = 1";
  spec.xlabel = "p(z|y)";
  spec.ylabel = "σ_f(z)";
  spec.scatter = true;
  spec.legend = {"SupCon", "L_spread", "not drawn"};
  LinePanel panel;
  LineCurve supcon, spread, not_drawn;
  supcon.style = 1, spread.style = 2, not_drawn.style = 3;
  supcon.points = {{0.1, 0.5}, {0.9, 0.6}}, supcon.errors = {0.05, 0.02};
  spread.points = {{0.2, 0.4}};
  panel.curves = {supcon, spread, not_drawn};
  spec.panels = {panel};
  ScratchFolder dir("scatter-figure");
  line_figure(spec).render(dir("s"));
  const std::string script = file_bytes(dir("s.gp"));
  CHECK(occurrences(script, "using 1:2:3 with yerrorbars lt 1 lw 1 dt 1 ps 0 notitle") == 4);
  CHECK(occurrences(script, "using 1:2 with points lt 1 lw 2 notitle") == 4);
  CHECK(occurrences(script, "using 1:2 with points lt 2 lw 2 notitle") == 4);
  CHECK(occurrences(script, "linespoints") == 0);
  CHECK(occurrences(script, "NaN with points lt") == 2 * 4);
  CHECK(occurrences(script, "'not drawn'") == 0);
  CHECK(file_bytes(dir("s.pdf")).rfind("%PDF-", 0) == 0);
  CHECK(file_bytes(dir("s-2col.pdf")).rfind("%PDF-", 0) == 0);
  // Error bars that do not match the points are a programming error.
  spec.panels[0].curves[0].errors = {0.1};
  CHECK_THROWS_AS(line_figure(spec), std::logic_error);
}

TEST_CASE("A run trains on the rows of its subset of one pool, whatever its initialisation", "[experiments][coreset]") {
  // Debian's Fashion-MNIST (dataset-fashion-mnist), as the pages train on.
  TrainRunOptions o = tiny_mlp_run("ce", 200, 50, 11);
  o.data.hierarchy = "identity";
  o.train.epochs = 2;
  o.data_seed = 4;
  // Every class in the subset, so that the evaluation's mean classifier has each one.
  const LabelledSplit pool = load_split(o.data, true, o.train_samples, 4, "train-samples");
  std::vector<int64_t> rows;
  std::set<int64_t> classes;
  for (int64_t i = 0; i < pool.coarse.size(0) && rows.size() < 90; i += 2) {
    rows.push_back(i);
    classes.insert(pool.coarse[i].item<int64_t>());
  }
  REQUIRE(classes.size() == 10);
  o.train_subset = rows;
  int epochs_seen = 0;
  o.train.on_epoch_end = [&](const train::EpochSummary& e, train::Encoder& encoder, torch::nn::Linear& head) {
    ++epochs_seen;
    CHECK(e.epoch == epochs_seen);
    CHECK(train::classifier_logits(encoder, head, pool.images).sizes() == torch::IntArrayRef({200, 10}));
  };
  TrainedRun run = train_run(o);
  CHECK(epochs_seen == 2);
  // The training images are the subset's rows of the data seed's pool, in the subset's order.
  const auto index = torch::tensor(rows, torch::kLong);
  CHECK(torch::equal(run.training.images, pool.images.index_select(0, index)));
  CHECK(torch::equal(run.training.fine, pool.fine.index_select(0, index)));
  CHECK(run.train_embeddings.size(0) == 90);
  // The "ce" head is returned, and scored on the test images.
  REQUIRE(run.result.classifier);
  REQUIRE(run.evaluation.head_accuracy);
  const auto predicted = train::classifier_logits(run.encoder, run.result.classifier, run.test.images).argmax(1);
  const double accuracy = predicted.eq(run.test.coarse).to(torch::kDouble).mean().item<double>();
  CHECK(*run.evaluation.head_accuracy == Approx(accuracy));
  // A row outside the pool, or twice: refused, naming the subset.
  TrainRunOptions outside = o;
  outside.train_subset = {0, 200};
  CHECK_THROWS_MATCHES(train_run(outside), InvalidArgument, Catch::Matchers::Predicate<InvalidArgument>([](const InvalidArgument& e) {
                         return e.argument() == "train-subset";
                       }));
  TrainRunOptions twice = o;
  twice.train_subset = {3, 5, 3};
  CHECK_THROWS_AS(train_run(twice), InvalidArgument);
}

TEST_CASE("A run's id digests its parameters and what the page measures, in any column order", "[experiments][run_identity]") {
  RunRow a;
  set_results_version(a);
  a.set("method", "supcon");
  a.set("seed", "1");
  RunRow b;  // the same parameters, set in another order, with a swept parameter it does not read
  b.set("seed", "1");
  b.set("cond_clusters", "none");
  b.set("method", "supcon");
  set_results_version(b);
  stamp_run_id(a, "");
  stamp_run_id(b, "");
  CHECK(a.text(kResultsVersionColumn) == std::to_string(kTrainingResultsVersion));
  CHECK(a.text(kRunIdColumn)->size() == 16);
  CHECK(a.text(kRunIdColumn) == b.text(kRunIdColumn));
  const std::string id = *a.text(kRunIdColumn);
  stamp_run_id(a, "");  // its own id is not a parameter
  CHECK(a.text(kRunIdColumn) == id);
  RunRow measured = a;
  stamp_run_id(measured, "strata");
  CHECK(measured.text(kRunIdColumn) != id);
  RunRow other = a;
  other.set("seed", "2");
  stamp_run_id(other, "");
  CHECK(other.text(kRunIdColumn) != id);
  // Lengths are hashed too: moving a character between a column and its value is another run.
  RunRow x, y;
  x.set("ab", "c");
  y.set("a", "bc");
  stamp_run_id(x, "");
  stamp_run_id(y, "");
  CHECK(x.text(kRunIdColumn) != y.text(kRunIdColumn));
}

TEST_CASE("Another page's cache gives a run with the same id, version and parameters, spelled as this page spells them",
          "[experiments][run_identity]") {
  ScratchFolder dir("other-pages");
  const auto planned = [](const std::string& seed, const std::string& clusters) {
    RunRow row;
    set_results_version(row);
    row.set("method", "cclk-weak");
    row.set("seed", seed);
    if (!clusters.empty()) row.set("cond_clusters", clusters);
    stamp_run_id(row, "");
    return row;
  };
  {
    RunCache kernels(dir("cclk-kernels.csv"), {"method", "seed"});
    RunRow done = planned("0", "");
    done.set("fine_probe", 0.625);
    kernels.add(done);
    RunRow stale = planned("1", "");
    stale.set(kResultsVersionColumn, "1");  // another version's row under the same id
    stale.set("fine_probe", 0.5);
    kernels.add(stale);
  }
  std::ofstream(dir("figure.csv")) << "run_id,x\n\"quoted\",1\n";  // not a run table: skipped
  std::ofstream(dir("notes.csv")) << "seed,x\n0,1\n";                 // no run ids: not read
  RunCache own(dir("insufficient-samples.csv"), {"method", "seed", "cond_clusters"});
  OtherPagesRuns others(dir.root.string(), own.path());
  const auto hit = others.find(planned("0", "none"));
  REQUIRE(hit);
  CHECK(hit->number("fine_probe") == 0.625);
  CHECK(hit->text("cond_clusters") == std::optional<std::string>("none"));  // this page's key cell
  CHECK(others.tables_read() == 1);
  CHECK_FALSE(others.find(planned("1", "none")));  // the other page's row is of another version
  CHECK_FALSE(others.find(planned("2", "none")));  // no page has it
  RunRow clustered = planned("0", "5");            // other parameters: another run
  CHECK_FALSE(others.find(clustered));
  // A page never takes its own rows as another's.
  OtherPagesRuns itself(dir.root.string(), dir("cclk-kernels.csv"));
  CHECK_FALSE(itself.find(planned("0", "")));
}

TEST_CASE("A run with the joint head trains it on the clean labels, scores it, and records it in its row", "[experiments][joint_head]") {
  // Debian's Fashion-MNIST, as the pages train on: SupCon on 40 % noisy labels, the head on the
  // clean labels of 20 % of the images (seed 000 E.3.2).
  TrainRunOptions o = tiny_mlp_run("supcon", 128, 50, 3);
  o.label_noise = 0.4;
  o.train.head = {1.0, 0.1, 0.05, 0.2};
  TrainedRun run = train_run(o);
  REQUIRE(run.result.classifier);
  CHECK(run.result.classifier->options.out_features() == 2);  // fmnist-2's coarse classes
  REQUIRE(run.evaluation.head_accuracy);
  const auto predicted = train::classifier_logits(run.encoder, run.result.classifier, run.test.images).argmax(1);
  CHECK(*run.evaluation.head_accuracy == predicted.eq(run.test.coarse).to(torch::kDouble).mean().item<double>());
  const json out = train_run_json(o, run);
  CHECK(out["parameters"]["head_weight"] == 1.0);
  CHECK(out["parameters"]["head_labelled_share"] == 0.2);
  CHECK(out["evaluation"].contains("coarse_accuracy_head"));
  // The cache row: the four settings with the head; none without it (the rows of before the head).
  const RunRow with = training_parameters("supcon", o);
  CHECK(with.text("head_weight") == "1");
  CHECK(with.text("head_label_smoothing") == "0.1");
  CHECK(with.text("head_dropout") == "0.05");
  CHECK(with.text("head_labelled_share") == "0.2");
  const RunRow without = training_parameters("supcon", method_options(TrainRunOptions{}, training_method("supcon")));
  for (const char* column : {"head_weight", "head_label_smoothing", "head_dropout", "head_labelled_share"}) {
    CHECK_FALSE(without.text(column));
  }
  // The head's cells enter the run id: a run with the head is never taken for one without it.
  RunRow a = training_parameters("supcon", o), b = training_parameters("supcon", method_options(o, training_method("supcon")));
  TrainRunOptions no_head = o;
  no_head.train.head.weight = 0;
  RunRow c = training_parameters("supcon", no_head);
  stamp_run_id(a, "");
  stamp_run_id(b, "");
  stamp_run_id(c, "");
  CHECK(a.text(kRunIdColumn) == b.text(kRunIdColumn));
  CHECK(a.text(kRunIdColumn) != c.text(kRunIdColumn));
  // A definition's parameters set it, for the methods with a contrastive batch loss only (ce is
  // that head, cAuto has its own); the trainer refuses it on the others.
  const TrainRunOptions defined = base_training_options({{"train_images", 64}, {"test_images", 10}, {"epochs", 1},
                                                         {"head_weight", 0.5}, {"head_labelled_share", 0.2}});
  CHECK(defined.train.head.weight == 0.5);
  CHECK(defined.train.head.labelled_share == 0.2);
  CHECK(method_options(defined, training_method("spread")).train.head.weight == 0.5);
  CHECK(method_options(defined, training_method("thanos")).train.head.weight == 0.5);
  for (const char* method : {"ce", "cauto", "gauto"}) CHECK_FALSE(method_options(defined, training_method(method)).train.head.enabled());
  TrainRunOptions on_ce = defined;
  on_ce.train.loss = "ce";
  CHECK_THROWS_WITH(validate(on_ce), Catch::Contains("--loss ce is that head alone"));
  TrainRunOptions bad = o;
  bad.train.head.labelled_share = 0;
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("(0, 1]"));
}

TEST_CASE("Under corruption a run's own head is scored as the probe is, on the same corrupted images", "[experiments][joint_head]") {
  // Seed 001 scores cross-entropy by its own softmax head (Table 2, Fig. 5): the head's accuracy
  // and calibration under each corruption, beside the probe's; a run without a head has only the
  // probe's.
  TrainRunOptions o = tiny_mlp_run("ce", 96, 40, 5);
  o.train.epochs = 1;
  o.corruptions = true;
  TrainedRun run = train_run(o);
  REQUIRE(run.result.classifier);
  REQUIRE(run.evaluation.corruption);
  REQUIRE(run.evaluation.head_corruption);
  const train::CorruptionEvaluation& head = *run.evaluation.head_corruption;
  // Clean, the head's accuracy is head_accuracy; under corruption, the head's argmax on the
  // corrupted test images (corrupt_images at the run's seed), averaged over the corruptions.
  CHECK(head.clean_accuracy == Approx(*run.evaluation.head_accuracy).margin(1e-12));
  const auto accuracy_at = [&](int severity) {
    double sum = 0.0;
    for (const auto& corruption : train::image_corruption_names()) {
      const auto images = train::corrupt_images(run.test.images, corruption, severity, o.train.seed);
      const auto predicted = train::classifier_logits(run.encoder, run.result.classifier, images).argmax(1);
      sum += predicted.eq(run.test.coarse).to(torch::kDouble).mean().item<double>();
    }
    return sum / static_cast<double>(train::image_corruption_names().size());
  };
  CHECK(head.accuracy[0] == Approx(accuracy_at(1)).margin(1e-12));
  CHECK(head.accuracy[4] == Approx(accuracy_at(5)).margin(1e-12));
  double error = 0.0;
  for (double a : head.accuracy) error += 1.0 - a;
  CHECK(head.mean_error == Approx(error / static_cast<double>(head.accuracy.size())).margin(1e-12));
  for (double e : head.ece) CHECK((e >= 0.0 && e <= 1.0));
  // The row: the probe's columns, and the head's beside them under head_.
  RunRow row;
  add_transfer_metrics(run, row);
  CHECK(*row.number("head_corruption_error") == Approx(head.mean_error).margin(1e-12));
  CHECK(*row.number("head_ece_rise") == Approx(head.ece[4] - head.clean_ece).margin(1e-12));
  CHECK(*row.number("corruption_error") == Approx(run.evaluation.corruption->mean_error).margin(1e-12));
  // Without a head: the probe's scores only.
  TrainRunOptions plain = o;
  plain.train.loss = "supcon";
  TrainedRun without = train_run(plain);
  CHECK(without.evaluation.corruption);
  CHECK_FALSE(without.evaluation.head_corruption);
}
