#pragma once
// What the commands that measure a trained model compute, a checkpoint of `geomsim train` or a
// TorchScript module saved by PyTorch: `geomsim eval` (what `geomsim train` reports: transfer,
// geometry, subgroups), `geomsim lipschitz` (Table 1 / Figure 3's constants and two bounds) and
// `geomsim measure` (the Section 4 geometry with Theorem 3, subgroup recovery and the cosine heat
// map, of a model's embeddings or of embeddings saved as .npy, CSV or by torch.save). Each run
// validates everything before any work, checks that no output is one of its inputs, and returns
// the command's JSON; the caller prints it and writes it. Built only with libtorch.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "geomsim/experiments/embedding_measures.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/train_experiments/image_data.hpp"

namespace geomsim::train_experiments {

// What every such command needs to load a model and its data, by the commands' option names.
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
// The evaluation of `geomsim train` on the model's embeddings of a training and a test split.
nlohmann::json eval_run(const EvalOptions& options);

struct LipschitzOptions {
  ModelDataOptions common;
  int64_t pairs = 500;
  int augmentations = 10;
  int64_t jacobian_points = 64;
  std::string map = "embedding";
  std::string out;  // STEM for STEM.csv and the Figure 3 plot
};
// The estimates and bounds, in float64. With options.out, STEM.csv (every pair) and Figure 3
// (STEM.png/.svg/.gp and the PDFs) are staged in `files`, for the caller to commit with its JSON.
nlohmann::json lipschitz_run(const LipschitzOptions& options, OutputTransaction& files);

struct MeasureOptions {
  ModelDataOptions common;
  int64_t samples = 0;             // test images measured (0: all)
  int64_t reference_samples = 10000;  // training images the mean classifier is fit on
  // --gamma, --out, --heatmap-points, and the files of --embeddings (saved embeddings instead of a
  // model; common.data.labels is then their class labels). Its labels, hierarchy, seed and
  // json_path are common's (embedding_measure_options).
  EmbeddingMeasureOptions measure;
};
// The geometry of a model's test embeddings (common.checkpoint). With options.measure.out, the
// cosine heat map is written (all its files or none) before the JSON is returned.
nlohmann::json measure_run(const MeasureOptions& options);

// measure --embeddings: the core's options (experiments/embedding_measures.hpp), after refusing
// what only a model uses (--checkpoint, --images, --data, --device), and readers that take
// torch.save files besides .npy and CSV (their --hierarchy is the caller's).
EmbeddingMeasureOptions embedding_measure_options(const MeasureOptions& options);
EmbeddingReaders torch_embedding_readers();

}  // namespace geomsim::train_experiments
