#include "geomsim/train_experiments/experiment_runs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "geomsim/train/distributed/data_parallel.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/train_experiments/run_identity.hpp"
#include "geomsim/figures/embedding_heatmap.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/number_lists.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

std::string ExperimentContext::stem() const { return (std::filesystem::path(out_dir) / name).string(); }

TrainRunOptions ExperimentContext::on_device(TrainRunOptions options) const {
  options.train.device = device;
  options.train.device_explicit = device_given;
  options.train.sync_every = sync_every;
  return options;
}

std::vector<bool> ExperimentContext::agreed_runs(const std::vector<bool>& mine) const {
  std::vector<int64_t> chosen(mine.size());
  for (std::size_t i = 0; i < mine.size(); ++i) chosen[i] = mine[i] && shard.contains(i);
  const auto shared = train::values_of_rank0(job, chosen, "the runs to train");
  return std::vector<bool>(shared.begin(), shared.end());
}

RunChoice choose_runs(const std::vector<RunRow*>& planned, const std::vector<bool>& forced, RunCache& cache,
                      const ExperimentContext& context, const std::string& measures) {
  RunChoice choice;
  OtherPagesRuns others(context.out_dir, cache.path());
  std::vector<bool> from_others;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    stamp_run_id(*planned[i], measures);
    // A cached row with the same key must agree on every parameter (else find throws, before
    // anything is trained).
    auto row = cache.find(*planned[i]);
    from_others.push_back(!row && !forced[i]);
    if (from_others.back()) row = others.find(*planned[i]);
    from_others.back() = from_others.back() && row.has_value();
    choice.cached.push_back(std::move(row));
    choice.chosen.push_back(!choice.cached.back() || forced[i]);
  }
  choice.chosen = context.agreed_runs(choice.chosen);
  std::size_t kept = 0, shared = 0;
  for (std::size_t i = 0; i < planned.size(); ++i) {
    if (choice.chosen[i]) {
      ++choice.to_train;
    } else if (choice.cached[i]) {
      ++kept;
      if (from_others[i] && context.shard.contains(i)) {
        ++shared;
        // The other page's row becomes this page's, with this page's parameters (the same values).
        if (context.job.is_main()) cache.add(*choice.cached[i]);
      }
    }
  }
  context.log_plan(planned.size(), kept, shared, choice.to_train, cache.path());
  return choice;
}

void ExperimentContext::log_plan(std::size_t runs, std::size_t cached, std::size_t shared, std::size_t to_train,
                                 const std::string& cache_path) const {
  log() << "geomsim experiment " << name << ": " << runs << " runs, " << cached << " cached in " << cache_path
        << (shared ? " (" + std::to_string(shared) + " of them from other pages)" : "") << ", " << to_train
        << " to train" << (shard.whole() ? "" : " in shard " + std::to_string(shard.index) + "/" + std::to_string(shard.count))
        << "\n";
}

std::ostream& ExperimentContext::log() const {
  static std::ostream nowhere(nullptr);  // no buffer: every output is dropped
  return job.is_main() ? std::cerr : nowhere;
}

std::string ExperimentContext::regenerate_command() const {
  const std::string sims = std::filesystem::path(definition_path).parent_path().string();
  return "geomsim report --sims " + (sims.empty() ? std::string(".") : sims) + " --out " + out_dir + " --only " + name +
         (smoke ? " --smoke" : "");
}

