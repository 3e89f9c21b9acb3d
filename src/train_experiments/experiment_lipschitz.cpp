// The "lipschitz" kind: seed 004's Table 1 (Appendix G.5, Figure 3) for the models of a
// transfer experiment. For each run of the source definition (sims/SOURCE.json, optionally
// restricted to some methods, hierarchies and seeds) it loads the run's checkpoint, kept by the
// source when its "keep_checkpoints" is true, or trains the run again with the same options
// (the same seed gives the same weights) and keeps the checkpoint, then estimates on pairs of
// test images of one subclass:
//   K_L, K_aug (each pair's smallest and largest ratio over the augmentations) of the unit
//   embedding, the paper's way (the largest output/input ratio); the Jacobian's largest
//   singular value (a local lower bound) of the unit embedding and of the features before the
//   normalisation; the product of the layers' norms of the features (a certified upper bound,
//   CNN and MLP only); and K_g of the decoder, reversed, where there is an autoencoder.
// Parameters: source, methods, hierarchies, seeds (each optional: all of the source's),
// pairs, augmentations, jacobian_points.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/experiments/sim_definition.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/plain_text.hpp"
#include "geomsim/train/analysis/lipschitz.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

const std::vector<std::string> kLipschitzAxes = {"method", "hierarchy", "encoder", "alpha", "tau", "augmentation"};
const std::vector<std::string> kLipschitzKey = {"method", "hierarchy", "encoder", "seed", "alpha", "tau", "augmentation"};

struct Estimates {
  int64_t pairs = 0, augmentations = 0, jacobian_points = 0;
};

void add_lipschitz_metrics(train::Encoder encoder, train::Autoencoder autoencoder, const LabelledSplit& test, uint64_t seed,
                           const Estimates& e, RunRow& row) {
  auto model = train::EmbeddingModel::from_encoder(encoder, autoencoder);
  model.to_double();
  const auto images = test.images.to(torch::kDouble);
  const auto [first, second] = train::same_label_pairs(test.fine, e.pairs, seed);
  const auto a = images.index_select(0, first), b = images.index_select(0, second);
  const auto points = images.narrow(0, 0, std::min<int64_t>(e.jacobian_points, images.size(0)));
  model.set_map(train::EmbeddingModel::Map::embedding);
  row.set("K_L", train::encoder_ratio_estimate(model, a, b).constant);
  const auto augmented = train::augmentation_estimate(model, a, b, train::AugmentationOptions{}, static_cast<int>(e.augmentations), seed);
  row.set("K_aug_min", augmented.min_variant.constant);
  row.set("K_aug_max", augmented.max_variant.constant);
  row.set("jacobian_unit", train::jacobian_lower_bound(model, points, 200, 1e-9, seed).max);
  model.set_map(train::EmbeddingModel::Map::features);
  row.set("K_L_features", train::encoder_ratio_estimate(model, a, b).constant);
  row.set("jacobian_features", train::jacobian_lower_bound(model, points, 200, 1e-9, seed).max);
  const train::UpperBound upper = train::layer_product_bound(model, images.narrow(0, 0, 1));
  if (upper.value && upper.certified) row.set("layer_product_features", *upper.value);
  if (autoencoder) row.set("K_g", train::decoder_reverse_estimate(model.autoencoder(), a, b, test.coarse.index_select(0, first)).constant);
  // The orderings Table 1 claims, per model, so that claims can test them over seeds.
  const double k_l = *row.number("K_L");
  row.set("K_L_minus_K_aug_min", k_l - *row.number("K_aug_min"));
  row.set("K_L_minus_K_aug_max", k_l - *row.number("K_aug_max"));
  if (autoencoder) row.set("K_L_minus_K_g", k_l - *row.number("K_g"));
}

}  // namespace

