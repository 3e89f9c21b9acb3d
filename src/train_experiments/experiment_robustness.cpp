// The "robustness" kind: seed 004's Table 4 (§5, worst-group robustness without group labels)
// on geomsim's two robustness data sets (train/robustness_data.hpp), through the robustness
// library (train/robustness_methods.hpp) exactly as `geomsim robustness` runs one method.
// Every (data set, method, seed) is one run of robustness_run(); a seed draws both the data set
// (its data seed) and the training. Parameters:
//   datasets (undersampled, spurious), methods (erm, jtt, george, supcon, thanos,
//   groupdro-oracle, cclk-fair; cclk-fair only where the data set has a background), seeds,
//   and any option of `geomsim robustness` by its JSON name (train_per_subclass, epochs,
//   encoder_epochs, ...; robustness_parameter_names()), which overrides that command's default.
// The definition's "paper_table" gives the paper's table ("table": its name as the headings show
// it, such as "Table 4" for seed 004's or "Table 3" for seed 000's, "columns": its data sets,
// "analogue": the column each of ours stands for, "rows": method -> {"subgroup_f1": [...],
// "worst_group": [...]}, and optionally "titles": method -> the paper's name of its row, where it is
// not seed 004's, such as "Sohoni et al. [5]" and "L_SC" in seed 000's) and is shown beside the
// measured cells, its numbers with the one decimal both tables print.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <set>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/train_experiments/robustness_run.hpp"
#include "geomsim/train_experiments/run_identity.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

const std::vector<std::string> kRobustnessAxes = {"dataset", "method"};
const std::vector<std::string> kRobustnessKey = {"dataset", "method", "seed"};

// The paper's rows, in Table 4's order, and what our methods are called there.
const std::vector<std::pair<std::string, std::string>> kPaperRows = {
    {"george", "Sohoni et al. [43]"}, {"jtt", "JTT [34]"}, {"supcon", "SupCon"}, {"thanos", "THANOS"}, {"groupdro-oracle", "GroupDRO"}};

// A number of the paper's tables as they print it (one decimal: 74.0, not 74).
std::string paper_number(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", value);
  return buffer;
}

std::string method_title(const std::string& method) { return train::robustness_method(method).title; }

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

// The command's options from its parameters (robustness_parameters' keys are its option names
// with '-' for '_'), so that a run of the definition is exactly `geomsim robustness` with those
// options.
RobustnessRunOptions options_from_parameters(const json& parameters, int threads) {
  RobustnessRunOptions o = robustness_options_from_parameters(parameters);
  o.threads = threads;
  o.quiet = true;
  return o;
}

}  // namespace