const std::vector<TrainingMethod>& training_methods() {
  // What each method's loss reads (alpha, tau) comes from the loss registry.
  static const std::vector<TrainingMethod> methods = [] {
    std::vector<TrainingMethod> table = {
      {"infonce", "InfoNCE", "simclr", "none", "none (two views of each image are the positives)"},
      {"supcon", "SupCon", "supcon", "none", "coarse"},
      {"supcon+infonce", "SupCon + InfoNCE", "supcon+simclr", "none", "coarse (SupCon); none (InfoNCE)"},
      {"cauto", "cAuto", "autoencoder", "joint", "coarse (the autoencoder's cross-entropy head)"},
      {"gauto", "gAuto", "autoencoder", "general", "none (reconstruction only)"},
      {"cauto-per-class", "cAuto, one decoder per class", "autoencoder", "per-class", "coarse (which decoder)"},
      {"spread", "SupCon + cNCE (L_spread)", "spread", "none", "coarse (L_sup; cNCE's same-class denominator)"},
      {"supcon+cauto", "SupCon + cAuto", "supcon", "joint", "coarse (SupCon, the autoencoder's head)"},
      {"supcon+gauto", "SupCon + gAuto", "supcon", "general", "coarse (SupCon); none (the autoencoder)"},
      {"thanos", "SupCon + cNCE + cAuto (THANOS)", "thanos", "joint", "coarse (L_spread, the autoencoder's head)"},
      {"spread+gauto", "SupCon + cNCE + gAuto", "thanos", "general", "coarse (L_spread); none (the autoencoder)"},
      {"thanos-per-class", "THANOS, one decoder per class", "thanos", "per-class", "coarse (L_spread, which decoder)"},
      {"ce", "Cross entropy", "ce", "none", "coarse"},
      {"weaksup-infonce", "WeaklySup-InfoNCE (002 eq. 3)", "weaksup-infonce", "none", "coarse (as the conditioning z)"},
      {"fair-infonce", "Fair-InfoNCE (002 eq. 4)", "fair-infonce", "none", "coarse (as the conditioning z)"},
      {"hardneg-infonce", "HardNeg-InfoNCE (002 eq. 5)", "hardneg-infonce", "none", "none (z: clusters of the batch's embeddings)"},
      {"cclk-hardneg", "HardNeg CCL-K (002 eq. 9)", "cclk-hardneg", "none", "none (z: the batch's detached embeddings)"},
      {"triplet", "Triplet (000 eq. A7)", "triplet", "none", "coarse"},
      {"clip-positives", "Clip Positives (Table 9)", "clip-positives", "none", "coarse"},
      {"weighted-positives", "Weighted Pos in Denom. (Table 9)", "weighted-positives", "none", "coarse"},
      {"upweighted-negatives", "Upweighted negatives (Table 9's text)", "upweighted-negatives", "none", "coarse"},
      {"cclk-weak", "WeaklySup CCL-K (002 eq. 7), cosine kernel", "cclk-weak", "none", "coarse (as the conditioning z)", false, true,
       "cosine", "labels"},
      {"cclk-weak-attr-cosine", "WeaklySup CCL-K on the attributes, cosine kernel", "cclk-weak", "none",
       "none (ink, aspect, intensity from the pixels)", false, true, "cosine", "attributes:ink,aspect,intensity"},
      {"cclk-weak-attr-rbf", "WeaklySup CCL-K on the attributes, RBF kernel", "cclk-weak", "none",
       "none (ink, aspect, intensity from the pixels)", false, true, "rbf", "attributes:ink,aspect,intensity"},
      {"cclk-weak-attr-laplacian", "WeaklySup CCL-K on the attributes, Laplacian kernel", "cclk-weak", "none",
       "none (ink, aspect, intensity from the pixels)", false, true, "laplacian", "attributes:ink,aspect,intensity"},
      {"cclk-weak-attr-linear", "WeaklySup CCL-K on the attributes, linear kernel", "cclk-weak", "none",
       "none (ink, aspect, intensity from the pixels)", false, true, "linear", "attributes:ink,aspect,intensity"},
      {"cclk-weak-attr-polynomial", "WeaklySup CCL-K on the attributes, polynomial kernel", "cclk-weak", "none",
       "none (ink, aspect, intensity from the pixels)", false, true, "polynomial", "attributes:ink,aspect,intensity"},
      {"cclk-weak-fine", "WeaklySup CCL-K on the fine label (one-hot), cosine kernel", "cclk-weak", "none",
       "fine (as a discrete attribute)", false, true, "cosine", "attributes:fine"},
      {"weaksup-infonce-attr", "WeaklySup-InfoNCE on k-means clusters of the attributes", "weaksup-infonce", "none",
       "none (z: clusters of ink, aspect, intensity from the pixels)", false, true, "", "attributes:ink,aspect,intensity"},
      {"cclk-fair-colour", "Fair CCL-K on the background colour, cosine kernel", "cclk-fair", "none",
       "none (z: the background colour, from the pixels)", false, true, "cosine", "attributes:colour"},
      {"fair-infonce-colour", "Fair-InfoNCE on k-means clusters of the background colour", "fair-infonce", "none",
       "none (z: clusters of the background colour)", false, true, "", "attributes:colour"},
      {"supcon-corrected", "SupCon, labels corrected geometrically (000 App. E.3.2)", "supcon", "none",
       "coarse, noisy (corrected in each batch)", false, true, "", "", "correct"},
      {"spread-corrected", "L_spread, labels corrected geometrically (000 App. E.3.2)", "spread", "none",
       "coarse, noisy (corrected in each batch)", false, true, "", "", "correct"},
      {"noise-aware-attract", "Noise-aware L_attract (000 Prop. A1, m = 2: Lemma A4)", "noise-aware-attract", "none",
       "coarse, noisy (reweighted by the noise rate)", false, true, "", "", "debias"},
    };
    for (TrainingMethod& m : table) {
      const train::LossEntry& loss = train::loss_entry(m.loss);
      m.uses_alpha = loss.reads("alpha");
      m.uses_tau = loss.reads("tau");
    }
    return table;
  }();
  return methods;
}

