#include "geomsim/train_experiments/checkpoint_measures.hpp"

#include <chrono>
#include <cmath>
#include <optional>

#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/train/analysis/embedding_model.hpp"
#include "geomsim/train/analysis/lipschitz.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/data/embedding_files.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/training/torch_threads.hpp"
#include "geomsim/figures/cosine_heatmap.hpp"
#include "geomsim/train_experiments/evaluation_json.hpp"
#include "geomsim/experiments/measure_json.hpp"

namespace geomsim::train_experiments {
namespace {

using nlohmann::json;

// No two of the command's files (the model, the data, --json, and `outputs`) may be one file.
void require_distinct_model_files(const ModelDataOptions& o, std::vector<NamedPath> outputs = {}) {
  std::vector<NamedPath> files = {{"checkpoint", o.checkpoint}};
  for (auto& file : data_files(o.data)) files.push_back(file);
  files.push_back({"json", o.json_path});
  for (auto& file : outputs) files.push_back(file);
  require_distinct_files(files);
}

// The model, and the data options completed with the checkpoint's hierarchy.
struct LoadedModel {
  train::EmbeddingModel model;
  DataOptions data;
};

LoadedModel load_model(const ModelDataOptions& o) {
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  train::set_torch_threads(o.threads);
  const c10::Device device = train::resolve_device(o.device);  // before the model: a bad --device loads nothing
  LoadedModel loaded{train::EmbeddingModel::load(o.checkpoint), o.data};
  loaded.model.to(device);
  loaded.model.set_flatten_input(o.flatten);
  if (loaded.data.hierarchy.empty()) {
    const json run = json::parse(loaded.model.run_description());  // an object: the description was checked
    const json hierarchy = run.value("hierarchy", json(data_hierarchy(loaded.data)));
    if (!hierarchy.is_string()) {
      throw InvalidArgument("checkpoint", o.checkpoint + " holds a malformed model description (run.hierarchy must be a string, got " +
                                              json_excerpt(hierarchy) + "); give --hierarchy");
    }
    loaded.data.hierarchy = hierarchy.get<std::string>();
  }
  return loaded;
}

json model_json(const train::EmbeddingModel& model, const ModelDataOptions& o, const DataOptions& data) {
  return {{"checkpoint", o.checkpoint}, {"format", model.format()}, {"model", model.description()},
          {"data", data_source(data)},  {"hierarchy", data.hierarchy}, {"seed", o.seed},
          {"device", train::device_name(model.device())}};
}

json scatter_json(const train::PairScatter& s) { return {{"constant", s.constant}, {"pairs", s.input_distance.size()}}; }

// STEM.csv (one row per pair and estimate) and Figure 3: distance scatters with the tangents, in
// the house style of figures/line_figure.hpp where panels with axes of their own allow it: the
// palette's first two line types, one legend entry per style (in the first panel only), the
// fixed settings in a subtitle, and the paper's PDFs.
void stage_figure(const std::string& stem, const std::vector<std::pair<std::string, const train::PairScatter*>>& series,
                  const std::string& title, const std::string& subtitle, OutputTransaction& outputs) {
  std::string csv = "estimate,input_distance,output_distance,ratio\n";
  GnuplotFigure fig(static_cast<int>(420 * series.size()), 440);
  fig.paper_sizes();
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& s = *series[k].second;
    std::vector<std::vector<double>> rows;
    for (std::size_t i = 0; i < s.input_distance.size(); ++i) {
      csv += series[k].first + "," + format_number(s.input_distance[i]) + "," + format_number(s.output_distance[i]) + "," +
             format_number(s.output_distance[i] / s.input_distance[i]) + "\n";
      rows.push_back({s.input_distance[i], s.output_distance[i]});
    }
    fig.datablock("s" + std::to_string(k), rows);
  }
  fig.line("set multiplot layout 1," + std::to_string(series.size()) + " title " + GnuplotFigure::wrapped_text(title, subtitle));
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& [name, s] = series[k];
    const bool decoder = name == "decoder";
    fig.line("set title " + GnuplotFigure::text(name + ": K = " + format_significant(s->constant, 4)));
    fig.line(std::string("set xlabel '") + (decoder ? "decoded-image distance" : "pixel distance") + "'");
    fig.line(std::string("set ylabel '") + (decoder ? "latent distance" : "embedding distance") + "'");
    fig.line("set grid lt 1 lc rgb '#dddddd' lw 0.5; set key top left opaque; set xrange [0:*]; set yrange [0:*]");
    const bool legend = k == 0;
    fig.line("plot $s" + std::to_string(k) + " using 1:2 with points lt 1 ps 0.5 " + (legend ? "title 'pairs'" : "notitle") + ", " +
             format_number(s->constant) + "*x with lines lt 2 lw 2 " + (legend ? "title 'tangent from the origin'" : "notitle"));
  }
  fig.line("unset multiplot");
  outputs.stage(stem + ".csv", csv, "out");
  fig.render(stem, outputs);
}

}  // namespace

