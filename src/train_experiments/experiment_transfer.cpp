// The "transfer" kind: coarse-to-fine transfer of trained encoders (seed 004 Table 3, the
// ablations of Table 10, and transfer against the temperature), over a grid of methods,
// hierarchies, encoders, seeds, alpha, tau, augmentation on/off and CCL-K's RBF or Laplacian
// bandwidth.
//
// Parameters: methods, hierarchies, encoders, seeds (lists), alpha, tau (lists; several alpha
// or tau need methods that use them), without_augmentation (methods also trained with the
// augmentations off; the axis "augmentation" is then true/false), train_images, test_images,
// epochs, recipe, embedding_dim, width (and base_training_options' others); cond_bandwidth may be
// a list, swept like alpha and tau for methods whose conditioning kernel is rbf or laplacian (the
// axis "cond_bandwidth", seed 002's Table 7), and so may lr (the axis "lr", seed 001's Fig. 4);
// probe_labels adds a probe fit on a share of the training labels (fine_probe_labelled). "heatmaps"
// (experiment_runs.hpp) adds cosine heatmaps of chosen runs. Top level, beside
// "parameters": "claims" (experiment_claims.hpp), "paper_table" ({"columns": "...", "values":
// {method: "...", "method,axis=value": "..."}}: the paper's numbers beside ours; a key with an
// axis value names that row only, e.g. "spread,augmentation=false"), "figure" ({"x": "tau" or "alpha",
// "metric": "fine_probe"}: the metric against a swept axis, one line per method and hierarchy).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/figures/line_figure.hpp"
#include "geomsim/metrics/coreset_selection.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/train/data/coloured_backgrounds.hpp"
#include "geomsim/train/training/evaluation.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

const std::vector<std::string> kTransferAxes = {"method", "hierarchy", "encoder", "alpha", "tau", "augmentation"};
const std::vector<std::string> kTransferKey = {"method", "hierarchy", "encoder", "seed", "alpha", "tau", "augmentation"};

struct Metric {
  std::string column;
  const char* title;
  double scale;
  int decimals;
};
const std::vector<Metric> kMetrics = {
    {"coarse_accuracy", "coarse acc. %", 100, 1}, {"fine_probe", "c2f linear probe %", 100, 1},
    {"fine_mean", "c2f mean clf. %", 100, 1},     {"spread", "s_f(y)", 1, 3},
    {"sigma_over_spread", "σ_f/s_f mean", 1, 3},  {"sigma_over_spread_max", "σ_f/s_f max", 1, 3},
    {"subgroup_f1", "subgroup F1", 1, 3},         {"seconds", "s per run", 1, 0},
};
// With "corruptions": the probe under corruption (train::evaluate_corruptions), by severity.
const std::vector<Metric> kCorruptionAccuracy = {
    {"fine_probe", "clean", 100, 1},           {"corrupt_accuracy_s1", "severity 1", 100, 1},
    {"corrupt_accuracy_s2", "2", 100, 1},      {"corrupt_accuracy_s3", "3", 100, 1},
    {"corrupt_accuracy_s4", "4", 100, 1},      {"corrupt_accuracy_s5", "5", 100, 1},
    {"corruption_error", "corruption error", 100, 1},
};
const std::vector<Metric> kCorruptionCalibration = {
    {"clean_ece", "clean", 1, 3}, {"ece_s1", "severity 1", 1, 3}, {"ece_s2", "2", 1, 3}, {"ece_s3", "3", 1, 3},
    {"ece_s4", "4", 1, 3},        {"ece_s5", "5", 1, 3},          {"ece_rise", "rise to 5", 1, 3},
};

// The same scores of a run's own softmax head (train::evaluate_head_corruptions), where a run has
// one: its columns head_..., its clean accuracy head_accuracy.
std::vector<Metric> head_metrics(std::vector<Metric> metrics) {
  for (auto& metric : metrics) metric.column = metric.column == "fine_probe" ? "head_accuracy" : "head_" + metric.column;
  return metrics;
}

// With "probe_labels": the probe on a share of the training labels beside the one on all.
const std::vector<Metric> kLabelledProbe = {
    {"fine_probe_labelled", "linear probe, share of the labels %", 100, 1},
    {"fine_probe", "linear probe, all labels %", 100, 1},
};

// With "colour_backgrounds": the colour the embedding keeps beside the probe (seed 002 Table 3).
const std::vector<Metric> kColour = {
    {"fine_probe", "linear probe %", 100, 1},
    {"colour_mse", "colour MSE (0-255 scale)", 1, 0},
};

// "probe_labels": the share of the training labels a second fine probe sees (seed 000 §5.3's end
// model, "training with 20% labels to cross entropy"), each seed's share the same images for
// every method; none without the parameter. InvalidArgument("definition") outside (0, 1].
std::optional<double> probe_label_share(const json& p) {
  if (!p.contains("probe_labels")) return std::nullopt;
  const double share = number_parameter(p, "probe_labels");
  if (!(share > 0.0 && share <= 1.0)) throw InvalidArgument("definition", "probe_labels must be in (0, 1], got " + format_number(share));
  return share;
}