const TrainingMethod& training_method(const std::string& name) {
  for (const auto& m : training_methods()) {
    if (m.name == name) return m;
  }
  std::string known;
  for (const auto& m : training_methods()) known += (known.empty() ? "" : ", ") + m.name;
  throw InvalidArgument("definition", "names the method '" + name + "'; the methods are " + known);
}

int64_t cluster_count(double value) {
  if (!(value >= 1.0) || value != std::floor(value) || value > 1e9) {
    throw InvalidArgument("definition", "parameter 'cond_clusters' must hold whole numbers >= 1, got " + format_number(value));
  }
  return static_cast<int64_t>(value);
}

bool clusters_attributes(const TrainingMethod& method) {
  return method.condition_on.rfind("attributes:", 0) == 0 && !train::loss_entry(method.loss).needs.condition;
}

TrainRunOptions method_options(const TrainRunOptions& base, const TrainingMethod& method) {
  TrainRunOptions o = base;
  o.train.loss = method.loss;
  o.autoencoder = method.autoencoder;
  if (!method.cond_kernel.empty()) o.train.loss_options.cond_kernel = method.cond_kernel;
  if (!method.condition_on.empty()) o.condition_on = method.condition_on;
  if (!clusters_attributes(method)) o.cond_clusters = 0;
  o.noise_handling = method.noise_handling;
  // The joint cross-entropy head goes with the contrastive batch losses only: ce is that head, and
  // cAuto's joint autoencoder has its own (an autoencoder-only method trains no encoder).
  if (train::loss_entry(method.loss).batch == nullptr) o.train.head = {};
  return o;
}

TrainRunOptions run_options(const TrainRunOptions& base, const std::string& method, const std::string& encoder,
                                std::uint64_t seed, const std::string& hierarchy, double alpha, double tau) {
  TrainRunOptions o = method_options(base, training_method(method));
  o.model.kind = encoder;
  o.train.seed = seed;
  o.data.hierarchy = hierarchy;
  o.train.loss_options.alpha = alpha;
  o.train.loss_options.tau = tau;
  return o;
}