EmbeddingMeasureOptions embedding_measure_options(const MeasureOptions& o) {
  const DataOptions& data = o.common.data;
  if (!o.common.checkpoint.empty()) throw InvalidArgument("embeddings", "measures saved embeddings; it cannot be combined with --checkpoint");
  if (!data.images.empty() || !data.data.empty()) throw InvalidArgument("embeddings", "cannot be combined with --images or --data (those are images for a model)");
  if (o.common.device_given) throw InvalidArgument("device", "is not used with --embeddings (no model runs; the measures are the core's, on the CPU)");
  train::set_torch_threads(o.common.threads);
  EmbeddingMeasureOptions m = o.measure;
  m.labels = data.labels;
  m.hierarchy = data.hierarchy;
  m.seed = o.common.seed;
  m.json_path = o.common.json_path;
  return m;
}

EmbeddingReaders torch_embedding_readers() { return {train::read_embeddings, train::read_labels, nullptr}; }

json eval_run(const EvalOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  train::require_margin_gamma(o.gamma);
  require_at_least("train-samples", o.train_samples, 0);
  require_at_least("test-samples", o.test_samples, 0);
  require_distinct_model_files(o.common);
  LoadedModel loaded = load_model(o.common);
  const LabelledSplit training = load_split(loaded.data, true, o.train_samples, o.common.seed, "train-samples");
  const LabelledSplit test = load_split(loaded.data, false, o.test_samples, o.common.seed + 7, "test-samples");
  const auto train_z = loaded.model.embed(training.images), test_z = loaded.model.embed(test.images);
  const train::TransferEvaluation evaluation = train::evaluate_transfer(train_z, training.coarse, training.fine, test_z, test.coarse,
                                                                        test.fine, o.common.seed, o.gamma);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json out = {{"command", "eval"},
                    {"model", model_json(loaded.model, o.common, loaded.data)},
                    {"run", json::parse(loaded.model.run_description())},
                    {"train_samples", training.images.size(0)},
                    {"test_samples", test.images.size(0)},
                    {"gamma", o.gamma},
                    {"evaluation", evaluation_json(evaluation)},
                    {"seconds", seconds}};
  return out;
}

json lipschitz_run(const LipschitzOptions& o, OutputTransaction& files) {
  const auto start = std::chrono::steady_clock::now();
  require_at_least("pairs", o.pairs, 1);
  require_at_least("augmentations", o.augmentations, 1);
  require_at_least("jacobian-points", o.jacobian_points, 1);
  if (o.map != "embedding" && o.map != "features") throw InvalidArgument("map", "must be embedding or features; got '" + o.map + "'");
  std::vector<NamedPath> figure;
  for (const auto& f : o.out.empty() ? std::vector<std::string>{} : figure_files(o.out)) figure.push_back({"out", f});
  require_distinct_model_files(o.common, figure);
  if (!o.out.empty()) require_writable_path(o.out + ".csv", "out");
  LoadedModel loaded = load_model(o.common);
  train::EmbeddingModel& model = loaded.model;
  model.set_map(o.map == "features" ? train::EmbeddingModel::Map::features : train::EmbeddingModel::Map::embedding);
  model.to_double();
  const LabelledSplit test = load_split(loaded.data, false, 0, o.common.seed + 7, "samples");
  const auto images = test.images.to(torch::kDouble);
  const auto [first, second] = train::same_label_pairs(test.fine, o.pairs, o.common.seed);
  const auto a = images.index_select(0, first), b = images.index_select(0, second);

  const train::PairScatter encoder = train::encoder_ratio_estimate(model, a, b);
  std::optional<train::PairScatter> decoder;
  if (model.autoencoder()) decoder = train::decoder_reverse_estimate(model.autoencoder(), a, b, test.coarse.index_select(0, first));
  const train::AugmentationScatter augmented =
      train::augmentation_estimate(model, a, b, train::default_augmentations(images.size(1), images.size(3)), o.augmentations,
                                    o.common.seed);
  const auto points = images.narrow(0, 0, std::min<int64_t>(o.jacobian_points, images.size(0)));
  const train::JacobianBound jacobian = train::jacobian_lower_bound(model, points, 200, 1e-9, o.common.seed);
  const train::UpperBound upper = train::layer_product_bound(model, images.narrow(0, 0, 1));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  json layers = json::array();
  for (const auto& l : upper.layers) {
    layers.push_back({{"layer", l.name}, {"constant", l.constant}, {"method", l.method},
                      {"power_iteration_estimate", l.estimate ? json(*l.estimate) : json(nullptr)}});
  }
  json out = {{"command", "lipschitz"},
              {"model", model_json(model, o.common, loaded.data)},
              {"map", o.map},
              {"pairs", o.pairs},
              {"augmentations", o.augmentations},
              {"K_L", scatter_json(encoder)},
              {"K_g", decoder ? scatter_json(*decoder) : json(nullptr)},
              {"K_aug_min", scatter_json(augmented.min_variant)},
              {"K_aug_max", scatter_json(augmented.max_variant)},
              {"jacobian_lower_bound",
               {{"max", jacobian.max}, {"mean", jacobian.mean}, {"points", jacobian.points}, {"iterations", jacobian.iterations}}},
              {"layer_product_upper_bound",
               {{"value", upper.value ? json(*upper.value) : json(nullptr)},
                {"certified", upper.value && upper.certified},
                {"layers", layers},
                {"unsupported", upper.unsupported}}},
              {"seconds", seconds}};
  if (!o.out.empty()) {
    std::vector<std::pair<std::string, const train::PairScatter*>> series = {{"encoder", &encoder}};
    if (decoder) series.emplace_back("decoder", &*decoder);
    series.emplace_back("augmentation-min", &augmented.min_variant);
    series.emplace_back("augmentation-max", &augmented.max_variant);
    stage_figure(o.out, series, "Lipschitz estimates of " + model.description(),
                 data_name(loaded.data) + " " + loaded.data.hierarchy + ", " + std::to_string(o.pairs) + " same-subclass pairs, " +
                     std::to_string(o.augmentations) + " augmentations, map " + o.map + ", seed " + std::to_string(o.common.seed),
                 files);
    out["files"] = figure_files(o.out);
  }
  return out;
}

