// The trained embeddings' cosine heatmap: drawn from points, and drawn again from its own CSV
// (a cached run's embeddings are gone) to the same script, never rewriting that CSV; a CSV that
// is not such a table is refused, naming the file and the line.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "geomsim/figures/embedding_heatmap.hpp"
#include "geomsim/support/errors.hpp"
#include "scratch_folder.hpp"

namespace fs = std::filesystem;

namespace {
using geomsim::testing::file_bytes;
void write_csv_text(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}
}  // namespace

TEST_CASE("A heatmap drawn again from its CSV has the same script, and its CSV is only read", "[figures][heatmap]") {
  geomsim::testing::ScratchFolder dir("heatmap");
  // Six points of two classes, each of two subclasses, given out of order.
  geomsim::Matrix points(3, 6);
  points << 1, 0, 0.9, 0, 0.1, 0.95,  //
      0, 1, 0.1, 0.9, 0, 0.05,        //
      0, 0, 0, 0.1, 0.99, 0;
  for (int j = 0; j < 6; ++j) points.col(j).normalize();
  const std::vector<int> classes{0, 1, 0, 1, 1, 0}, subclasses{0, 2, 1, 3, 3, 0};
  const std::string stem = (dir.root / "h").string();
  geomsim::draw_embedding_heatmap(points, classes, subclasses, "a title", stem);
  for (const char* suffix : {".csv", ".png", ".svg", ".gp", ".pdf", "-2col.pdf"}) CHECK(fs::exists(stem + suffix));
  const std::string csv = file_bytes(stem + ".csv"), script = file_bytes(stem + ".gp");
  CHECK(csv.rfind("class,subclass,c1,c2,c3,c4,c5,c6\n0,0,", 0) == 0);
  for (const char* suffix : {".png", ".svg", ".gp", ".pdf", "-2col.pdf"}) fs::remove(stem + suffix);
  const auto csv_time = fs::last_write_time(stem + ".csv");
  geomsim::redraw_embedding_heatmap("a title", stem);
  for (const char* suffix : {".png", ".svg", ".gp", ".pdf", "-2col.pdf"}) CHECK(fs::exists(stem + suffix));
  CHECK(file_bytes(stem + ".gp") == script);
  CHECK(file_bytes(stem + ".csv") == csv);
  CHECK(fs::last_write_time(stem + ".csv") == csv_time);
}

TEST_CASE("A heatmap CSV that is not one is refused, naming the file and the line", "[figures][heatmap][errors]") {
  geomsim::testing::ScratchFolder dir("heatmap-bad");
  const std::string stem = (dir.root / "h").string();
  const auto refused = [&](const std::string& text, const std::string& message) {
    write_csv_text(stem + ".csv", text);
    CHECK_THROWS_WITH(geomsim::redraw_embedding_heatmap("t", stem), Catch::Contains("out holds " + stem + ".csv") && Catch::Contains(message));
    CHECK_FALSE(fs::exists(stem + ".png"));
  };
  refused("class,subclass,c1,c2\n0,0,1,0.5\n", "one row per point (N = 1)");
  refused("class,sub,c1\n0,0,1\n", "the header must be class,subclass");
  refused("class,subclass,c1,c3\n0,0,1,0\n1,1,0,1\n", "column 4 must be c2");
  refused("class,subclass,c1,c2\n0,0,1,0\n1,x,0,1\n", "line 3: subclass 'x' is not a whole number");
  refused("class,subclass,c1,c2\n0,0,1,0\n-1,1,0,1\n", "line 3: class '-1' is not a whole number");
  refused("class,subclass,c1,c2\n0,0,1,nan\n1,1,0,1\n", "line 2: c2 'nan' is not a cosine in [-1, 1]");
  refused("class,subclass,c1,c2\n0,0,1,1.5\n1,1,0,1\n", "line 2: c2 '1.5' is not a cosine in [-1, 1]");
  CHECK_THROWS_WITH(geomsim::redraw_embedding_heatmap("t", (dir.root / "missing").string()), Catch::StartsWith("out "));
}