RunRow training_parameters(const std::string& method, const TrainRunOptions& o) {
  validate(o);  // every planned run, before any trains
  const train::TrainOptions& t = o.train;
  const train::LossOptions lo = run_loss_options(o);
  RunRow row;
  set_results_version(row);
  row.set("method", method);
  row.set("hierarchy", o.data.hierarchy);
  row.set("encoder", o.model.kind);
  row.set("seed", std::to_string(t.seed));
  row.set("alpha", format_number(lo.alpha));
  row.set("tau", format_number(lo.tau));
  row.set("augmentation", o.no_augmentation ? "false" : "true");
  if (o.corruptions) row.set("corruptions", "true");  // only then: every earlier cached run keeps its parameters
  if (o.data.colour_backgrounds) row.set("colour_backgrounds", format_number(*o.data.colour_backgrounds));
  row.set("train_images", std::to_string(o.train_samples));
  row.set("test_images", std::to_string(o.test_samples));
  row.set("epochs", std::to_string(t.epochs));
  row.set("loss", t.loss);
  row.set("autoencoder", autoencoder_mode(o));
  row.set("recipe", o.recipe.empty() ? "geomsim" : o.recipe);
  row.set("lr", format_number(t.learning_rate));
  row.set("weight_decay", format_number(t.weight_decay));
  row.set("batch_size", std::to_string(t.batch_size));
  row.set("cosine_period", std::to_string(t.cosine_period_epochs));
  row.set("embedding_dim", std::to_string(o.model.embedding_dim));
  row.set("width", std::to_string(o.model.width));
  row.set("autoencoder_dropout", format_number(o.autoencoder_dropout));
  row.set("label_smoothing", format_number(o.label_smoothing));
  row.set("gamma", format_number(o.gamma));
  const train::LossEntry& loss = train::loss_entry(t.loss);
  for (const char* name : {"clip-cosine", "positive-weight", "negative-weight"}) {  // Table 9's baselines, when read
    const train::LossParameter& p = train::loss_parameter(name);
    if (loss.reads(name)) row.set(p.key(), format_number(p.get(lo)));
  }
  if (lo.positives > 0) row.set("positives", format_number(lo.positives));  // only then: every cached run keeps its parameters
  if (o.label_noise > 0) row.set("label_noise", format_number(o.label_noise));
  // The joint head, only when it is on: a row without these columns is a run without the head, so
  // every row cached before the head existed keeps its parameters (and its run id).
  if (t.head.enabled()) {
    row.set("head_weight", format_number(t.head.weight));
    row.set("head_label_smoothing", format_number(t.head.label_smoothing));
    row.set("head_dropout", format_number(t.head.dropout));
    row.set("head_labelled_share", format_number(t.head.labelled_share));
  }
  if (lo.noise_correction > 0) row.set("noise_correction", format_number(lo.noise_correction));
  if (loss.reads("label-accuracy")) {
    row.set("label_accuracy", format_number(lo.label_accuracy));
    row.set("denominator_size", format_number(lo.denominator_size));
  }
  std::string condition = o.condition_on;  // a cell holds no comma: attributes:ink+aspect+intensity
  std::replace(condition.begin(), condition.end(), ',', '+');
  if (o.cond_clusters > 0) {
    row.set("condition_on", condition);
    row.set("cond_clusters", std::to_string(o.cond_clusters));
  }
  if (loss.needs.condition) {
    row.set("kernel_lambda", format_number(lo.kernel_lambda));
    row.set("cond_kernel", lo.cond_kernel);
    row.set("condition_on", condition);
    if (lo.cond_kernel == "rbf" || lo.cond_kernel == "laplacian") row.set("cond_bandwidth", format_number(lo.cond_bandwidth));
    if (lo.cond_kernel == "polynomial") {
      row.set("cond_degree", format_number(lo.cond_degree));
      row.set("cond_offset", format_number(lo.cond_offset));
    }
  }
  return row;
}

namespace {

void add_corruption_metrics(const train::CorruptionEvaluation& c, const std::string& prefix, RunRow& row) {
  row.set(prefix + "clean_ece", c.clean_ece);
  for (std::size_t s = 0; s < c.accuracy.size(); ++s) {
    row.set(prefix + "corrupt_accuracy_s" + std::to_string(s + 1), c.accuracy[s]);
    row.set(prefix + "ece_s" + std::to_string(s + 1), c.ece[s]);
  }
  row.set(prefix + "corruption_error", c.mean_error);
  row.set(prefix + "ece_rise", c.ece.back() - c.clean_ece);  // severity 5's ECE above the clean one
}

}  // namespace

