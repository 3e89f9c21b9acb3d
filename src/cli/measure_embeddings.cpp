#include "measure_embeddings.hpp"

#include <chrono>
#include <iostream>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "geomsim/experiments/embedding_files.hpp"
#include "geomsim/figures/cosine_heatmap.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"

namespace geomsim::cli {

using nlohmann::json;

void add_shared_measure_options(CLI::App& c, EmbeddingMeasureOptions& o) {
  c.footer("Reports seed 004's Section 4 geometry of embeddings: s_f(y), sigma_f(z), sigma_f(z)/s_f(y) per class and\n"
           "subclass (mean and max), subgroup recovery (k-means macro F1), and Theorem 3 at --gamma for the classes\n"
           "with exactly two subclasses: the gamma-margin error of the mean classifier beside the bound's leading term\n"
           "sigma_f(z)/sqrt(r_f - 2 log gamma) for each pair where it is not vacuous. --out STEM draws the cosine\n"
           "heat map sorted by class, then subclass.\n"
           "The embeddings come from a model (--checkpoint: test images embedded, the mean classifier fit on\n"
           "--reference-samples training images) or from files (--embeddings N x d, --labels and --subclasses N\n"
           "integers each; NumPy .npy, CSV, or a tensor saved by torch.save; subclass ids are global, each inside\n"
           "one class; --hierarchy FILE|NAME instead of --labels maps the subclasses to classes). A model and\n"
           "torch.save files need a build with libtorch (GEOMSIM_WITH_TORCH=ON); .npy and CSV files do not.");
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
  c.add_option("--out", o.out, "write the cosine heat map: STEM.csv, STEM.png, STEM.svg, STEM.pdf, STEM-2col.pdf, STEM.gp")
      ->check(no_control_characters());
  c.add_option("--heatmap-points", o.heatmap_points, "points in the heat map (a seeded sample when there are more)")->capture_default_str();
}

void add_measure_embeddings_options(CLI::App& c, EmbeddingMeasureCommand& o) {
  add_shared_measure_options(c, o.measure);
  c.add_option("--labels", o.measure.labels, "with --embeddings: the class of each row (.npy, CSV)");
  std::string names;
  for (const auto& n : train::builtin_hierarchy_names()) names += (names.empty() ? "" : ", ") + n;
  c.add_option("--hierarchy", o.measure.hierarchy,
               "instead of --labels: " + names + ", or a file mapping fine to coarse labels (JSON {\"0\": 0, ...} or CSV fine,coarse)");
  c.add_option("--seed", o.measure.seed, "seed of k-means and of the heat map's sample (>= 0)")->capture_default_str()->check(non_negative_integer());
  c.add_option("--json", o.measure.json_path, "write the results as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
  const std::string torch = " (needs a build with libtorch)";
  c.add_option("--checkpoint", o.model.checkpoint, "a checkpoint of geomsim train, or a TorchScript module" + torch);
  c.add_option("--data", o.model.data, "folder with Fashion-MNIST's IDX files" + torch);
  c.add_option("--images", o.model.images, "an IDX image file to use instead of Fashion-MNIST" + torch);
  c.add_option("--cifar", o.model.cifar, "a folder with CIFAR-10's or CIFAR-100's binary version" + torch);
  c.add_flag("--flatten", o.model.flatten, "give the model N x (H W) rows" + torch);
  c.add_option("--threads", o.model.threads, "CPU threads for libtorch" + torch);
  c.add_option("--device", o.model.device, "where the model runs" + torch);
  c.add_option("--samples", o.model.samples, "test images measured" + torch);
  c.add_option("--reference-samples", o.model.reference_samples, "training images the mean classifier is fit on" + torch);
}

int run_measure_embeddings_command(const EmbeddingMeasureCommand& o) {
  const ModelOnlyOptions& m = o.model;
  for (const auto& [given, name] : std::vector<std::pair<bool, const char*>>{{!m.checkpoint.empty(), "checkpoint"},
                                                                              {!m.data.empty(), "data"},
                                                                              {!m.images.empty(), "images"},
                                                                              {!m.cifar.empty(), "cifar"},
                                                                              {m.flatten, "flatten"},
                                                                              {!m.threads.empty(), "threads"},
                                                                              {!m.device.empty(), "device"},
                                                                              {!m.samples.empty(), "samples"},
                                                                              {!m.reference_samples.empty(), "reference-samples"}}) {
    if (given) {
      throw InvalidArgument(name, "needs a build with libtorch (GEOMSIM_WITH_TORCH=ON): it is a model's; this build measures "
                                  "--embeddings from .npy and CSV files");
    }
  }
  if (o.measure.embeddings.empty()) {
    throw InvalidArgument("embeddings", "is required with --labels (or --hierarchy) and --subclasses: this build has no libtorch, "
                                        "so it measures saved embeddings (.npy, CSV), not a --checkpoint");
  }
  return run_measure_embeddings(o.measure, core_embedding_readers(nullptr), o.quiet);
}

int run_measure_without_torch(const std::string& description, const std::vector<std::string>& arguments) {
  CLI::App app{"geomsim measure without libtorch", "geomsim"};
  CLI::App* measure = app.add_subcommand("measure", description);
  EmbeddingMeasureCommand options;
  add_measure_embeddings_options(*measure, options);
  app.require_subcommand(1, 1);
  refuse_empty_values(app);
  std::vector<std::string> words(arguments.rbegin(), arguments.rend());  // CLI11 takes them last first
  words.push_back("measure");
  try {
    app.parse(words);
  } catch (const CLI::ParseError& error) {
    return report_parse_error(app, error);
  }
  return run_measure_embeddings_command(options);
}

std::vector<int> hierarchy_classes(const std::string& hierarchy, const std::vector<int>& subclasses, std::string& name) {
  const train::LabelHierarchy h = train::resolve_hierarchy(hierarchy);
  name = h.name;
  for (int z : subclasses) {
    if (z < 0 || z >= h.num_fine()) {
      throw InvalidArgument("subclasses", "holds " + std::to_string(z) + ", outside the fine labels 0.." + std::to_string(h.num_fine() - 1) +
                                              " of --hierarchy " + hierarchy);
    }
  }
  return train::coarse_labels(h, subclasses);
}

int run_measure_embeddings(const EmbeddingMeasureOptions& options, EmbeddingReaders readers, bool quiet) {
  const auto start = std::chrono::steady_clock::now();
  if (!readers.coarse) readers.coarse = hierarchy_classes;
  EmbeddingMeasureOptions o = options;
  if (!o.out.empty()) o.out_files = figure_files(o.out);
  MeasuredEmbeddings m = measure_embedding_files(o, readers);
  if (!o.out.empty()) {
    const Index shown = write_cosine_heatmap(o.out, m.points, m.labels, m.subclasses, o.heatmap_points, o.seed,
                                             "cosine similarity of saved embeddings", "d = " + std::to_string(m.points.rows()));
    m.out["heatmap"] = {{"points", shown}, {"files", o.out_files}};
  }
  m.out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The JSON lands, then the text (formatted, and every number in it checked, before anything is
  // written: a failure leaves no file) is printed unless --quiet.
  const std::string text = measure_text(m.out);
  OutputTransaction files;
  if (!o.json_path.empty()) files.stage(o.json_path, m.out.dump(2) + "\n", "json");
  files.commit();
  if (!quiet) std::cout << text << std::flush;
  return 0;
}

std::string measure_text(const json& out) {
  std::ostringstream text;
  if (out.contains("input")) {
    text << "geomsim measure: " << out["input"]["embeddings"].get<std::string>() << " (" << out["samples"].get<int64_t>()
         << " embeddings, d = " << out["embedding_dim"].get<int64_t>() << ")";
  } else {
    const json& model = out["model"];
    text << "geomsim measure: " << model["model"].get<std::string>() << " on " << model["data"].get<std::string>() << ", "
         << model["hierarchy"].get<std::string>() << " (" << out["samples"].get<int64_t>() << " test images, d = "
         << out["embedding_dim"].get<int64_t>() << ")";
  }
  text << "\n" << evaluation_text(out["geometry"]);
  const double norm_min = out["embedding_norm"]["min"].get<double>(), norm_max = out["embedding_norm"]["max"].get<double>();
  if (norm_max - norm_min > 1e-3) {
    text << "  note: the embeddings are not unit vectors (norms " << fixed(norm_min, 4) << " to " << fixed(norm_max, 4)
         << "); the theory's geometry is on the sphere\n";
  }
  if (out.contains("heatmap")) text << "  wrote " << out["heatmap"]["files"][0].get<std::string>() << " and .png (cosine heat map)\n";
  return text.str();
}

}  // namespace geomsim::cli
