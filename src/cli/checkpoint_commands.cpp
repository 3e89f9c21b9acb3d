#include "checkpoint_commands.hpp"

#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "measure_output.hpp"
#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/train/data/embedding_files.hpp"
#include "geomsim/train/analysis/embedding_model.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/analysis/lipschitz.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/training/torch_threads.hpp"

namespace geomsim::cli {
using namespace train_experiments;  // the runs, data and JSON layouts these commands print
namespace {

using nlohmann::json;

void add_model_data_options(CLI::App& c, ModelDataOptions& o, bool checkpoint_required = true) {
  auto* checkpoint = c.add_option("--checkpoint", o.checkpoint, "a checkpoint of geomsim train, or a TorchScript module (torch.jit.save)");
  if (checkpoint_required) checkpoint->required();
  add_data_options(c, o.data);
  c.add_flag("--flatten", o.flatten, "give the model N x (H W) rows instead of N x 1 x H x W images");
  c.add_option("--seed", o.seed, "seed of the subsets and of everything random (>= 0)")->capture_default_str()->check(non_negative_integer());
  c.add_option("--threads", o.threads, "CPU threads for libtorch, from 0 (all cores) to the number of cores")->capture_default_str();
  add_device_option(c, o.device, o.device_given);
  c.add_option("--json", o.json_path, "write the results as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
}

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
                                              hierarchy.dump() + "); give --hierarchy");
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

void write_json(const std::string& path, const json& out) {
  OutputTransaction outputs;
  if (!path.empty()) outputs.stage(path, out.dump(2) + "\n", "json");
  outputs.commit();
}

json scatter_json(const train::PairScatter& s) { return {{"constant", s.constant}, {"pairs", s.input_distance.size()}}; }

// STEM.csv (one row per pair and estimate) and Figure 3: distance scatters with the tangents.
void stage_figure(const std::string& stem, const std::vector<std::pair<std::string, const train::PairScatter*>>& series,
                  const std::string& title, OutputTransaction& outputs) {
  std::string csv = "estimate,input_distance,output_distance,ratio\n";
  GnuplotFigure fig(static_cast<int>(420 * series.size()), 420);
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
  fig.line("set multiplot layout 1," + std::to_string(series.size()) + " title " + GnuplotFigure::text(title));
  for (std::size_t k = 0; k < series.size(); ++k) {
    const auto& [name, s] = series[k];
    const bool decoder = name == "decoder";
    fig.line("set title " + GnuplotFigure::text(name + ": K = " + fixed(s->constant, 4)));
    fig.line(std::string("set xlabel '") + (decoder ? "decoded-image distance" : "pixel distance") + "'");
    fig.line(std::string("set ylabel '") + (decoder ? "latent distance" : "embedding distance") + "'");
    fig.line("set grid; set key top left; set xrange [0:*]; set yrange [0:*]");
    fig.line("plot $s" + std::to_string(k) + " using 1:2 with points pt 7 ps 0.5 title 'pairs', " + format_number(s->constant) +
             "*x with lines lw 2 title 'tangent from the origin'");
  }
  fig.line("unset multiplot");
  outputs.stage(stem + ".csv", csv, "out");
  fig.render(stem, outputs);
}

}  // namespace

void add_eval_options(CLI::App& c, EvalOptions& o) {
  c.footer("Embeds a training and a test split with the model and reports what `geomsim train` reports: coarse\n"
           "accuracy, coarse-to-fine transfer (linear probe, mean classifier), the Section 4 geometry with\n"
           "Theorem 3 at --gamma, and subgroup recovery. A checkpoint of geomsim train carries its model's options\n"
           "(and for THANOS its autoencoder, whose embedding is concatenated); --hierarchy defaults to its run's.");
  add_model_data_options(c, o.common);
  c.add_option("--train-samples", o.train_samples, "training images the probes are fit on (0: all)")->capture_default_str();
  c.add_option("--test-samples", o.test_samples, "test images (0: all)")->capture_default_str();
  c.add_option("--gamma", o.gamma, "Theorem 3's margin gamma > 1")->capture_default_str();
}

int run_eval(const EvalOptions& o) {
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
  const json out = {{"command", "eval"},
                    {"model", model_json(loaded.model, o.common, loaded.data)},
                    {"run", json::parse(loaded.model.run_description())},
                    {"train_samples", training.images.size(0)},
                    {"test_samples", test.images.size(0)},
                    {"gamma", o.gamma},
                    {"evaluation", evaluation_json(evaluation)},
                    {"seconds", seconds}};
  // Every number is formatted (and checked) before the JSON lands: a failure leaves no file.
  std::ostringstream text;
  text << "geomsim eval: " << loaded.model.description() << " on " << data_source(loaded.data) << ", " << loaded.data.hierarchy
       << " (" << training.images.size(0) << " train, " << test.images.size(0) << " test images)\n"
       << evaluation_text(out["evaluation"]);
  write_json(o.common.json_path, out);
  if (!o.common.quiet) std::cout << text.str() << std::flush;
  return 0;
}

void add_lipschitz_options(CLI::App& c, LipschitzOptions& o) {
  c.footer(
      "Estimates, on pairs of test images of one subclass, the constants of seed 004's Table 1 the paper's way\n"
      "(the largest ratio of output to input distance: the tangent from the origin of Figure 3):\n"
      "  K_L    the encoder;  K_g  the decoder, reversed (THANOS checkpoints);\n"
      "  K_aug  over --augmentations random augmentations applied to both images of a pair, keeping each\n"
      "         pair's smallest ratio (Appendix G.5) or its largest (Figure 3's caption).\n"
      "Beside them: sigma_max of the Jacobian at --jacobian-points images by power iteration (a lower bound on\n"
      "the global constant) and the product of the layers' spectral norms (an upper bound; needs a chain of\n"
      "known layers: --map features for geomsim's mlp and cnn, an nn.Sequential for TorchScript).\n"
      "All in float64.");
  add_model_data_options(c, o.common);
  c.add_option("--pairs", o.pairs, "pairs of images of one subclass")->capture_default_str();
  c.add_option("--augmentations", o.augmentations, "random augmentations per pair for K_aug")->capture_default_str();
  c.add_option("--jacobian-points", o.jacobian_points, "images where the Jacobian's norm is taken")->capture_default_str();
  c.add_option("--map", o.map, "geomsim checkpoints: embedding (unit, the default) or features (before normalisation)")
      ->capture_default_str();
  c.add_option("--out", o.out, "write STEM.csv (every pair) and STEM.png/.svg/.gp (Figure 3)");
}

int run_lipschitz(const LipschitzOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  require_at_least("pairs", o.pairs, 1);
  require_at_least("augmentations", o.augmentations, 1);
  require_at_least("jacobian-points", o.jacobian_points, 1);
  if (o.map != "embedding" && o.map != "features") throw InvalidArgument("map", "must be embedding or features; got '" + o.map + "'");
  require_distinct_model_files(o.common, stem_files("out", o.out, {".csv", ".png", ".svg", ".gp"}));
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
  // The text first (every number formatted and checked), then the figure, its CSV and the JSON
  // land together: a failure anywhere leaves no file behind.
  std::ostringstream text;
  const auto line = [&](const std::string& name, const std::string& value) {
    text << "  " << name << std::string(name.size() < 52 ? 52 - name.size() : 1, ' ') << value << "\n";
  };
  text << "geomsim lipschitz: " << model.description() << " (" << o.map << ") on " << data_source(loaded.data) << ", " << o.pairs
       << " pairs within subclasses\n";
  line("K_L   encoder, largest ratio", fixed(encoder.constant, 6));
  line("K_g   decoder reversed, largest ratio", decoder ? fixed(decoder->constant, 6) : "n/a (no autoencoder)");
  line("K_aug " + std::to_string(o.augmentations) + " augmentations, per-pair min (G.5)", fixed(augmented.min_variant.constant, 6));
  line("K_aug " + std::to_string(o.augmentations) + " augmentations, per-pair max (Fig. 3)", fixed(augmented.max_variant.constant, 6));
  line("Jacobian sigma_max, max over " + std::to_string(jacobian.points) + " images (lower bound)", fixed(jacobian.max, 6));
  line("product of layer norms (upper bound)",
       upper.value ? fixed(*upper.value, 6) + (upper.certified ? "" : " (not certified: a layer's norm is a power-iteration estimate)")
                   : "n/a: " + upper.unsupported);
  if (encoder.constant == 0.0 && jacobian.max == 0.0) {
    text << "  the model maps every image to one point (a fully collapsed encoder): its spread is 0, its Lipschitz\n"
            "  constant 0, and Theorem 3 is vacuous\n";
  }
  OutputTransaction outputs;
  if (!o.out.empty()) {
    std::vector<std::pair<std::string, const train::PairScatter*>> series = {{"encoder", &encoder}};
    if (decoder) series.emplace_back("decoder", &*decoder);
    series.emplace_back("augmentation-min", &augmented.min_variant);
    series.emplace_back("augmentation-max", &augmented.max_variant);
    stage_figure(o.out, series, "Lipschitz estimates of " + model.description(), outputs);
    out["files"] = {o.out + ".csv", o.out + ".png", o.out + ".svg", o.out + ".gp"};
    text << "  wrote " << o.out << ".csv and .png\n";
  }
  if (!o.common.json_path.empty()) outputs.stage(o.common.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (!o.common.quiet) std::cout << text.str() << std::flush;
  return 0;
}

void add_measure_options(CLI::App& c, MeasureOptions& o) {
  c.footer("Reports seed 004's Section 4 geometry of embeddings: s_f(y), sigma_f(z), sigma_f(z)/s_f(y) per class and\n"
           "subclass (mean and max), subgroup recovery (k-means macro F1), and Theorem 3 at --gamma for the classes\n"
           "with exactly two subclasses: the gamma-margin error of the mean classifier beside the bound's leading term\n"
           "sigma_f(z)/sqrt(r_f - 2 log gamma) for each pair where it is not vacuous. --out STEM draws the cosine\n"
           "heat map sorted by class, then subclass.\n"
           "The embeddings come from a model (--checkpoint: test images embedded, the mean classifier fit on\n"
           "--reference-samples training images) or from files (--embeddings N x d, --labels and --subclasses N\n"
           "integers each; NumPy .npy, CSV, or a tensor saved by torch.save; subclass ids are global, each inside\n"
           "one class; --hierarchy FILE|NAME instead of --labels maps the subclasses to classes).");
  add_model_data_options(c, o.common, false);
  c.add_option("--samples", o.samples, "test images measured (0: all)")->capture_default_str();
  c.add_option("--reference-samples", o.reference_samples, "training images the mean classifier is fit on (0: all)")
      ->capture_default_str();
  c.add_option("--gamma", o.gamma, "Theorem 3's margin gamma > 1")->capture_default_str();
  c.add_option("--embeddings", o.embeddings, "N x d embeddings to measure instead of a model's (.npy, CSV, torch.save)");
  c.add_option("--subclasses", o.subclasses, "with --embeddings: the subclass of each row (.npy, CSV, torch.save)");
  c.add_option("--labels-column", o.labels_column, "the CSV column (header name or 0-based index) of --labels");
  c.add_option("--subclasses-column", o.subclasses_column, "the CSV column (header name or 0-based index) of --subclasses");
  c.add_option("--reference-embeddings", o.reference_embeddings,
               "with --embeddings: a labelled set D_s the mean classifier is fit on (default: the embeddings themselves)");
  c.add_option("--reference-subclasses", o.reference_subclasses, "the subclass of each row of --reference-embeddings");
  c.add_option("--predictions", o.predictions,
               "with --embeddings: a classifier's class prediction per row, for NC4 (agreement with the nearest class mean)");
  c.add_option("--out", o.out, "write the cosine heat map: STEM.csv, STEM.png, STEM.svg, STEM.gp");
  c.add_option("--heatmap-points", o.heatmap_points, "points in the heat map (a seeded sample when there are more)")->capture_default_str();
}

namespace {

void require_rows(const std::string& argument, std::size_t count, const std::string& of, Index rows) {
  if (static_cast<Index>(count) != rows) {
    throw InvalidArgument(argument, "holds " + std::to_string(count) + " labels but --" + of + " has " + std::to_string(rows) + " rows");
  }
}

// The text is formatted (and every number in it checked) before the JSON lands, so that a
// failure leaves no file; then the JSON is written and the text printed.
void finish_measure(const json& out, const std::string& headline, const ModelDataOptions& common) {
  std::ostringstream text;
  text << headline << "\n" << evaluation_text(out["geometry"]);
  const double norm_min = out["embedding_norm"]["min"].get<double>(), norm_max = out["embedding_norm"]["max"].get<double>();
  if (norm_max - norm_min > 1e-3) {
    text << "  note: the embeddings are not unit vectors (norms " << fixed(norm_min, 4) << " to " << fixed(norm_max, 4)
         << "); the theory's geometry is on the sphere\n";
  }
  if (out.contains("heatmap")) text << "  wrote " << out["heatmap"]["files"][0].get<std::string>() << " and .png (cosine heat map)\n";
  write_json(common.json_path, out);
  if (!common.quiet) std::cout << text.str() << std::flush;
}

int run_measure_embeddings(const MeasureOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const DataOptions& data = o.common.data;
  if (!o.common.checkpoint.empty()) throw InvalidArgument("embeddings", "measures saved embeddings; it cannot be combined with --checkpoint");
  if (!data.images.empty() || !data.data.empty()) throw InvalidArgument("embeddings", "cannot be combined with --images or --data (those are images for a model)");
  if (o.common.device_given) throw InvalidArgument("device", "is not used with --embeddings (no model runs; the measures are the core's, on the CPU)");
  if (o.subclasses.empty()) throw InvalidArgument("subclasses", "is required with --embeddings (the subclass of each row)");
  if (data.labels.empty() == data.hierarchy.empty()) {
    throw InvalidArgument("labels", "or --hierarchy (not both) must say the class of each row of --embeddings");
  }
  if (o.reference_embeddings.empty() != o.reference_subclasses.empty()) {
    throw InvalidArgument("reference-embeddings", "and --reference-subclasses go together");
  }
  require_margin_gamma(o.gamma);
  require_at_least("heatmap-points", o.heatmap_points, 2);
  std::vector<NamedPath> outputs = {{"json", o.common.json_path}};
  if (!o.out.empty()) {
    for (const auto& f : heatmap_files(o.out)) outputs.push_back({"out", f});
  }
  // Inputs may share a file (labels and subclasses as two CSV columns); no output may be any of them.
  for (const NamedPath& input : std::vector<NamedPath>{{"embeddings", o.embeddings}, {"labels", data.labels}, {"subclasses", o.subclasses},
                                                       {"reference-embeddings", o.reference_embeddings},
                                                       {"reference-subclasses", o.reference_subclasses},
                                                       {"predictions", o.predictions}}) {
    std::vector<NamedPath> paths = {input};
    paths.insert(paths.end(), outputs.begin(), outputs.end());
    require_distinct_files(paths);
  }
  if (!o.common.json_path.empty()) require_writable_path(o.common.json_path, "json");
  if (!o.out.empty()) require_writable_path(o.out + ".csv", "out");
  train::set_torch_threads(o.common.threads);

  const Matrix points = train::read_embeddings(o.embeddings, "embeddings");
  const std::vector<int> subclasses = train::read_labels(o.subclasses, "subclasses", o.subclasses_column);
  require_rows("subclasses", subclasses.size(), "embeddings", points.cols());
  std::vector<int> labels;
  std::string hierarchy_name;
  if (!data.labels.empty()) {
    labels = train::read_labels(data.labels, "labels", o.labels_column);
    require_rows("labels", labels.size(), "embeddings", points.cols());
  } else {
    const train::LabelHierarchy h = train::resolve_hierarchy(data.hierarchy);
    hierarchy_name = h.name;
    for (int z : subclasses) {
      if (z < 0 || z >= h.num_fine()) {
        throw InvalidArgument("subclasses", "holds " + std::to_string(z) + ", outside the fine labels 0.." + std::to_string(h.num_fine() - 1) +
                                                " of --hierarchy " + data.hierarchy);
      }
    }
    labels = train::coarse_labels(h, subclasses);
  }
  Matrix reference;
  std::vector<int> reference_subclasses;
  if (!o.reference_embeddings.empty()) {
    reference = train::read_embeddings(o.reference_embeddings, "reference-embeddings");
    reference_subclasses = train::read_labels(o.reference_subclasses, "reference-subclasses");
    require_rows("reference-subclasses", reference_subclasses.size(), "reference-embeddings", reference.cols());
  }
  std::vector<int> predictions;
  if (!o.predictions.empty()) predictions = train::read_labels(o.predictions, "predictions");
  json geometry = measured_geometry_json(points, labels, subclasses, o.gamma, o.common.seed, reference.size() ? &reference : nullptr,
                                         reference.size() ? &reference_subclasses : nullptr,
                                         o.predictions.empty() ? nullptr : &predictions);
  json out = {{"command", "measure"},
              {"input",
               {{"embeddings", o.embeddings},
                {"format", train::to_string(train::detect_array_format(o.embeddings, "embeddings"))},
                {"labels", data.labels.empty() ? json(nullptr) : json(data.labels)},
                {"hierarchy", hierarchy_name.empty() ? json(nullptr) : json(hierarchy_name)},
                {"subclasses", o.subclasses},
                {"reference_embeddings", o.reference_embeddings.empty() ? json(nullptr) : json(o.reference_embeddings)},
                {"seed", o.common.seed}}},
              {"samples", points.cols()},
              {"reference_samples", o.reference_embeddings.empty() ? json(nullptr) : json(reference.cols())},
              {"embedding_dim", points.rows()},
              {"embedding_norm", norm_json(points)},
              {"geometry", geometry}};
  if (!o.out.empty()) {
    const Index shown = write_cosine_heatmap(o.out, points, labels, subclasses, o.heatmap_points, o.common.seed,
                                             "cosine similarity of " + std::to_string(std::min<Index>(points.cols(), o.heatmap_points)) + " embeddings");
    out["heatmap"] = {{"points", shown}, {"files", heatmap_files(o.out)}};
  }
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  finish_measure(out,
                 "geomsim measure: " + o.embeddings + " (" + std::to_string(points.cols()) + " embeddings, d = " + std::to_string(points.rows()) + ")",
                 o.common);
  return 0;
}

}  // namespace

int run_measure(const MeasureOptions& o) {
  if (!o.embeddings.empty()) return run_measure_embeddings(o);
  if (o.common.checkpoint.empty()) throw InvalidArgument("checkpoint", "is required, or --embeddings with --labels and --subclasses");
  for (const auto& [given, name] : std::vector<std::pair<bool, const char*>>{{!o.subclasses.empty(), "subclasses"},
                                                                              {!o.reference_embeddings.empty(), "reference-embeddings"},
                                                                              {!o.reference_subclasses.empty(), "reference-subclasses"},
                                                                              {!o.predictions.empty(), "predictions"},
                                                                              {!o.labels_column.empty(), "labels-column"},
                                                                              {!o.subclasses_column.empty(), "subclasses-column"}}) {
    if (given) throw InvalidArgument(name, "applies with --embeddings only");
  }
  const auto start = std::chrono::steady_clock::now();
  train::require_margin_gamma(o.gamma);
  require_at_least("samples", o.samples, 0);
  require_at_least("reference-samples", o.reference_samples, 0);
  std::vector<NamedPath> heatmap;
  for (const auto& f : o.out.empty() ? std::vector<std::string>{} : heatmap_files(o.out)) heatmap.push_back({"out", f});
  require_distinct_model_files(o.common, heatmap);
  if (!o.out.empty()) require_writable_path(o.out + ".csv", "out");
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
              {"geometry", measured_geometry_json(points, labels, subclasses, o.gamma, o.common.seed, &reference_points, &reference_subclasses)}};
  if (!o.out.empty()) {
    const Index shown = write_cosine_heatmap(o.out, points, labels, subclasses, o.heatmap_points, o.common.seed,
                                             "cosine similarity of " + loaded.model.description());
    out["heatmap"] = {{"points", shown}, {"files", heatmap_files(o.out)}};
  }
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  finish_measure(out,
                 "geomsim measure: " + loaded.model.description() + " on " + data_source(loaded.data) + ", " + loaded.data.hierarchy + " (" +
                     std::to_string(test.images.size(0)) + " test images, d = " + std::to_string(z.size(1)) + ")",
                 o.common);
  return 0;
}

}  // namespace geomsim::cli