void add_transfer_metrics(const TrainedRun& run, RunRow& row) {
  const train::TransferEvaluation& e = run.evaluation;
  row.set("coarse_accuracy", e.coarse_accuracy);
  row.set("fine_probe", e.fine_accuracy_probe);
  row.set("fine_mean", e.fine_accuracy_mean);
  row.set("spread", e.geometry.spread);
  row.set("sigma", e.geometry.subclass_sigma);
  // sigma_f/s_f is 0/0 for a class collapsed to a point (a constant encoder): left empty then.
  if (e.geometry.sigma_over_spread) row.set("sigma_over_spread", *e.geometry.sigma_over_spread);
  if (e.geometry.sigma_over_spread_max) row.set("sigma_over_spread_max", *e.geometry.sigma_over_spread_max);
  row.set("subgroup_f1", e.subgroup_f1);
  if (e.colour_mse) row.set("colour_mse", *e.colour_mse);
  if (e.head_accuracy) row.set("head_accuracy", *e.head_accuracy);
  // Seed 001 §4.2 under corruption: the probe's scores, and the run's own head's (head_...).
  if (e.corruption) add_corruption_metrics(*e.corruption, "", row);
  if (e.head_corruption) add_corruption_metrics(*e.head_corruption, "head_", row);
  // Seed 000 §4.3.1 on the test embeddings: the mean classifier's cross-entropy on the subclasses
  // and on the classes, the smallest lambdas of Lemmas 1 and 2 (exact form), and E_z |m_z|^2.
  const auto& strata = e.geometry.strata;
  row.set("c2f_mean_loss", strata.transfer_loss);
  row.set("original_mean_loss", strata.original_loss);
  // The same classifiers with logits lambda f(x)^T W at their best lambda (the lemmas' scale
  // exists, §4.3.1; at lambda = 1 the means' lengths weigh in), and that lambda.
  row.set("c2f_mean_loss_best", strata.transfer_best_loss);
  row.set("c2f_mean_scale", strata.transfer_best_scale);
  row.set("original_mean_loss_best", strata.original_best_loss);
  row.set("original_mean_scale", strata.original_best_scale);
  if (strata.lemma1_lambda) row.set("lemma1_lambda", *strata.lemma1_lambda);
  if (strata.lemma2_lambda) row.set("lemma2_lambda", *strata.lemma2_lambda);
  row.set("strata_norm2", strata.mean_norm_squared);
  // Theorem 3 only for classes with two subclasses: no margin error where no class has two.
  if (e.geometry.margin_error) row.set("margin_error", *e.geometry.margin_error);
  if (e.geometry.theorem3_bound) row.set("theorem3_bound", *e.geometry.theorem3_bound);
  row.set("theorem3_boundary_pairs", static_cast<double>(e.geometry.boundary_holds));
  double boundary = 0.0;
  for (const auto& pair : e.geometry.pair_details) boundary += pair.boundary / static_cast<double>(e.geometry.pair_details.size());
  if (!e.geometry.pair_details.empty()) row.set("theorem3_boundary_mean", boundary);
  if (!run.result.epochs.empty()) {
    if (std::isfinite(run.result.epochs.back().loss)) row.set("final_loss", run.result.epochs.back().loss);
    row.set("samples_per_second", run.result.epochs.back().samples_per_second);
  }
  row.set("train_seconds", run.train_seconds);
  row.set("seconds", run.seconds);
  row.set("device", run.result.device);
  row.set("world_size", static_cast<double>(run.world_size));  // the data-parallel ranks it trained on
  add_run_environment(row);
}

namespace {

// The heatmap of the run's test embeddings: the first heatmap_per_subclass test images of each
// subclass (the test split is already a seeded shuffle).
void write_heatmap(const TrainedRun& run, const PlannedRun& plan, const ExperimentContext& context) {
  const auto fine = run.test.fine.contiguous();
  const int64_t n = fine.size(0);
  std::map<int64_t, int> taken;
  std::vector<int64_t> chosen;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t z = fine[i].item<int64_t>();
    if (taken[z] < plan.heatmap_per_subclass) {
      ++taken[z];
      chosen.push_back(i);
    }
  }
  const auto index = torch::tensor(chosen);
  const auto z = run.test_embeddings.index_select(0, index).to(torch::kDouble).contiguous();
  const Matrix points = Eigen::Map<const Matrix>(z.data_ptr<double>(), z.size(1), z.size(0));
  std::vector<int> classes, subclasses;
  for (int64_t i : chosen) {
    classes.push_back(static_cast<int>(run.test.coarse[i].item<int64_t>()));
    subclasses.push_back(static_cast<int>(fine[i].item<int64_t>()));
  }
  draw_embedding_heatmap(points, classes, subclasses, plan.heatmap_title,
                         (std::filesystem::path(context.out_dir) / plan.heatmap_stem).string());
}