RobustnessPlan plan_robustness_runs(const json& p) {
  RobustnessPlan plan;
  plan.datasets = string_list(p, "datasets");
  plan.methods = string_list(p, "methods");
  plan.seeds = seed_list(p, "seeds");
  const auto known_methods = train::robustness_method_names();
  for (const auto& m : plan.methods) {
    if (std::find(known_methods.begin(), known_methods.end(), m) == known_methods.end()) {
      throw InvalidArgument("definition", "names the method '" + m + "'; the robustness methods are " + join_words(known_methods));
    }
  }
  const auto& known_datasets = train::robustness_dataset_names();
  for (const auto& d : plan.datasets) {
    if (std::find(known_datasets.begin(), known_datasets.end(), d) == known_datasets.end()) {
      throw InvalidArgument("definition", "names the data set '" + d + "'; the robustness data sets are " + join_words(known_datasets));
    }
  }
  const int threads = p.contains("threads") ? static_cast<int>(integer_parameter(p, "threads", 0)) : 0;
  // The parameters every run shares: the command's defaults, overridden by the definition.
  json shared = robustness_parameters(RobustnessRunOptions{});
  for (const auto& [key, value] : p.items()) {
    if (key == "datasets" || key == "methods" || key == "seeds" || key == "threads") continue;
    if (key == "dataset" || key == "method" || key == "seed" || key == "data_seed" || !shared.contains(key)) {
      throw InvalidArgument("definition", "has the parameter '" + key + "', which the robustness kind does not know (datasets, methods, "
                                          "seeds, threads, and the options of geomsim robustness but dataset, method, seed and data_seed)");
    }
    shared[key] = value;
  }
  (void)robustness_options_from_parameters(shared);  // every value of the right type, checked once by the run's own table
  for (const auto& dataset : plan.datasets) {
    for (const auto& method : plan.methods) {
      if (train::robustness_method(method).conditions_on_attribute && !train::robustness_dataset_has_attribute(dataset)) {
        plan.skipped.push_back(method + " on " + dataset);
        continue;
      }
      for (const auto seed : plan.seeds) {
        json chosen = shared;
        chosen["dataset"] = dataset;
        chosen["method"] = method;
        chosen["seed"] = seed;
        chosen["data_seed"] = seed;
        RobustnessRun run{options_from_parameters(chosen, threads), RunRow{}, method + " " + dataset + " seed " + std::to_string(seed)};
        set_results_version(run.parameters);
        // Everything the run would refuse is refused now, before anything is trained.
        validate(run.options);
        for (const char* key : {"dataset", "method", "seed"}) run.parameters.set(key, key == std::string("seed") ? std::to_string(seed) : chosen.at(key).get<std::string>());
        const json parameters = robustness_parameters(run.options);  // items() must not outlive it
        for (const auto& [key, value] : parameters.items()) {
          run.parameters.set(key, value.is_string()           ? value.get<std::string>()
                                  : value.is_number_integer() ? std::to_string(value.get<int64_t>())
                                                              : format_number(value.get<double>()));
        }
        plan.runs.push_back(std::move(run));
      }
    }
  }
  return plan;
}

namespace {

// The metrics of a finished run, from robustness_run's JSON.
void add_robustness_metrics(const json& out, RunRow& row) {
  const json& test = out.at("test");
  row.set("worst_group", test.at("worst_group_accuracy").get<double>());
  row.set("average", test.at("average_accuracy").get<double>());
  row.set("average_minus_worst", test.at("average_accuracy").get<double>() - test.at("worst_group_accuracy").get<double>());
  std::string worst_name = test.at("worst_group_name").get<std::string>();
  std::replace(worst_name.begin(), worst_name.end(), ',', ';');
  row.set("worst_group_name", worst_name);
  for (const auto& g : test.at("per_group")) {
    if (!g.at("accuracy").is_null()) row.set("test_group_" + std::to_string(g.at("group").get<int>()), g.at("accuracy").get<double>());
  }
  const json& validation = out.at("validation");
  row.set("validation_worst_group", validation.at("worst_group_accuracy").get<double>());
  row.set("validation_average", validation.at("average_accuracy").get<double>());
  const json& f1 = out.at("subgroup_f1");
  if (!f1.is_null()) {
    // JTT's pseudo-groups are class x first-model error, not clusters: scored apart.
    const std::string prefix = f1.at("pseudo_groups") == "clusters" ? "subgroup_f1" : "error_set_f1";
    row.set(prefix, f1.at("train").get<double>());
    row.set(prefix + "_validation", f1.at("validation").get<double>());
  }
  if (!out.at("clusters").is_null()) row.set("clusters", static_cast<double>(out.at("clusters").at("total").get<int64_t>()));
  if (!out.at("jtt_error_set_size").is_null()) row.set("jtt_error_set", static_cast<double>(out.at("jtt_error_set_size").get<int64_t>()));
  row.set("selection_groups", static_cast<double>(out.at("selection_groups").get<int64_t>()));
  row.set("best_epoch", static_cast<double>(out.at("stages").at("end_model").at("best_epoch").get<int64_t>()));
  row.set("seconds", out.at("seconds").get<double>());
  row.set("device", out.at("device").get<std::string>());
  row.set("world_size", static_cast<double>(out.at("world_size").get<int64_t>()));  // the data-parallel ranks it trained on
  add_run_environment(row);
}

std::string counts_text(const std::vector<int64_t>& counts) {
  std::string out;
  for (const auto c : counts) out += (out.empty() ? "" : " / ") + std::to_string(c);
  return out;
}

std::string paper_cell(const json& paper, const std::string& method, const std::string& metric, const std::string& dataset) {
  if (paper.is_null() || !paper.contains("rows") || !paper.at("rows").contains(method)) return "—";
  const json& row = paper.at("rows").at(method);
  if (!row.contains(metric) || !paper.contains("analogue") || !paper.at("analogue").contains(dataset)) return "—";
  const auto& columns = paper.at("columns");
  const std::string column = paper.at("analogue").at(dataset).get<std::string>();
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (columns[i] == column && i < row.at(metric).size()) return paper_number(row.at(metric)[i].get<double>()) + " (" + column + ")";
  }
  return "—";
}