// The fine labels' linear probe fit on a seeded `share` of the training embeddings (at least one
// image per class on average), scored on the test images: the metric fine_probe_labelled.
double labelled_probe_accuracy(const TrainedRun& run, double share, std::uint64_t seed) {
  const auto n = static_cast<std::size_t>(run.train_embeddings.size(0));
  const auto wanted = std::max<long long>(run.hierarchy.num_fine(), std::llround(share * static_cast<double>(n)));
  const auto rows = random_coreset(n, std::min<std::size_t>(n, static_cast<std::size_t>(wanted)), seed * 977 + 13);
  const auto index = torch::tensor(std::vector<int64_t>(rows.begin(), rows.end()), torch::kLong);
  return train::linear_probe_accuracy(run.train_embeddings.index_select(0, index), run.training.fine.index_select(0, index),
                                      run.test_embeddings, run.test.fine, 300, 0.05, seed);
}

// The training options a definition may sweep as a list of numbers: CCL-K's RBF or Laplacian
// bandwidth (seed 002's Table 7), the learning rate (seed 001's Fig. 4), the number of k-means
// clusters of a discretised conditioning variable (seed 002's Table 8 and Fig. 3), SupCon's
// number of positives (seed 001's Table 3) and the label noise rate (seed 000's Fig. 4 left). Each swept one is
// an axis for the claims and the page, and in the cache key only when swept, so that every
// cached run keeps its key.
struct Sweepable {
  const char* name;   // the parameter, the axis and the key column
  const char* label;  // in a run's label
  void (*set)(TrainRunOptions&, double);
};
const std::vector<Sweepable> kSweepable = {
    {"cond_bandwidth", "bandwidth", [](TrainRunOptions& o, double v) { o.train.loss_options.cond_bandwidth = v; }},
    {"lr", "lr",
     [](TrainRunOptions& o, double v) { o.train.learning_rate = v; }},
    {"cond_clusters", "clusters", [](TrainRunOptions& o, double v) { o.cond_clusters = cluster_count(v); }},
    {"positives", "positives", [](TrainRunOptions& o, double v) { o.train.loss_options.positives = v; }},
    {"label_noise", "noise", [](TrainRunOptions& o, double v) { o.label_noise = v; }},
};

const Sweepable& sweepable(const std::string& name) {
  return *std::find_if(kSweepable.begin(), kSweepable.end(), [&](const Sweepable& s) { return name == s.name; });
}

// The values of `name` a definition sweeps (empty unless it lists more than one).
std::vector<double> swept_values(const json& p, const std::string& name) {
  if (!p.contains(name)) return {};
  auto values = number_list(p, name);
  return values.size() > 1 ? values : std::vector<double>{};
}

// The swept options' names, in kSweepable's order.
std::vector<std::string> swept_options(const json& p) {
  std::vector<std::string> out;
  for (const auto& option : kSweepable) {
    if (!swept_values(p, option.name).empty()) out.push_back(option.name);
  }
  return out;
}

// The parameters with each sweep's first value: what base_training_options reads (each run of a
// sweep then sets its own).
json with_first_values(const json& p) {
  json single = p;
  for (const auto& name : swept_options(p)) single[name] = swept_values(p, name).front();
  return single;
}

// The axes, with the swept options.
std::vector<std::string> transfer_axes(const json& p) {
  std::vector<std::string> axes = kTransferAxes;
  for (const auto& name : swept_options(p)) axes.push_back(name);
  return axes;
}

std::string clock_minutes(double seconds) { return clock_text(seconds) + " (" + format_number(std::round(seconds)) + " s)"; }

// The swept axes (more than one value) other than those in `except`.
std::vector<std::string> swept(const RunTable& table, const std::vector<std::string>& except) {
  std::vector<std::string> out;
  for (const auto& axis : table.axes()) {
    if (std::find(except.begin(), except.end(), axis) == except.end() && table.values(axis).size() > 1) out.push_back(axis);
  }
  return out;
}