bool selects(const RunRow& row, const json& selector) {
  for (const auto& [axis, value] : selector.items()) {
    const std::string wanted = value.is_string() ? value.get<std::string>() : (value.is_boolean() ? (value.get<bool>() ? "true" : "false") : format_number(value.get<double>()));
    if (row.text(axis).value_or("") != wanted) return false;
  }
  return true;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> plan_heatmaps(const json& definition, std::vector<PlannedRun>& plan,
                                                               const ExperimentContext& context) {
  std::vector<std::pair<std::string, std::string>> figures;
  const json& p = definition.at("parameters");
  const int per_subclass = p.contains("heatmap_per_subclass") ? static_cast<int>(integer_parameter(p, "heatmap_per_subclass", 1)) : 10;
  if (!definition.contains("heatmaps")) return figures;
  const json& list = definition.at("heatmaps");
  if (!list.is_array()) throw InvalidArgument("definition", "\"heatmaps\" must be a list of run selectors");
  for (std::size_t k = 0; k < list.size(); ++k) {
    const json& selector = list[k];
    if (!selector.is_object() || selector.empty()) throw InvalidArgument("definition", "heatmap " + std::to_string(k + 1) + " must be an object of parameter: value");
    for (const auto& [axis, value] : selector.items()) {
      if (!value.is_string() && !value.is_number() && !value.is_boolean()) {
        throw InvalidArgument("definition", "heatmap " + std::to_string(k + 1) + ": " + axis + " must be one value");
      }
    }
    std::vector<std::size_t> hits;
    for (std::size_t i = 0; i < plan.size(); ++i) {
      if (selects(plan[i].parameters, selector)) hits.push_back(i);
    }
    if (hits.size() != 1) {
      throw InvalidArgument("definition", "heatmap " + std::to_string(k + 1) + " (" + json_excerpt(selector, 160) + ") must name exactly one run, names " +
                                              std::to_string(hits.size()));
    }
    PlannedRun& run = plan[hits.front()];
    run.heatmap_stem = context.name + "-heatmap-" + std::to_string(k + 1);
    run.heatmap_per_subclass = per_subclass;
    const std::string method_name = run.parameters.text("method").value_or("");
    const TrainingMethod& method = training_method(method_name);
    run.heatmap_title = method.label + ", " + run.parameters.text("hierarchy").value_or("") + ", " +
                        run.parameters.text("encoder").value_or("") + ", seed " + run.parameters.text("seed").value_or("") +
                        (method.uses_alpha ? ", α " + run.parameters.text("alpha").value_or("") : std::string()) +
                        (run.parameters.text("augmentation") == std::optional<std::string>("false") ? ", no augmentation" : "");
    std::error_code ec;
    if (!std::filesystem::exists(std::filesystem::path(context.out_dir) / (run.heatmap_stem + ".csv"), ec)) run.force = true;
    figures.emplace_back(run.heatmap_stem + ".png", "Cosine similarity of " + std::to_string(per_subclass) +
                                                        " test images per subclass, sorted by class then subclass (solid: classes, "
                                                        "dashed: subclasses): " + run.heatmap_title);
  }
  return figures;
}

std::vector<RunRow> run_plan(std::vector<PlannedRun>& plan, RunCache& cache, const ExperimentContext& context,
                             const RunMeasure& measure) {
  std::vector<RunRow*> planned;
  std::vector<bool> forced;
  for (auto& run : plan) {
    planned.push_back(&run.parameters);
    forced.push_back(run.force);
  }
  const RunChoice choice = choose_runs(planned, forced, cache, context, measure.name);
  const auto& cached = choice.cached;
  const auto& chosen = choice.chosen;
  double samples = 0.0;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    if (chosen[i]) samples += static_cast<double>(plan[i].options.train.epochs) * static_cast<double>(plan[i].options.train_samples);
  }
  ExperimentProgress progress(context.name, choice.to_train, samples, context.job.is_main());
  std::vector<RunRow> rows;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlannedRun& run = plan[i];
    if (!chosen[i]) {
      if (cached[i]) rows.push_back(*cached[i]);
      // A cached run's heatmap is drawn again from its CSV (plan_heatmaps trains the run again
      // when that CSV is missing), so that a change of the figures' style reaches it.
      if (cached[i] && !run.heatmap_stem.empty() && context.job.is_main()) {
        redraw_embedding_heatmap(run.heatmap_title, (std::filesystem::path(context.out_dir) / run.heatmap_stem).string());
      }
      continue;
    }
    progress.start_run(run.label, static_cast<double>(run.options.train.epochs) * static_cast<double>(run.options.train_samples));
    TrainRunOptions options = context.on_device(run.options);
    options.quiet = true;
    TrainedRun trained = train_run(options, context.job, [&](const train::StepReport& s) {
      progress.step(s.epoch, s.epochs, s.step, s.steps_per_epoch, s.batch_size, s.loss);
    });
    RunRow row = run.parameters;
    add_transfer_metrics(trained, row);
    // Every rank measures, so that the ranks reach the next run's collectives together; rank 0
    // writes.
    if (measure.add) measure.add(run, trained, row);
    if (!context.job.is_main()) continue;
    if (!run.heatmap_stem.empty()) write_heatmap(trained, run, context);
    progress.finish_run();
    cache.add(row);
    if (!progress.enabled()) {
      context.log() << "geomsim experiment " << context.name << ": " << run.label << " done in "
                << format_number(std::round(trained.seconds * 10) / 10) << " s\n";
    }
    rows.push_back(std::move(row));
  }
  progress.close();
  return rows;
}

