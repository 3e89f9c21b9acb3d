#pragma once
// Commands that measure a trained model, a checkpoint of `geomsim train` or a TorchScript
// module saved by PyTorch: `geomsim eval` (what `geomsim train` reports: transfer, geometry,
// subgroups), `geomsim lipschitz` (Table 1 / Figure 3's constants and two bounds) and
// `geomsim measure` (the Section 4 geometry with Theorem 3, subgroup recovery and the cosine heat
// map, of a model's embeddings or of embeddings saved as .npy, CSV or by torch.save). Built only
// with libtorch.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

#include "data_options.hpp"

namespace geomsim::cli {

// What both commands need to load a model and its data.
struct ModelDataOptions {
  std::string checkpoint;
  DataOptions data;  // hierarchy: the checkpoint's unless given
  bool flatten = false;              // feed N x (C H W) rows instead of N x C x H x W images
  uint64_t seed = 0;
  int threads = 0;
  std::string device = "auto";  // where the model runs (train::resolve_device)
  bool device_given = false;
  std::string json_path;
  bool quiet = false;
};

struct EvalOptions {
  ModelDataOptions common;
  int64_t train_samples = 12000, test_samples = 0;
  double gamma = 1.1;
};
void add_eval_options(CLI::App& command, EvalOptions& options);
int run_eval(const EvalOptions& options);

struct LipschitzOptions {
  ModelDataOptions common;
  int64_t pairs = 500;
  int augmentations = 10;
  int64_t jacobian_points = 64;
  std::string map = "embedding";
  std::string out;  // STEM for STEM.csv and the Figure 3 plot
};
void add_lipschitz_options(CLI::App& command, LipschitzOptions& options);
int run_lipschitz(const LipschitzOptions& options);

struct MeasureOptions {
  ModelDataOptions common;
  int64_t samples = 0;             // test images measured (0: all)
  int64_t reference_samples = 10000;  // training images the mean classifier is fit on
  double gamma = 1.1;
  // Saved embeddings instead of a model (common.data.labels is then their class labels):
  std::string embeddings, subclasses, labels_column, subclasses_column;
  std::string reference_embeddings, reference_subclasses;  // D_s for the mean classifier (optional)
  std::string predictions;         // a model's class prediction per row, for NC4 (optional)
  std::string out;                 // STEM of the cosine heat map (csv, png, svg, gp)
  int64_t heatmap_points = 1000;
};
void add_measure_options(CLI::App& command, MeasureOptions& options);
int run_measure(const MeasureOptions& options);

}  // namespace geomsim::cli