// The metric against a swept axis in the house style (figures/line_figure.hpp): one curve per
// method and hierarchy (mean ± sd over seeds as error bars), the settings they share in the
// subtitle, and the paper's PDFs beside the page's PNG.
void draw_sweep(const json& spec, const RunTable& table, const ExperimentContext& context, const std::string& encoder,
                const std::string& fixed, ExperimentPage& page) {
  const std::string x = spec.value("x", std::string("tau"));
  const std::string metric = spec.value("metric", std::string("fine_probe"));
  const double scale = spec.value("scale", 100.0);
  LineFigureSpec figure;
  LinePanel panel;
  std::vector<std::size_t> levels;  // the curves of methods that do not read x
  std::map<std::string, std::set<std::string>> chosen;  // the values the curves hold each other axis at
  for (const auto& method : table.values("method", {{"encoder", encoder}})) {
    for (const auto& hierarchy : table.values("hierarchy", {{"encoder", encoder}, {"method", method}})) {
      LineCurve curve;
      std::vector<std::vector<double>> rows;
      bool level = false;  // a method that does not read x (one run across the sweep): a level line
      for (const auto& value : table.values(x, {{"encoder", encoder}, {"method", method}, {"hierarchy", hierarchy}})) {
        Selector where = {{"encoder", encoder}, {"method", method}, {"hierarchy", hierarchy}, {x, value}};
        for (const auto& axis : table.axes()) {
          if (axis != x && axis != "encoder" && axis != "method" && axis != "hierarchy") {
            where.emplace_back(axis, table.values(axis, where).front());
            chosen[axis].insert(where.back().second);
          }
        }
        const auto s = table.cell(where, metric);
        if (!s) continue;
        if (value == "none") {
          level = true;
          for (const double end : {-1.0, 1.0}) rows.push_back({end, s->mean * scale, s->sd * scale});
        } else {
          rows.push_back({std::stod(value), s->mean * scale, s->sd * scale});
        }
      }
      if (level) levels.push_back(panel.curves.size());
      if (rows.empty()) continue;
      std::sort(rows.begin(), rows.end());
      for (const auto& row : rows) {
        curve.points.emplace_back(row[0], row[1]);
        curve.errors.push_back(row[2]);
      }
      if (static_cast<int>(figure.legend.size()) == kMaxLineCurves) {
        throw InvalidArgument("definition", "figure: more than " + std::to_string(kMaxLineCurves) + " curves (methods × hierarchies) for " + encoder);
      }
      figure.legend.push_back(training_method(method).label + ", " + hierarchy);
      curve.style = static_cast<int>(figure.legend.size());
      panel.curves.push_back(curve);
    }
  }
  if (panel.curves.empty()) return;
  // The level lines span the others' x range (their two points were placeholders at -1 and 1).
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (std::size_t c = 0; c < panel.curves.size(); ++c) {
    if (std::find(levels.begin(), levels.end(), c) != levels.end()) continue;
    for (const auto& point : panel.curves[c].points) {
      low = std::min(low, point.first);
      high = std::max(high, point.first);
    }
  }
  for (const std::size_t c : levels) {
    if (!(low <= high)) break;  // no curve reads x: the level lines keep their placeholder span
    panel.curves[c].points.front().first = low;
    panel.curves[c].points.back().first = high;
    figure.legend[c] += " (reads no " + x + ")";
  }
  std::string subtitle = encoder;
  for (const auto& [axis, values] : chosen) {
    // An axis one method does not use reads "none" there; name the value the others hold.
    std::set<std::string> used;
    for (const auto& v : values) {
      if (v != "none" && !v.empty()) used.insert(v);
    }
    if (used.size() != 1) continue;
    if (axis == "augmentation") subtitle += *used.begin() == "true" ? ", augmented" : ", no augmentation";
    else subtitle += ", " + (axis == "tau" ? std::string("τ") : axis == "alpha" ? std::string("α") : axis) + " = " + *used.begin();
  }
  figure.title = context.title;
  figure.subtitle = subtitle + (fixed.empty() ? "" : ", " + fixed) + " (± sd)";
  figure.xlabel = x == "tau" ? "τ" : x == "alpha" ? "α" : x;
  // The first table's title of the metric: kMetrics' before the tables that repeat one of its columns.
  std::string ylabel;
  for (const auto& metrics : {kMetrics, kLabelledProbe}) {
    for (const auto& m : metrics) {
      if (ylabel.empty() && metric == m.column && scale == m.scale) ylabel = m.title;
    }
  }
  if (ylabel.empty()) ylabel = metric + " (×" + format_number(scale) + ")";
  figure.ylabel = ylabel;
  figure.panels = {panel};
  const std::string file = context.name + "-" + encoder;
  line_figure(figure).render((std::filesystem::path(context.out_dir) / file).string());
  page.image(file + ".png", ylabel + " against " + figure.xlabel + ", " + encoder + ": mean ± sd over seeds");
}

// What a method's encoder trained on, as the table "Labels each method saw" names it: a method
// that reads the coarse labels as they are (no correction of its own) reads the noisy ones where
// its runs have label noise (a label_noise above 0 in any of them).
std::string labels_seen_text(const TrainingMethod& method, const std::vector<std::string>& noise_rates) {
  const std::string& seen = method.labels_seen;
  const bool noisy = std::any_of(noise_rates.begin(), noise_rates.end(), [](const std::string& v) { return !v.empty() && std::stod(v) > 0; });
  if (!noisy || seen.rfind("coarse", 0) != 0 || seen.find("noisy") != std::string::npos) return seen;
  const std::string rest = seen.substr(6);
  if (rest.empty()) return "coarse, noisy (uncorrected)";
  if (rest.size() > 3 && rest.compare(0, 2, " (") == 0 && rest.back() == ')') return "coarse, noisy (uncorrected; " + rest.substr(2);
  return "coarse, noisy (uncorrected)" + rest;
}