ExperimentPage begin_page(const json& definition, const ExperimentContext& context) {
  ExperimentPage page(context.title);
  page.paragraph("Definition: [`" + context.definition_path + "`](../" + context.definition_path + ") · regenerate with `" +
                 context.regenerate_command() + "`" + (context.smoke ? " · **smoke grid: not the real experiment**" : ""));
  if (definition.contains("paper")) page.paragraph("**The paper.** " + definition.at("paper").get<std::string>());
  return page;
}

void end_page(ExperimentPage& page, const json& definition, const ExperimentContext& context, const RunTable& table,
              const std::vector<Selector>& scopes, const std::vector<std::pair<std::string, std::string>>& heatmaps,
              const std::string& closing) {
  if (!heatmaps.empty()) {
    page.heading("Cosine heatmaps of trained test embeddings");
    for (const auto& [file, caption] : heatmaps) page.image(file, caption);
  }
  std::vector<ClaimOutcome> outcomes;
  if (definition.contains("claims") && !definition.at("claims").empty()) {
    page.heading("Claims");
    for (const auto& scope : scopes) {
      for (const auto& claim : definition.at("claims")) outcomes.push_back(evaluate_claim(claim, table, scope));
    }
    page.claims(outcomes);
  }
  if (definition.contains("notes") && !context.smoke) {
    const std::size_t claims = definition.contains("claims") ? definition.at("claims").size() : 0;
    page.paragraph("**Comparison.** " + expand_claim_references(definition.at("notes").get<std::string>(), outcomes, claims, scopes));
  }
  page.paragraph(closing);
  write_text_file(context.stem() + ".md", page.markdown());
}

void write_text_file(const std::string& path, const std::string& text) {
  OutputTransaction out;
  out.stage(path, text, "out");
  out.commit();
}

std::string cell_text(const RunTable& table, const Selector& where, const std::string& metric, double scale, int decimals) {
  const auto summary = table.cell(where, metric);
  return summary ? mean_sd_text(*summary, scale, decimals) : "—";
}

double total_seconds(const std::vector<RunRow>& rows) {
  double sum = 0.0;
  for (const auto& row : rows) sum += row.number("seconds").value_or(0.0);
  return sum;
}

namespace {
std::string scalar_text(const json& v, const std::string& key) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return format_number(v.get<double>());
  throw InvalidArgument("definition", "parameter '" + key + "' must hold strings, numbers or booleans");
}
const json& required(const json& p, const std::string& key) {
  if (!p.contains(key)) throw InvalidArgument("definition", "lacks the parameter '" + key + "'");
  return p.at(key);
}
}  // namespace

std::vector<std::string> string_list(const json& p, const std::string& key) {
  const json& v = required(p, key);
  std::vector<std::string> out;
  if (v.is_array()) {
    for (const auto& x : v) out.push_back(scalar_text(x, key));
  } else {
    out.push_back(scalar_text(v, key));
  }
  if (out.empty()) throw InvalidArgument("definition", "parameter '" + key + "' is an empty list");
  return out;
}