json measure_run(const MeasureOptions& o) {
  if (!o.measure.embeddings.empty()) throw std::logic_error("measure_run measures a model; measure --embeddings is the core's");
  if (o.common.checkpoint.empty()) throw InvalidArgument("checkpoint", "is required, or --embeddings with --labels and --subclasses");
  for (const auto& [given, name] : std::vector<std::pair<bool, const char*>>{{!o.measure.subclasses.empty(), "subclasses"},
                                                                              {!o.measure.reference_embeddings.empty(), "reference-embeddings"},
                                                                              {!o.measure.reference_subclasses.empty(), "reference-subclasses"},
                                                                              {!o.measure.predictions.empty(), "predictions"},
                                                                              {!o.measure.labels_column.empty(), "labels-column"},
                                                                              {!o.measure.subclasses_column.empty(), "subclasses-column"}}) {
    if (given) throw InvalidArgument(name, "applies with --embeddings only");
  }
  const auto start = std::chrono::steady_clock::now();
  train::require_margin_gamma(o.measure.gamma);
  require_at_least("samples", o.samples, 0);
  require_at_least("reference-samples", o.reference_samples, 0);
  std::vector<NamedPath> heatmap;
  for (const auto& f : o.measure.out.empty() ? std::vector<std::string>{} : figure_files(o.measure.out)) heatmap.push_back({"out", f});
  require_distinct_model_files(o.common, heatmap);
  if (!o.measure.out.empty()) require_writable_path(o.measure.out + ".csv", "out");
  LoadedModel loaded = load_model(o.common);
  const LabelledSplit test = load_split(loaded.data, false, o.samples, o.common.seed + 7, "samples");
  const LabelledSplit reference = load_split(loaded.data, true, o.reference_samples, o.common.seed, "reference-samples");
  const auto z = loaded.model.embed(test.images);
  const auto reference_z = loaded.model.embed(reference.images);
  const Matrix points = train::to_points(z), reference_points = train::to_points(reference_z);
  const std::vector<int> labels = train::to_ints(test.coarse), subclasses = train::to_ints(test.fine), reference_subclasses = train::to_ints(reference.fine);
  json out = {{"command", "measure"},
              {"model", model_json(loaded.model, o.common, loaded.data)},
              {"samples", test.images.size(0)},
              {"reference_samples", reference.images.size(0)},
              {"embedding_dim", z.size(1)},
              {"embedding_norm", norm_json(points)},
              {"geometry", measured_geometry_json(points, labels, subclasses, o.measure.gamma, o.common.seed, &reference_points, &reference_subclasses)}};
  if (!o.measure.out.empty()) {
    const Index shown = write_cosine_heatmap(o.measure.out, points, labels, subclasses, o.measure.heatmap_points, o.common.seed,
                                             "cosine similarity of " + loaded.model.description(),
                                             data_name(loaded.data) + " " + loaded.data.hierarchy + ", d = " + std::to_string(z.size(1)) + ", test images");
    out["heatmap"] = {{"points", shown}, {"files", figure_files(o.measure.out)}};
  }
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace geomsim::train_experiments