// What the joint cross-entropy head adds to a method's labels, where its runs trained one
// (head_weight > 0): the clean coarse labels, of a share of the images below 1.
std::string joint_head_text(const std::vector<std::string>& weights, const std::vector<std::string>& shares) {
  const bool head = std::any_of(weights.begin(), weights.end(), [](const std::string& v) { return !v.empty() && std::stod(v) > 0; });
  if (!head) return "";
  std::string share;
  for (const auto& v : shares) {
    if (!v.empty() && std::stod(v) < 1) share += (share.empty() ? "" : ", ") + format_number(100 * std::stod(v)) + " %";
  }
  return "; the clean coarse labels" + (share.empty() ? std::string() : " of " + share + " of the images") +
         " in the joint cross-entropy head";
}

}  // namespace

std::vector<std::string> transfer_key_columns(const json& p) {
  std::vector<std::string> key = kTransferKey;
  for (const auto& name : swept_options(p)) key.push_back(name);
  return key;
}

std::vector<PlannedRun> plan_transfer_runs(const json& p) {
  const auto methods = string_list(p, "methods");
  const auto hierarchies = string_list(p, "hierarchies");
  const auto encoders = string_list(p, "encoders");
  const auto seeds = seed_list(p, "seeds");
  const auto alphas = number_list(p, "alpha");
  const auto taus = number_list(p, "tau");
  const auto without_augmentation = p.contains("without_augmentation") ? string_list(p, "without_augmentation") : std::vector<std::string>{};
  for (const auto& m : without_augmentation) {
    if (std::find(methods.begin(), methods.end(), m) == methods.end()) {
      throw InvalidArgument("definition", "without_augmentation names " + m + ", which is not among the methods");
    }
  }
  const std::vector<std::string> sweeps = swept_options(p);
  const TrainRunOptions base = base_training_options(with_first_values(p));
  const bool swept_clusters = std::find(sweeps.begin(), sweeps.end(), "cond_clusters") != sweeps.end();
  for (const auto& m : methods) {
    const TrainingMethod& method = training_method(m);
    if (clusters_attributes(method) && base.cond_clusters < 1) {
      throw InvalidArgument("definition", "names the method " + m + ", which conditions " + method.loss +
                                              " on k-means clusters of its attributes: give cond_clusters (K >= 1)");
    }
    if (std::find(sweeps.begin(), sweeps.end(), "cond_bandwidth") != sweeps.end()) {
      const std::string kernel = method_options(base, method).train.loss_options.cond_kernel;
      if (!train::loss_entry(method.loss).needs.condition || (kernel != "rbf" && kernel != "laplacian")) {
        throw InvalidArgument("definition", "sweeps cond_bandwidth, which the method " + m +
                                                " does not use (only CCL-K with an rbf or laplacian kernel reads it)");
      }
    }
    if (std::find(sweeps.begin(), sweeps.end(), "positives") != sweeps.end() && !train::loss_entry(method.loss).reads("positives")) {
      throw InvalidArgument("definition", "sweeps positives, which the method " + m + " does not use (only supcon reads it)");
    }
    if (alphas.size() > 1 && !method.uses_alpha) {
      throw InvalidArgument("definition", "sweeps alpha, which the method " + m + " does not use (it would train the same run again)");
    }
    if (taus.size() > 1 && !method.uses_tau) {
      throw InvalidArgument("definition", "sweeps tau, which the method " + m + " does not use");
    }
  }
  for (const auto& h : hierarchies) train::resolve_hierarchy(h);  // refuses unknown names now, not after hours
  // Every combination of the swept options' values (one empty combination when none is swept).
  std::vector<std::vector<std::pair<std::string, double>>> sweep_points{{}};
  for (const auto& name : sweeps) {
    std::vector<std::vector<std::pair<std::string, double>>> next;
    for (const auto& point : sweep_points) {
      for (const double value : swept_values(p, name)) {
        next.push_back(point);
        next.back().emplace_back(name, value);
      }
    }
    sweep_points = std::move(next);
  }
  std::vector<PlannedRun> plan;
  for (const auto& encoder : encoders) {
    for (const auto seed : seeds) {
      for (const auto& hierarchy : hierarchies) {
        for (const auto& m : methods) {
          for (const double alpha : alphas) {
            for (const double tau : taus) {
              for (const bool augment : {true, false}) {
                if (!augment && std::find(without_augmentation.begin(), without_augmentation.end(), m) == without_augmentation.end()) continue;
                // A method that clusters nothing trains once across a cond_clusters sweep (at the
                // points of its first count), "none" there.
                const bool once = swept_clusters && !clusters_attributes(training_method(m));
                for (const auto& point : sweep_points) {
                  if (once && std::any_of(point.begin(), point.end(), [&](const auto& e) {
                        return e.first == "cond_clusters" && e.second != swept_values(p, "cond_clusters").front();
                      })) {
                    continue;
                  }
                  TrainRunOptions o = run_options(base, m, encoder, seed, hierarchy, alpha, tau);
                  o.no_augmentation = !augment;
                  for (const auto& [name, value] : point) {
                    if (!(once && name == "cond_clusters")) sweepable(name).set(o, value);
                  }
                  PlannedRun run(o, training_parameters(m, o), m + " " + hierarchy + " " + encoder + " seed " + std::to_string(seed));
                  // Every swept value in its key column, also where training_parameters leaves a
                  // default out (positives 0); "none" for a method that trains once across it.
                  for (const auto& [name, value] : point) {
                    run.parameters.set(name, once && name == "cond_clusters" ? std::string("none") : format_number(value));
                  }
                  if (alphas.size() > 1) run.label += " alpha " + format_number(alpha);
                  if (taus.size() > 1) run.label += " tau " + format_number(tau);
                  for (const auto& [name, value] : point) {
                    if (!(once && name == "cond_clusters")) run.label += std::string(" ") + sweepable(name).label + " " + format_number(value);
                  }
                  if (!augment) run.label += " no augmentation";
                  plan.push_back(std::move(run));
                }
              }
            }
          }
        }
      }
    }
  }
  if (const auto share = probe_label_share(p)) {
    for (auto& run : plan) run.parameters.set("probe_labels", format_number(*share));
  }
  return plan;
}