void run_lipschitz_experiment(const json& definition, const ExperimentContext& context) {
  const json& p = definition.at("parameters");
  const std::string source_name = string_parameter(p, "source");
  if (source_name.find_first_of("/\\ ") != std::string::npos || has_control_character(source_name)) {
    throw InvalidArgument("definition", context.definition_path + ": \"source\" must be a definition's name");
  }
  const std::string source_path =
      (std::filesystem::path(context.definition_path).parent_path() / (source_name + ".json")).string();
  const json source = read_json_file(source_path, "definition", kMaxSimDefinitionBytes, "sims definition");
  if (source.value("kind", std::string()) != "transfer" || !source.contains("parameters")) {
    throw InvalidArgument("definition", "\"source\" must name a transfer definition; " + source_path + " is not one");
  }
  json source_parameters = source.at("parameters");
  if (context.smoke && source.contains("smoke")) source_parameters.update(source.at("smoke"));
  if (transfer_key_columns(source_parameters).size() != kLipschitzKey.size()) {
    throw InvalidArgument("definition", "source " + source_path + " sweeps cond_bandwidth; the lipschitz kind measures sources without that sweep");
  }
  Estimates e;
  e.pairs = integer_parameter(p, "pairs", 1);
  e.augmentations = integer_parameter(p, "augmentations", 1);
  e.jacobian_points = integer_parameter(p, "jacobian_points", 1);
  const auto keep = [&](const char* key, const RunRow& row) {
    if (!p.contains(key)) return true;
    const auto values = std::string(key) == "seeds" ? std::vector<std::string>{} : string_list(p, key);
    if (std::string(key) == "seeds") {
      const auto seeds = seed_list(p, key);
      return std::find(seeds.begin(), seeds.end(), std::stoull(row.text("seed").value_or("0"))) != seeds.end();
    }
    const std::string column = std::string(key) == "methods" ? "method" : "hierarchy";
    return std::find(values.begin(), values.end(), row.text(column).value_or("")) != values.end();
  };
  std::vector<PlannedRun> plan;
  for (auto& run : plan_transfer_runs(source_parameters)) {
    if (!keep("methods", run.parameters) || !keep("hierarchies", run.parameters) || !keep("seeds", run.parameters)) continue;
    run.options.train.checkpoint = run_checkpoint_path(context.out_dir, source_name, run.parameters);
    run.parameters.set("source", source_name);
    run.parameters.set("pairs", std::to_string(e.pairs));
    run.parameters.set("augmentations", std::to_string(e.augmentations));
    run.parameters.set("jacobian_points", std::to_string(e.jacobian_points));
    plan.push_back(std::move(run));
  }
  if (plan.empty()) throw InvalidArgument("definition", "selects no run of " + source_path);
  validate_claims(definition, kLipschitzAxes);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(context.out_dir) / "checkpoints" / source_name, ec);

  RunCache cache(context.stem() + ".csv", kLipschitzKey);
  std::size_t loaded = 0, trained_again = 0;
  std::vector<RunRow> rows;
  context.log() << "geomsim experiment " << context.name << ": " << plan.size() << " models of " << source_name << "\n";
  std::vector<RunRow*> planned;
  for (auto& run : plan) planned.push_back(&run.parameters);
  const RunChoice choice = choose_runs(planned, std::vector<bool>(plan.size(), false), cache, context, "lipschitz");
  const auto& cached = choice.cached;
  const auto& chosen = choice.chosen;
  for (std::size_t i = 0; i < plan.size(); ++i) {
    const PlannedRun& run = plan[i];
    if (!chosen[i]) {
      if (cached[i]) rows.push_back(*cached[i]);
      continue;
    }
    const auto start = std::chrono::steady_clock::now();
    RunRow row = run.parameters;
    TrainRunOptions options = context.on_device(run.options);
    options.quiet = true;
    // A finished checkpoint resumes with nothing left to train; a missing one trains the run
    // again (and keeps it). train_run then evaluates the model as the source did.
    const bool had_checkpoint = std::filesystem::exists(options.train.checkpoint, ec);
    (had_checkpoint ? loaded : trained_again) += 1;
    TrainedRun trained = train_run(options, context.job);
    add_transfer_metrics(trained, row);
    // Every rank measures, so that the ranks reach the next run's collectives together; rank 0 writes.
    add_lipschitz_metrics(trained.encoder, trained.autoencoder, trained.test, options.train.seed, e, row);
    row.set("lipschitz_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    if (!context.job.is_main()) continue;
    cache.add(row);
    context.log() << "geomsim experiment " << context.name << ": " << run.label << (had_checkpoint ? " (checkpoint)" : " (trained again)")
              << " done\n";
    rows.push_back(std::move(row));
  }
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the runs: the page waits for them all
  const RunTable table(rows, kLipschitzAxes);

  ExperimentPage page = begin_page(definition, context);
  page.paragraph("**Setup.** The models of [`" + source_name + "`](" + source_name + ".md) (" + std::to_string(plan.size()) +
                 " runs; each from its kept checkpoint, or trained again with the same options when the checkpoint is missing). "
                 "On " + std::to_string(e.pairs) + " random pairs of test images of one subclass, in float64: K_L and K_aug (" +
                 std::to_string(e.augmentations) + " random augmentations, the same one for both images of a pair) are the largest "
                 "ratios of output to input distance (the tangent from the origin of Figure 3) for the unit embedding; the Jacobian "
                 "bound is the largest singular value of the Jacobian at " + std::to_string(e.jacobian_points) + " test images (a local, "
                 "hence lower, bound on the global constant); the layer product bounds the features before the L2 normalisation "
                 "from above (certified: SVD for linear layers, the FFT bound for convolutions). K_g is the autoencoder's decoder, "
                 "reversed: the distance in the autoencoder's latent, which is not normalised, over the pixel distance of the "
                 "decoded images, so it is not on the unit-embedding scale of K_L and K_g against K_L compares two scales. "
                 "Cells are mean ± sd over seeds.");
  double seconds = 0;
  for (const auto& r : rows) seconds += r.number("lipschitz_seconds").value_or(0.0);
  page.paragraph("**Measured wall time.** " + clock_text(seconds) + " (" + format_number(std::round(seconds)) +
                 " s) for the estimates, including any training again (" + std::to_string(loaded) + " checkpoints loaded and " +
                 std::to_string(trained_again) + " runs trained again in this invocation).");
  const std::vector<std::pair<const char*, const char*>> metrics = {
      {"K_L", "K_L (unit)"}, {"K_aug_min", "K_aug min"}, {"K_aug_max", "K_aug max"}, {"jacobian_unit", "Jacobian (unit)"},
      {"K_L_features", "K_L (features)"}, {"jacobian_features", "Jacobian (features)"}, {"layer_product_features", "layer product (features)"},
      {"K_g", "K_g"}, {"sigma_over_spread", "σ_f/s_f mean"}, {"fine_probe", "c2f probe %"}};
  std::vector<std::string> header = {"method", "hierarchy"};
  for (const auto& m : metrics) header.push_back(m.second);
  std::vector<std::vector<std::string>> table_rows;
  for (const auto& h : table.values("hierarchy")) {
    for (const auto& m : table.values("method", {{"hierarchy", h}})) {
      for (const auto& encoder : table.values("encoder", {{"hierarchy", h}, {"method", m}})) {
        Selector where = {{"hierarchy", h}, {"method", m}, {"encoder", encoder}};
        for (const auto& axis : kLipschitzAxes) {
          if (std::none_of(where.begin(), where.end(), [&](const auto& x) { return x.first == axis; })) where.emplace_back(axis, table.values(axis, where).front());
        }
        std::vector<std::string> row = {training_method(m).label + (table.values("encoder").size() > 1 ? " (" + encoder + ")" : ""), h};
        for (const auto& metric : metrics) {
          const auto s = table.cell(where, metric.first);
          const double scale = std::string(metric.first) == "fine_probe" ? 100.0 : 1.0;
          row.push_back(s ? mean_sd_text(*s, scale, std::string(metric.first) == "fine_probe" ? 1 : 3) : "—");
        }
        table_rows.push_back(row);
      }
    }
  }
  page.table(header, table_rows);
  if (definition.contains("paper_table")) {
    page.paragraph("**The paper's Table 1** (estimated on its own models): " + definition.at("paper_table").get<std::string>());
  }
  end_page(page, definition, context, table, {{}}, {}, "Every model's estimates: [`" + context.name + ".csv`](" + context.name + ".csv).");
}

}  // namespace geomsim::train_experiments
