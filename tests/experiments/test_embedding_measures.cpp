// measure --embeddings in the core (issue 27): CSV and .npy embeddings read without libtorch, the
// report equal to measured_geometry_json of the same points, torch.save files and bad inputs
// refused by name before anything is measured.
#include <catch2/catch.hpp>

#include <fstream>

#include "geomsim/experiments/embedding_files.hpp"
#include "geomsim/experiments/embedding_measures.hpp"
#include "geomsim/experiments/measure_json.hpp"
#include "geomsim/support/errors.hpp"
#include "scratch_folder.hpp"

using namespace geomsim;
using Scratch = geomsim::testing::ScratchFolder;

namespace {

std::string write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// 8 points in R^2 around (+-1, 0) and (0, +-1): classes 0 and 1, two subclasses each.
struct Files {
  std::string embeddings, labels;
  explicit Files(const Scratch& dir) {
    const double xy[8][2] = {{1, 0.1}, {1, -0.1}, {-1, 0.1}, {-1, -0.1}, {0.1, 1}, {-0.1, 1}, {0.1, -1}, {-0.1, -1}};
    std::string rows;
    for (const auto& p : xy) rows += std::to_string(p[0]) + "," + std::to_string(p[1]) + "\n";
    embeddings = write(dir("z.csv"), rows);
    labels = write(dir("labels.csv"), "class,subclass\n0,0\n0,0\n0,1\n0,1\n1,2\n1,2\n1,3\n1,3\n");
  }
};

EmbeddingMeasureOptions options_for(const Files& f) {
  EmbeddingMeasureOptions o;
  o.embeddings = f.embeddings;
  o.labels = f.labels;
  o.labels_column = "class";
  o.subclasses = f.labels;
  o.subclasses_column = "subclass";
  return o;
}

std::string refusal(const EmbeddingMeasureOptions& o) {
  try {
    measure_embedding_files(o, core_embedding_readers(nullptr));
  } catch (const InvalidArgument& e) {
    return "--" + e.argument() + " " + e.requirement();
  }
  return "not refused";
}

}  // namespace

TEST_CASE("measure --embeddings reads CSV without libtorch and reports measured_geometry_json", "[embedding_measures]") {
  Scratch dir("embedding-measures");
  const Files files(dir);
  const MeasuredEmbeddings m = measure_embedding_files(options_for(files), core_embedding_readers(nullptr));
  CHECK(m.points.rows() == 2);
  CHECK(m.points.cols() == 8);
  CHECK(m.labels == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
  CHECK(m.subclasses == std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3});
  CHECK(m.out["input"]["format"] == "csv");
  CHECK(m.out["samples"] == 8);
  CHECK(m.out["geometry"] == measured_geometry_json(m.points, m.labels, m.subclasses, 1.1, 0));
}

TEST_CASE("The hierarchy option (--hierarchy) goes through the caller's hook", "[embedding_measures]") {
  Scratch dir("embedding-measures-hierarchy");
  const Files files(dir);
  EmbeddingMeasureOptions o = options_for(files);
  o.labels.clear();
  o.labels_column.clear();
  o.hierarchy = "pairs";
  const auto pairs = [](const std::string& hierarchy, const std::vector<int>& subclasses, std::string& name) {
    name = hierarchy;
    std::vector<int> out;
    for (int z : subclasses) out.push_back(z / 2);
    return out;
  };
  const MeasuredEmbeddings m = measure_embedding_files(o, core_embedding_readers(pairs));
  CHECK(m.labels == std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1});
  CHECK(m.out["input"]["hierarchy"] == "pairs");
}

TEST_CASE("measure --embeddings refuses torch.save files and bad inputs by name", "[embedding_measures]") {
  Scratch dir("embedding-measures-refusals");
  const Files files(dir);
  EmbeddingMeasureOptions o = options_for(files);
  o.embeddings = write(dir("z.pt"), std::string("PK\x03\x04", 4) + "rest of a zip");
  CHECK_THAT(refusal(o), Catch::StartsWith("--embeddings " + o.embeddings +
                                           ": is a tensor saved by torch.save, which needs a build with libtorch (GEOMSIM_WITH_TORCH=ON)"));
  CHECK(detect_array_format(o.embeddings, "embeddings") == ArrayFormat::torch);
  o = options_for(files);
  o.embeddings = write(dir("short.csv"), "1,0\n0,1\n");
  CHECK(refusal(o) == "--subclasses holds 8 labels but --embeddings has 2 rows");
  o = options_for(files);
  o.embeddings = write(dir("nan.csv"), "1,0\nnan,1\n");
  CHECK_THAT(refusal(o), Catch::Contains("is not finite"));
  o = options_for(files);
  o.subclasses.clear();
  CHECK_THAT(refusal(o), Catch::StartsWith("--subclasses is required with --embeddings"));
  o = options_for(files);
  o.gamma = 1.0;
  CHECK_THAT(refusal(o), Catch::StartsWith("--gamma must be a finite number > 1"));
  o = options_for(files);
  o.json_path = files.embeddings;
  CHECK_THAT(refusal(o), Catch::Contains("names the same file as --embeddings"));
}