std::string run_checkpoint_path(const std::string& out_dir, const std::string& name, const RunRow& parameters,
                                bool swept_lr) {
  std::string file;
  for (const auto& column : kTransferKey) file += (file.empty() ? "" : "_") + parameters.text(column).value_or("");
  // rbf and laplacian runs: their bandwidth too (a sweep's runs differ in it alone)
  if (const auto bandwidth = parameters.text("cond_bandwidth")) file += "_b" + *bandwidth;
  if (const auto clusters = parameters.text("cond_clusters")) file += "_k" + *clusters;
  if (const auto positives = parameters.text("positives")) file += "_p" + *positives;
  if (const auto noise = parameters.text("label_noise")) file += "_n" + *noise;
  if (swept_lr) file += "_lr" + parameters.text("lr").value_or("");
  // A model of another results version is not this version's run: kept apart, never resumed.
  if (const auto version = parameters.text(kResultsVersionColumn)) file += "_v" + *version;
  for (char& c : file) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_' && c != '+') c = '-';
  }
  return (std::filesystem::path(out_dir) / "checkpoints" / name / (file + ".pt")).string();
}

namespace {

// What the page of a transfer experiment is drawn from: the definition, its lists, the runs.
struct TransferPage {
  const json& definition;
  const json& p;  // its parameters
  const RunTable& table;
  const std::vector<RunRow>& rows;
  std::vector<std::string> methods, hierarchies, encoders, axes;
  std::vector<std::uint64_t> seeds;
  const TrainRunOptions& base;
  std::optional<double> probe_share;
};

// The setup: data, budget, recipe, what the encoders were trained on, coloured backgrounds, and
// the measured wall time.
void write_transfer_setup(ExperimentPage& page, const TransferPage& d) {
  const json& p = d.p;
  const RunTable& table = d.table;
  const TrainRunOptions& base = d.base;
  const auto& methods = d.methods;
  const auto& hierarchies = d.hierarchies;
  const auto& seeds = d.seeds;
  const auto& rows = d.rows;
  const train::TrainOptions& t = base.train;
  // What the encoders were trained on: the coarse labels, unless a method trains on none or on
  // other supervision (seed 002's attributes), which the table "Labels each method saw" names.
  const bool all_coarse = std::all_of(methods.begin(), methods.end(), [](const std::string& m) {
    return training_method(m).labels_seen.rfind("coarse", 0) == 0;
  });
  std::string trained_on = all_coarse ? "trained on the coarse labels" : "trained on what the table \"Labels each method saw\" below names";
  if (std::find(hierarchies.begin(), hierarchies.end(), "identity") != hierarchies.end()) {
    trained_on += " (under the identity hierarchy the coarse labels are the 10 fine ones: the probe is scored on the labels the encoder was trained on)";
  }
  const std::vector<std::string> noise_rates = table.values("label_noise");
  if (std::any_of(noise_rates.begin(), noise_rates.end(), [](const std::string& v) { return !v.empty() && std::stod(v) > 0; })) {
    trained_on += ", made noisy at each run's label_noise (each label replaced, with that chance, by one of the other labels; "
                  "the probes keep the clean ones)";
  }
  const std::vector<double> rates = swept_values(p, "lr");
  std::string lr_text = "lr " + format_number(t.learning_rate);
  if (!rates.empty()) {
    lr_text = "lr";
    for (std::size_t i = 0; i < rates.size(); ++i) lr_text += (i == 0 ? " " : ", ") + format_number(rates[i]);
    lr_text += " (swept)";
  }
  page.paragraph("**Setup.** Fashion-MNIST, " + std::to_string(base.train_samples) + " training images per run (a seeded "
                 "subset that differs between seeds; the imbalanced hierarchy keeps its subclass proportions), " +
                 std::to_string(base.test_samples) + " test images, " + std::to_string(base.train.epochs) + " epochs, recipe " +
                 (base.recipe.empty() ? "geomsim" : base.recipe) + " (AdamW, " + lr_text + ", weight decay " + format_number(t.weight_decay) + ", batch " + std::to_string(t.batch_size) +
                 ", cosine schedule), embedding dimension " + std::to_string(base.model.embedding_dim) + ", width " +
                 std::to_string(base.model.width) + "; seeds " + format_seed_list(seeds) + ". Each encoder is " + trained_on +
                 " and frozen; the linear probe and the mean classifier are then fit on the training images' "
                 "fine labels (the subclasses) and scored on the test images. Cells are mean ± sd over seeds.");
  if (base.data.colour_backgrounds) {
    page.paragraph("**Coloured backgrounds** (seed 002's ColorMNIST, §4.2 and Appendix F.4, on Fashion-MNIST; "
                   "data/coloured_backgrounds.hpp): each image is composed as (1 - x) c, its background taking a colour c "
                   "and its garment darkening to black. A training image's colour is its class's (the hue class/10, moved by "
                   "up to ±" + format_number(train::kColourJitter) + " per channel) with chance " +
                   format_number(*base.data.colour_backgrounds) + ", else uniform in [0, 1]³; every test image's is uniform, "
                   "so a representation that reads the class from the colour pays for it there. The colour MSE is a ridge "
                   "regression's (lambda " + format_number(train::kColourRidgeLambda) + " per sample) from the frozen training "
                   "embeddings to their colours on the 0-255 scale, scored on the test images: higher keeps less colour "
                   "(uniform colours have variance 5419 per channel).");
  }
  const double seconds = total_seconds(rows);
  page.paragraph("**Measured wall time.** " + std::to_string(rows.size()) + " runs, " + clock_minutes(seconds) +
                 " of training and evaluation in all (each run's wall time as measured when it ran, summed; on " +
                 std::to_string(torch::get_num_threads()) + (torch::get_num_threads() == 1 ? " thread)." : " threads)."));

}

// The labels each method saw in training (and the probes'), with the noise and the joint head.
void write_labels_seen(ExperimentPage& page, const TransferPage& d) {
  const RunTable& table = d.table;
  const auto& methods = d.methods;
  page.heading("Labels each method saw");
  std::vector<std::vector<std::string>> label_rows;
  for (const auto& m : methods) {
    const TrainingMethod& method = training_method(m);
    label_rows.push_back({method.label,
                          labels_seen_text(method, table.values("label_noise", {{"method", m}})) +
                              joint_head_text(table.values("head_weight", {{"method", m}}),
                                              table.values("head_labelled_share", {{"method", m}})),
                          "fine, only in the probes on the frozen embedding"});
  }
  page.table({"method", "labels in training", "subclass labels"}, label_rows);

}

// One row per method, hierarchy and combination of the other axes, a column per metric.
void write_metric_table(ExperimentPage& page, const TransferPage& d, const std::string& encoder, const std::string& heading,
                        const std::vector<Metric>& metrics) {
  const RunTable& table = d.table;
  const auto& methods = d.methods;
  const auto& hierarchies = d.hierarchies;
  const auto& axes = d.axes;
  const std::vector<std::string> other = swept(table, {"method", "hierarchy", "encoder"});
  page.heading(heading);
  std::vector<std::string> columns = {"method"};
  for (const auto& axis : other) columns.push_back(axis);
  columns.push_back("hierarchy");
  for (const auto& metric : metrics) columns.push_back(metric.title);
  std::vector<std::vector<std::string>> table_rows;
  for (const auto& h : hierarchies) {
    for (const auto& m : methods) {
      const Selector where_base = {{"method", m}, {"encoder", encoder}, {"hierarchy", h}};
      std::vector<Selector> combos{where_base};
      for (const auto& axis : axes) {
        if (std::any_of(where_base.begin(), where_base.end(), [&](const auto& e) { return e.first == axis; })) continue;
        std::vector<Selector> next;
        for (const auto& c : combos) {
          for (const auto& v : table.values(axis, c)) {
            auto n = c;
            n.emplace_back(axis, v);
            next.push_back(n);
          }
        }
        combos = next;
      }
      for (const auto& where : combos) {
        std::vector<std::string> row = {training_method(m).label};
        for (const auto& axis : other) {
          row.push_back(std::find_if(where.begin(), where.end(), [&](const auto& e) { return e.first == axis; })->second);
        }
        row.push_back(h);
        for (const auto& metric : metrics) row.push_back(cell_text(table, where, metric.column, metric.scale, metric.decimals));
        table_rows.push_back(row);
      }
    }
  }
  page.table(columns, table_rows);
}

// The coarse-to-fine linear probe of one encoder: a row per method (and combination of the
// other swept axes), a column per hierarchy, and the paper's values where the definition has them.
void write_probe_table(ExperimentPage& page, const TransferPage& d, const std::string& encoder) {
  const RunTable& table = d.table;
  const auto& methods = d.methods;
  const auto& hierarchies = d.hierarchies;
  const auto& axes = d.axes;
  const json paper_table = d.definition.value("paper_table", json::object());
  page.heading("Coarse-to-fine linear probe, " + encoder + " encoder (%)");
  const std::vector<std::string> other = swept(table, {"method", "hierarchy", "encoder"});
  std::vector<std::string> header = {"method"};
  for (const auto& axis : other) header.push_back(axis);
  for (const auto& h : hierarchies) header.push_back(h);
  const bool with_paper = paper_table.contains("values");
  if (with_paper) header.push_back("the paper: " + paper_table.value("columns", std::string("Table 3")));
  std::vector<std::vector<std::string>> result_rows;
  for (const auto& m : methods) {
    // one row per combination of the other swept axes
    std::vector<Selector> combos{{}};
    for (const auto& axis : other) {
      std::vector<Selector> next;
      for (const auto& v : table.values(axis, {{"method", m}, {"encoder", encoder}})) {
        for (auto c : combos) {
          c.emplace_back(axis, v);
          next.push_back(c);
        }
      }
      combos = next;
    }
    for (const auto& combo : combos) {
      std::vector<std::string> row = {training_method(m).label};
      for (const auto& [axis, value] : combo) row.push_back(value);
      for (const auto& h : hierarchies) {
        Selector where = combo;
        where.insert(where.end(), {{"method", m}, {"encoder", encoder}, {"hierarchy", h}});
        for (const auto& axis : axes) {
          if (std::none_of(where.begin(), where.end(), [&](const auto& e) { return e.first == axis; })) {
            const auto values = table.values(axis, where);
            if (!values.empty()) where.emplace_back(axis, values.front());
          }
        }
        row.push_back(cell_text(table, where, "fine_probe", 100, 1));
      }
      if (with_paper) {
        // "METHOD,AXIS=VALUE" (e.g. "spread,augmentation=false") names the row of that value of a
        // swept axis; "METHOD" the others.
        const json& values = paper_table.at("values");
        std::string text = values.contains(m) ? values.at(m).get<std::string>() : "—";
        for (const auto& [axis, value] : combo) {
          const std::string key = m + "," + axis + "=" + value;
          if (values.contains(key)) text = values.at(key).get<std::string>();
        }
        row.push_back(text);
      }
      result_rows.push_back(row);
    }
  }
  page.table(header, result_rows);
}

// The metric tables of one encoder: every metric, and those of the definition's options (a
// share of the labels, coloured backgrounds, corruptions).
void write_metric_tables(ExperimentPage& page, const TransferPage& d, const std::string& encoder) {
  const RunTable& table = d.table;
  const TrainRunOptions& base = d.base;
  const auto& probe_share = d.probe_share;
  const auto metric_table = [&](const std::string& heading, const std::vector<Metric>& metrics) {
    write_metric_table(page, d, encoder, heading, metrics);
  };
  // The accuracy of a run's own softmax head on the coarse labels (cross-entropy's, the
  // autoencoder's, a joint head's), where some run has one.
  std::vector<Metric> every = kMetrics;
  if (std::any_of(table.rows().begin(), table.rows().end(), [](const RunRow& r) { return r.number("head_accuracy").has_value(); })) {
    every.insert(every.begin() + 1, {"head_accuracy", "own head's coarse acc. %", 100, 1});
  }
  metric_table("Every metric, " + encoder + " encoder", every);
  if (probe_share) {
    page.paragraph("**With " + format_number(*probe_share * 100) + " % of the labels**: the fine labels' linear probe fit on a "
                   "seeded " + format_number(*probe_share * 100) + " % of the training images (the same images for every method "
                   "at a seed), beside the probe on all of them.");
    metric_table("Linear probe on a share of the labels, " + encoder + " encoder (%)", kLabelledProbe);
  }
  if (base.data.colour_backgrounds) metric_table("Accuracy and colour kept, " + encoder + " encoder", kColour);
  if (base.corruptions) {
    page.paragraph("**Under corruption** (seed 001 §4.2): the fine labels' linear probe, fit on the clean training "
                   "embeddings, scored on the test images under gaussian_noise, impulse_noise, gaussian_blur and contrast at "
                   "severities 1 to 5 (data/image_corruptions.hpp: ImageNet-C's noise and contrast levels, blur widths for "
                   "28-pixel images), each severity's accuracy and expected calibration error (15 equal-width bins) the mean "
                   "over the four; the corruption error is the mean error over all twenty, before the normalisation by a "
                   "baseline model that seed 001's mCE takes from AlexNet.");
    metric_table("Accuracy under corruption, " + encoder + " encoder (%)", kCorruptionAccuracy);
    metric_table("Expected calibration error under corruption, " + encoder + " encoder", kCorruptionCalibration);
    if (std::any_of(table.rows().begin(), table.rows().end(),
                    [](const RunRow& r) { return r.number("head_corruption_error").has_value(); })) {
      page.paragraph("**The runs' own heads under corruption**: the same corrupted test images scored by the softmax head "
                     "a run trained with its encoder (cross-entropy's, or the joint head), on the labels it was trained for, "
                     "as seed 001 scores cross-entropy (Table 2, Fig. 5); empty for a run without a head.");
      metric_table("Own head's accuracy under corruption, " + encoder + " encoder (%)", head_metrics(kCorruptionAccuracy));
      metric_table("Own head's expected calibration error under corruption, " + encoder + " encoder",
                   head_metrics(kCorruptionCalibration));
    }
  }
}

}  // namespace