void check_paper_table(const json& paper) {
  const auto bad = [](const std::string& what) { throw InvalidArgument("definition", "\"paper_table\": " + what); };
  if (!paper.is_object() || !paper.contains("columns") || !paper.at("columns").is_array() || !paper.contains("rows") ||
      !paper.at("rows").is_object()) {
    bad("needs \"columns\" (a list of the paper's data sets) and \"rows\" (method -> {metric: [numbers]})");
  }
  if (!paper.contains("table") || !paper.at("table").is_string() || paper.at("table").get<std::string>().empty()) {
    bad("needs \"table\", the paper's table as the headings name it (\"Table 4\")");
  }
  for (const auto& c : paper.at("columns")) {
    if (!c.is_string()) bad("\"columns\" must hold names");
  }
  for (const auto& [method, row] : paper.at("rows").items()) {
    for (const auto& [metric, values] : row.items()) {
      if (metric != "subgroup_f1" && metric != "worst_group") bad(method + ": metrics are subgroup_f1 and worst_group");
      if (!values.is_array() || values.size() != paper.at("columns").size()) bad(method + " " + metric + ": one number per column");
      for (const auto& v : values) {
        if (!v.is_number()) bad(method + " " + metric + ": one number per column");
      }
    }
  }
  if (paper.contains("titles")) {
    if (!paper.at("titles").is_object()) bad("\"titles\" must map methods to the paper's names of their rows");
    for (const auto& [method, title] : paper.at("titles").items()) {
      if (!title.is_string() || title.get<std::string>().empty()) bad("\"titles\": " + method + "'s must be a name");
      if (!paper.at("rows").contains(method)) bad("\"titles\": " + method + " has no row");
    }
  }
  if (paper.contains("analogue")) {
    if (!paper.at("analogue").is_object()) bad("\"analogue\" must map our data sets to its columns");
    for (const auto& [dataset, column] : paper.at("analogue").items()) {
      const auto& columns = paper.at("columns");
      if (!column.is_string() || std::find(columns.begin(), columns.end(), column) == columns.end()) bad(dataset + "'s analogue is not a column");
    }
  }
}

}  // namespace

