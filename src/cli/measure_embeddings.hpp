#pragma once
// `geomsim measure`'s options for saved embeddings and its output, shared by both programs:
// geomsim runs `measure --embeddings` itself in a build without libtorch (.npy and CSV files),
// geomsim-torch runs it (and `measure --checkpoint`) with torch.save files too. What is measured
// is experiments/embedding_measures.hpp; both print it with measure_text.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/experiments/embedding_measures.hpp"

namespace geomsim::cli {

// The footer of `measure --help` and the options both programs register the same way: the files
// of --embeddings, --gamma, --out and --heatmap-points.
void add_shared_measure_options(CLI::App& command, EmbeddingMeasureOptions& options);

// What only geomsim-torch can do with `measure`: a model and its images. geomsim without libtorch
// registers these options to refuse them by name.
struct ModelOnlyOptions {
  std::string checkpoint, data, images, cifar, device, threads, samples, reference_samples;
  bool flatten = false;
};
struct EmbeddingMeasureCommand {
  EmbeddingMeasureOptions measure;
  ModelOnlyOptions model;
  bool quiet = false;
};
// `geomsim measure` in a build without libtorch: the shared options, --labels, --hierarchy, --seed,
// --json, --quiet, and the model's options (refused when given).
void add_measure_embeddings_options(CLI::App& command, EmbeddingMeasureCommand& options);
int run_measure_embeddings_command(const EmbeddingMeasureCommand& options);
// geomsim's `measure` in a build without geomsim-torch: parses the command's `arguments` (after
// its name) and runs it; InvalidArgument and the like propagate to the caller's report.
int run_measure_without_torch(const std::string& description, const std::vector<std::string>& arguments);

// The class of each subclass under --hierarchy (a built-in name or a file), and its name.
std::vector<int> hierarchy_classes(const std::string& hierarchy, const std::vector<int>& subclasses, std::string& name);

// Measures, draws the heat map (--out), writes --json, and prints measure_text unless quiet.
// readers.coarse empty: hierarchy_classes.
int run_measure_embeddings(const EmbeddingMeasureOptions& options, EmbeddingReaders readers, bool quiet);

// The text `geomsim measure` prints for its JSON (of a model's embeddings or of saved ones).
std::string measure_text(const nlohmann::json& out);

}  // namespace geomsim::cli