void run_transfer_experiment(const json& definition, const ExperimentContext& context) {
  const json& p = definition.at("parameters");
  const auto methods = string_list(p, "methods");
  const auto hierarchies = string_list(p, "hierarchies");
  const auto encoders = string_list(p, "encoders");
  const auto seeds = seed_list(p, "seeds");
  const std::vector<std::string> axes = transfer_axes(p);
  const TrainRunOptions base = base_training_options(with_first_values(p));
  validate_claims(definition, axes);
  if (definition.contains("figure") && methods.size() * hierarchies.size() > static_cast<std::size_t>(kMaxLineCurves)) {
    throw InvalidArgument("definition", "figure: " + std::to_string(methods.size() * hierarchies.size()) + " curves (methods × hierarchies); it tells at most " +
                                            std::to_string(kMaxLineCurves) + " apart");
  }
  std::vector<PlannedRun> plan = plan_transfer_runs(p);
  if (p.contains("keep_checkpoints") && bool_list(p, "keep_checkpoints").front()) {
    // Each run writes its checkpoint every epoch (so an interrupted run resumes mid-way) and
    // keeps it, for the lipschitz kind's Table 1 on these models.
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(context.out_dir) / "checkpoints" / context.name, ec);
    const auto sweeps = swept_options(p);
    const bool swept_lr = std::find(sweeps.begin(), sweeps.end(), "lr") != sweeps.end();
    for (auto& run : plan) run.options.train.checkpoint = run_checkpoint_path(context.out_dir, context.name, run.parameters, swept_lr);
  }
  const auto heatmaps = plan_heatmaps(definition, plan, context);
  RunCache cache(context.stem() + ".csv", transfer_key_columns(p));
  const auto probe_share = probe_label_share(p);
  RunMeasure measure;
  if (probe_share) {
    measure.name = "fine_probe_labelled " + format_number(*probe_share);
    measure.add = [&](const PlannedRun& planned, TrainedRun& run, RunRow& row) {
      row.set("fine_probe_labelled", labelled_probe_accuracy(run, *probe_share, planned.options.train.seed));
    };
  }
  const std::vector<RunRow> rows = run_plan(plan, cache, context, measure);
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the runs: the page waits for them all
  const RunTable table(rows, axes);

  ExperimentPage page = begin_page(definition, context);
  const TransferPage d{definition, p, table, rows, methods, hierarchies, encoders, axes, seeds, base, probe_share};
  write_transfer_setup(page, d);
  write_labels_seen(page, d);
  for (const auto& encoder : encoders) {
    write_probe_table(page, d, encoder);
    write_metric_tables(page, d, encoder);
    if (definition.contains("figure")) {
      draw_sweep(definition.at("figure"), table, context, encoder,
                 std::to_string(base.train.epochs) + " epochs, seeds " + format_seed_list(seeds), page);
    }
  }

  std::vector<Selector> scopes;
  for (const auto& encoder : encoders) scopes.push_back({{"encoder", encoder}});
  end_page(page, definition, context, table, scopes, heatmaps,
           "Every run, with all its parameters and metrics: [`" + context.name + ".csv`](" + context.name + ".csv).");
  std::cerr << "geomsim experiment " << context.name << ": " << rows.size() << " runs, page written to " << context.stem() << ".md\n";
}

}  // namespace geomsim::train_experiments
