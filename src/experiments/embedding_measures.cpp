#include "geomsim/experiments/embedding_measures.hpp"

#include "geomsim/experiments/embedding_files.hpp"
#include "geomsim/experiments/measure_json.hpp"
#include "geomsim/metrics/embedding_geometry.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/input_files.hpp"

namespace geomsim {
namespace {

using nlohmann::json;

void require_rows(const std::string& argument, std::size_t count, const std::string& of, Index rows) {
  if (static_cast<Index>(count) != rows) {
    throw InvalidArgument(argument, "holds " + std::to_string(count) + " labels but --" + of + " has " + std::to_string(rows) + " rows");
  }
}

}  // namespace

EmbeddingReaders core_embedding_readers(
    std::function<std::vector<int>(const std::string&, const std::vector<int>&, std::string&)> coarse) {
  return {read_embedding_array, read_label_array, std::move(coarse)};
}

MeasuredEmbeddings measure_embedding_files(const EmbeddingMeasureOptions& o, const EmbeddingReaders& read) {
  if (o.subclasses.empty()) throw InvalidArgument("subclasses", "is required with --embeddings (the subclass of each row)");
  if (o.labels.empty() == o.hierarchy.empty()) {
    throw InvalidArgument("labels", "or --hierarchy (not both) must say the class of each row of --embeddings");
  }
  if (o.reference_embeddings.empty() != o.reference_subclasses.empty()) {
    throw InvalidArgument("reference-embeddings", "and --reference-subclasses go together");
  }
  require_margin_gamma(o.gamma);
  require_at_least("heatmap-points", o.heatmap_points, 2);
  std::vector<NamedPath> outputs = {{"json", o.json_path}};
  for (const auto& f : o.out_files) outputs.push_back({"out", f});
  // Inputs may share a file (labels and subclasses as two CSV columns); no output may be any of them.
  const std::vector<NamedPath> inputs = {{"embeddings", o.embeddings},
                                         {"labels", o.labels},
                                         {"subclasses", o.subclasses},
                                         {"reference-embeddings", o.reference_embeddings},
                                         {"reference-subclasses", o.reference_subclasses},
                                         {"predictions", o.predictions}};
  for (const NamedPath& input : inputs) {
    std::vector<NamedPath> paths = {input};
    paths.insert(paths.end(), outputs.begin(), outputs.end());
    require_distinct_files(paths);
  }
  // Every input a regular file, checked before any is opened: a FIFO would block the first read
  // forever, and /dev/zero never ends.
  for (const NamedPath& input : inputs) {
    if (!input.path.empty()) regular_file_size(input.path, input.argument);
  }
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  if (!o.out.empty()) require_writable_path(o.out + ".csv", "out");

  MeasuredEmbeddings m;
  m.points = read.embeddings(o.embeddings, "embeddings");
  m.subclasses = read.labels(o.subclasses, "subclasses", o.subclasses_column);
  require_rows("subclasses", m.subclasses.size(), "embeddings", m.points.cols());
  std::string hierarchy_name;
  if (!o.labels.empty()) {
    m.labels = read.labels(o.labels, "labels", o.labels_column);
    require_rows("labels", m.labels.size(), "embeddings", m.points.cols());
  } else {
    m.labels = read.coarse(o.hierarchy, m.subclasses, hierarchy_name);
  }
  Matrix reference;
  std::vector<int> reference_subclasses;
  if (!o.reference_embeddings.empty()) {
    reference = read.embeddings(o.reference_embeddings, "reference-embeddings");
    reference_subclasses = read.labels(o.reference_subclasses, "reference-subclasses", "");
    require_rows("reference-subclasses", reference_subclasses.size(), "reference-embeddings", reference.cols());
  }
  std::vector<int> predictions;
  if (!o.predictions.empty()) predictions = read.labels(o.predictions, "predictions", "");
  json geometry = measured_geometry_json(m.points, m.labels, m.subclasses, o.gamma, o.seed, reference.size() ? &reference : nullptr,
                                         reference.size() ? &reference_subclasses : nullptr,
                                         o.predictions.empty() ? nullptr : &predictions);
  m.out = {{"command", "measure"},
           {"input",
            {{"embeddings", o.embeddings},
             {"format", to_string(detect_array_format(o.embeddings, "embeddings"))},
             {"labels", o.labels.empty() ? json(nullptr) : json(o.labels)},
             {"hierarchy", hierarchy_name.empty() ? json(nullptr) : json(hierarchy_name)},
             {"subclasses", o.subclasses},
             {"reference_embeddings", o.reference_embeddings.empty() ? json(nullptr) : json(o.reference_embeddings)},
             {"seed", o.seed}}},
           {"samples", m.points.cols()},
           {"reference_samples", o.reference_embeddings.empty() ? json(nullptr) : json(reference.cols())},
           {"embedding_dim", m.points.rows()},
           {"embedding_norm", norm_json(m.points)},
           {"geometry", geometry}};
  return m;
}

}  // namespace geomsim