void run_robustness_experiment(const json& definition, const ExperimentContext& context) {
  const json& p = definition.at("parameters");
  RobustnessPlan planned = plan_robustness_runs(p);
  std::vector<RobustnessRun>& plan = planned.runs;
  const auto& datasets = planned.datasets;
  const auto& methods = planned.methods;
  const auto& seeds = planned.seeds;
  const auto& skipped = planned.skipped;
  if (plan.empty()) throw InvalidArgument("definition", "plans no run");
  validate_claims(definition, kRobustnessAxes);
  const json paper = definition.value("paper_table", json());
  if (!paper.is_null()) check_paper_table(paper);

  RunCache cache(context.stem() + ".csv", kRobustnessKey);
  std::vector<RunRow*> planned_rows;
  for (auto& run : plan) planned_rows.push_back(&run.parameters);
  const RunChoice choice = choose_runs(planned_rows, std::vector<bool>(plan.size(), false), cache, context, "robustness");
  const auto& cached = choice.cached;
  const auto& chosen = choice.chosen;
  const std::size_t to_train = choice.to_train;
  std::vector<RunRow> rows;
  std::size_t trained = 0;
  double trained_seconds = 0.0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (!chosen[i]) {
      if (cached[i]) rows.push_back(*cached[i]);
      continue;
    }
    const RobustnessRun& run = plan[i];
    RobustnessRunOptions options = run.options;
    options.run.device = context.device;
    options.run.device_explicit = context.device_given;
    options.run.sync_every = context.sync_every;
    const json out = robustness_run(options, context.job);
    ++trained;
    if (!context.job.is_main()) continue;  // every rank trained the run; rank 0 caches and reports it
    RunRow row = run.parameters;
    add_robustness_metrics(out, row);
    cache.add(row);
    trained_seconds += out.at("seconds").get<double>();
    const double eta = trained_seconds / static_cast<double>(trained) * static_cast<double>(to_train - trained);
    std::cerr << "geomsim experiment " << context.name << ": run " << trained << "/" << to_train << " (" << run.label << ") done in "
              << format_number(std::round(out.at("seconds").get<double>() * 10) / 10) << " s, worst group "
              << format_number(std::round(row.number("worst_group").value_or(0) * 1000) / 1000) << ", ETA " << clock_text(eta) << "\n";
    rows.push_back(std::move(row));
  }
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the runs: the page waits for them all
  const RunTable table(rows, kRobustnessAxes);

  ExperimentPage page = begin_page(definition, context);
  const RobustnessRunOptions& o = plan.front().options;
  const train::RobustnessOptions& settings = o.run;
  std::string data_text;
  for (const auto& dataset : datasets) {
    train::RobustnessDataOptions d = o.dataset;
    d.dataset = dataset;
    data_text += " **" + dataset + "**: groups (training / validation / test) " +
                 counts_text(train::robustness_group_counts(d, train::Split::train)) + "; " +
                 counts_text(train::robustness_group_counts(d, train::Split::validation)) + "; " +
                 counts_text(train::robustness_group_counts(d, train::Split::test)) + ".";
  }
  page.paragraph("**Setup.** The two data sets of `geomsim robustness` (docs/tutorials/robustness.md), drawn per seed (the seed is both "
                 "the data seed and the training seed), " + std::to_string(o.dataset.train_per_subclass) + " training, " +
                 std::to_string(o.dataset.validation_per_subclass) + " validation and " + std::to_string(o.dataset.test_per_subclass) +
                 " test images per Fashion-MNIST label (undersampled: Bag at " + format_number(o.dataset.rare_fraction) +
                 " in training; spurious: the frame agrees with the class for " + format_number(o.dataset.agreement) +
                 " of training)." + data_text + " End model: " + settings.model.kind + " (width " + std::to_string(settings.model.width) + ", embedding " +
                 std::to_string(settings.model.embedding_dim) + "), SGD lr " + format_number(settings.end.learning_rate) + ", momentum " +
                 format_number(settings.end.momentum) + ", L2 " + format_number(settings.end.l2) + ", " + std::to_string(settings.end.epochs) +
                 " epochs, batch " + std::to_string(settings.end.batch_size) + "; Group DRO η " + format_number(settings.end.dro.step_size) + ", C " +
                 format_number(settings.end.dro.adjustment) + "; JTT T = " + std::to_string(settings.jtt_epochs) + ", λ_up = " +
                 std::to_string(settings.jtt_upweight) + "; encoders (SupCon, THANOS, CCL-K) " + std::to_string(settings.encoder.epochs) +
                 " epochs, τ " + format_number(settings.encoder.loss_options.tau) + ", α " + format_number(settings.encoder.loss_options.alpha) + "; clustering: " +
                 std::to_string(settings.clustering.pca_components) + " principal components, k ≤ " + std::to_string(settings.clustering.max_clusters) +
                 " by silhouette (one cluster below " + format_number(settings.clustering.min_silhouette) + "). Seeds " + format_seed_list(seeds) +
                 ". Cells are mean ± sd over seeds, in %." +
                 (skipped.empty() ? std::string() : " Not run: " + join_words(skipped) + " (that data set has no background)."));
  const double seconds = total_seconds(rows);
  page.paragraph("**Measured wall time.** " + std::to_string(rows.size()) + " runs, " + clock_text(seconds) + " (" +
                 format_number(std::round(seconds)) + " s) in all (each run's wall time as measured when it ran, summed).");

  page.heading("Labels each method saw");
  std::vector<std::vector<std::string>> label_rows;
  for (const auto& m : methods) {
    const train::LabelsSeen& seen = train::robustness_method(m).labels;
    label_rows.push_back({method_title(m), seen.representation.empty() ? "—" : seen.representation, seen.end_model, seen.model_selection});
  }
  page.table({"method", "first stage", "end model", "model selection"}, label_rows);

  for (const auto& dataset : datasets) {
    const std::string analogue = paper.is_null() ? std::string() : paper.value("analogue", json::object()).value(dataset, std::string());
    page.heading((paper.is_null() ? std::string("Measured") : paper.at("table").get<std::string>() + " analogue") + ": " + dataset +
                 (analogue.empty() ? std::string() : " (beside the paper's " + analogue + ")"));
    std::vector<std::vector<std::string>> result_rows;
    for (const auto& m : methods) {
      const Selector where = {{"dataset", dataset}, {"method", m}};
      if (table.matching(where).empty()) continue;
      const auto cell = [&](const std::string& metric, double scale, int decimals) { return cell_text(table, where, metric, scale, decimals); };
      std::string worst_names;
      std::set<std::string> seen;
      for (const auto& r : table.matching(where)) {
        const std::string name = r.text("worst_group_name").value_or("");
        if (!name.empty() && seen.insert(name).second) worst_names += (worst_names.empty() ? "" : "; ") + name;
      }
      result_rows.push_back({method_title(m), cell("subgroup_f1", 100, 1), paper_cell(paper, m, "subgroup_f1", dataset),
                             cell("worst_group", 100, 1), paper_cell(paper, m, "worst_group", dataset), cell("average", 100, 1),
                             cell("clusters", 1, 1), worst_names, cell("seconds", 1, 0)});
    }
    page.table({"method", "subgroup F1 %", "the paper", "worst-group acc. %", "the paper", "average acc. %", "clusters", "worst groups seen",
                "s per run"},
               result_rows);
  }
  if (!paper.is_null()) {
    page.heading("The paper's " + paper.at("table").get<std::string>());
    std::vector<std::string> header = {"method", "metric"};
    for (const auto& c : paper.at("columns")) header.push_back(c.get<std::string>());
    // Every row the definition gives: seed 004's in Table 4's order, then the others (seed 000's
    // L_spread) in the order of the definition's methods, each under the paper's own name.
    std::vector<std::pair<std::string, std::string>> paper_methods;
    const json titles = paper.value("titles", json::object());
    const auto paper_title = [&](const std::string& method, const std::string& fallback) {
      return titles.contains(method) ? titles.at(method).get<std::string>() : fallback;
    };
    for (const auto& [method, title] : kPaperRows) {
      if (paper.at("rows").contains(method)) paper_methods.push_back({method, paper_title(method, title)});
    }
    for (const auto& m : methods) {
      const bool listed = std::any_of(paper_methods.begin(), paper_methods.end(), [&](const auto& e) { return e.first == m; });
      if (!listed && paper.at("rows").contains(m)) paper_methods.push_back({m, paper_title(m, method_title(m))});
    }
    std::vector<std::vector<std::string>> paper_rows;
    for (const auto& metric : {std::string("subgroup_f1"), std::string("worst_group")}) {
      for (const auto& [method, title] : paper_methods) {
        if (!paper.at("rows").at(method).contains(metric)) continue;
        std::vector<std::string> r = {title, metric == "subgroup_f1" ? "sub-group recovery (F1)" : "worst-group"};
        for (const auto& v : paper.at("rows").at(method).at(metric)) r.push_back(paper_number(v.get<double>()));
        paper_rows.push_back(r);
      }
    }
    page.table(header, paper_rows);
    if (paper.contains("caption")) page.paragraph(paper.at("caption").get<std::string>());
  }
  std::vector<Selector> scopes;
  for (const auto& dataset : datasets) scopes.push_back({{"dataset", dataset}});
  end_page(page, definition, context, table, scopes, {},
           "Every run, with all its parameters, per-group test accuracies, validation accuracies, clusters and subgroup F1: [`" +
               context.name + ".csv`](" + context.name + ".csv).");
  std::cerr << "geomsim experiment " << context.name << ": " << rows.size() << " runs, page written to " << context.stem() << ".md\n";
}

}  // namespace geomsim::train_experiments