std::vector<double> number_list(const json& p, const std::string& key) {
  std::vector<double> out;
  for (const auto& text : string_list(p, key)) {
    const auto values = parse_number_list(text, key);
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

std::vector<bool> bool_list(const json& p, const std::string& key) {
  std::vector<bool> out;
  for (const auto& text : string_list(p, key)) {
    if (text != "true" && text != "false") throw InvalidArgument("definition", "parameter '" + key + "' must hold true or false");
    out.push_back(text == "true");
  }
  return out;
}

std::vector<std::uint64_t> seed_list(const json& p, const std::string& key) {
  std::vector<std::uint64_t> out;
  for (const auto& text : string_list(p, key)) {
    const auto values = parse_seed_list(text, key);
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

int64_t integer_parameter(const json& p, const std::string& key, int64_t lo) {
  const json& v = required(p, key);
  if (!v.is_number_integer()) throw InvalidArgument("definition", "parameter '" + key + "' must be a whole number");
  const auto value = v.get<int64_t>();
  if (value < lo) throw InvalidArgument("definition", "parameter '" + key + "' must be at least " + std::to_string(lo));
  return value;
}

double number_parameter(const json& p, const std::string& key) {
  const json& v = required(p, key);
  if (!v.is_number()) throw InvalidArgument("definition", "parameter '" + key + "' must be a number");
  return v.get<double>();
}

std::string string_parameter(const json& p, const std::string& key, const std::string& fallback) {
  if (!p.contains(key)) {
    if (fallback.empty()) throw InvalidArgument("definition", "lacks the parameter '" + key + "'");
    return fallback;
  }
  if (!p.at(key).is_string()) throw InvalidArgument("definition", "parameter '" + key + "' must be a string");
  return p.at(key).get<std::string>();
}

TrainRunOptions base_training_options(const json& p) {
  TrainRunOptions o;
  train::TrainOptions& t = o.train;
  o.train_samples = integer_parameter(p, "train_images", 2);
  o.test_samples = integer_parameter(p, "test_images", 1);
  t.epochs = integer_parameter(p, "epochs", 1);
  o.recipe = string_parameter(p, "recipe", "geomsim");
  train::apply_recipe(train::train_recipe(o.recipe), t);  // under the values given below
  if (p.contains("lr")) t.learning_rate = number_parameter(p, "lr");
  if (p.contains("batch_size")) t.batch_size = integer_parameter(p, "batch_size", 2);
  o.model.embedding_dim = p.contains("embedding_dim") ? integer_parameter(p, "embedding_dim", 2) : o.model.embedding_dim;
  o.model.width = p.contains("width") ? integer_parameter(p, "width", 1) : o.model.width;
  o.gamma = p.contains("gamma") ? number_parameter(p, "gamma") : o.gamma;
  o.threads = p.contains("threads") ? static_cast<int>(integer_parameter(p, "threads", 0)) : 0;
  if (p.contains("autoencoder_dropout")) o.autoencoder_dropout = number_parameter(p, "autoencoder_dropout");
  if (p.contains("label_smoothing")) o.label_smoothing = number_parameter(p, "label_smoothing");
  // The loss parameters a definition sets for all its runs, by the registry's keys (alpha and tau
  // are each run's: run_options).
  for (const char* name : {"clip-cosine", "positive-weight", "negative-weight", "kernel-lambda", "cond-bandwidth", "positives",
                           "denominator-size", "cond-degree", "cond-offset"}) {
    const train::LossParameter& parameter = train::loss_parameter(name);
    if (p.contains(parameter.key())) parameter.set(t.loss_options, number_parameter(p, parameter.key()));
  }
  if (p.contains("cond_clusters")) o.cond_clusters = cluster_count(number_parameter(p, "cond_clusters"));
  if (p.contains("colour_backgrounds")) {
    const double rho = number_parameter(p, "colour_backgrounds");
    if (!(rho >= 0.0 && rho <= 1.0)) {
      throw InvalidArgument("definition", "parameter 'colour_backgrounds' must be in [0, 1], got " + format_number(rho));
    }
    o.data.colour_backgrounds = rho;
  }
  if (p.contains("corruptions")) {
    const auto given = bool_list(p, "corruptions");
    if (given.size() != 1) throw InvalidArgument("definition", "parameter 'corruptions' is one true or false, not a list");
    o.corruptions = given.front();
  }
  if (p.contains("label_noise")) o.label_noise = number_parameter(p, "label_noise");
  if (p.contains("head_weight")) t.head.weight = number_parameter(p, "head_weight");
  if (p.contains("head_label_smoothing")) t.head.label_smoothing = number_parameter(p, "head_label_smoothing");
  if (p.contains("head_dropout")) t.head.dropout = number_parameter(p, "head_dropout");
  if (p.contains("head_labelled_share")) t.head.labelled_share = number_parameter(p, "head_labelled_share");
  o.quiet = true;
  return o;
}

}  // namespace geomsim::train_experiments
