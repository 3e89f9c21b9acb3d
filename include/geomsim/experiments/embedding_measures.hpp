#pragma once
// `geomsim measure --embeddings`: the Section 4 geometry of embeddings a user saved, with their
// class and subclass labels (measure_json's numbers), read from files. One implementation for
// both programs: geomsim runs it itself in a build without libtorch (.npy and CSV), and
// geomsim-torch runs it with readers that also take torch.save files. Everything is checked before
// the first file is read; no output may be one of the inputs.
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

// The files and settings, by the option names of `geomsim measure`.
struct EmbeddingMeasureOptions {
  std::string embeddings, subclasses, labels, hierarchy;  // labels or hierarchy (not both)
  std::string labels_column, subclasses_column;
  std::string reference_embeddings, reference_subclasses;  // D_s for the mean classifier (optional)
  std::string predictions;                                 // a classifier's class per row, for NC4 (optional)
  double gamma = 1.1;
  std::uint64_t seed = 0;
  std::string json_path;
  std::string out;  // STEM of the cosine heat map, drawn by the caller
  std::vector<std::string> out_files;  // the files it writes (figure_files(out)), none of them an input
  std::int64_t heatmap_points = 1000;
};

// How the files are read and --hierarchy resolved. The defaults read .npy and CSV
// (embedding_files.hpp); geomsim-torch's add torch.save.
struct EmbeddingReaders {
  std::function<Matrix(const std::string& path, const std::string& argument)> embeddings;
  std::function<std::vector<int>(const std::string& path, const std::string& argument, const std::string& column)> labels;
  // The class of each subclass under --hierarchy (InvalidArgument on a subclass outside it), and
  // the hierarchy's name.
  std::function<std::vector<int>(const std::string& hierarchy, const std::vector<int>& subclasses, std::string& name)> coarse;
};
EmbeddingReaders core_embedding_readers(
    std::function<std::vector<int>(const std::string&, const std::vector<int>&, std::string&)> coarse);

// What was measured: the command's JSON (without "heatmap" and "seconds") and the arrays the heat
// map is drawn from.
struct MeasuredEmbeddings {
  nlohmann::json out;
  Matrix points;  // d x N
  std::vector<int> labels, subclasses;
};

// Checks the options and the files (existence, distinctness from the outputs), then reads and
// measures.
MeasuredEmbeddings measure_embedding_files(const EmbeddingMeasureOptions& options, const EmbeddingReaders& readers);

}  // namespace geomsim
