#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/output_folder.hpp"
#include "scratch_folder.hpp"

using geomsim::OutputFolder;
namespace fs = std::filesystem;

TEST_CASE("An output folder a failed command created is removed with its empty parents", "[support][paths]") {
  const geomsim::testing::ScratchFolder dir("output-folder");
  {  // refused before anything was written: a/b/c and the parents it created go
    const OutputFolder folder(dir("a/b/c"), "out");
    CHECK(fs::is_directory(dir("a/b/c")));
  }
  CHECK_FALSE(fs::exists(dir("a")));
  {  // kept on success
    OutputFolder folder(dir("kept/x"), "out");
    folder.keep();
  }
  CHECK(fs::is_directory(dir("kept/x")));
  {  // a run already cached there stays, and so do its parents
    const OutputFolder folder(dir("p/q"), "out");
    std::ofstream(dir("p/q/runs.csv")) << "seed\n0\n";
  }
  CHECK(fs::exists(dir("p/q/runs.csv")));
  {  // a folder that existed is never removed, nor one inside it that a run filled
    fs::create_directories(dir("old"));
    const OutputFolder folder(dir("old/new"), "out");
  }
  CHECK(fs::is_directory(dir("old")));
  CHECK_FALSE(fs::exists(dir("old/new")));
  // A folder where a file is: refused, naming the option.
  std::ofstream(dir("file")) << "x";
  CHECK(geomsim::testing::refusal([&] { OutputFolder folder(dir("file/sub"), "out"); }).rfind("--out cannot create the folder", 0) == 0);
  CHECK(fs::is_regular_file(dir("file")));
}
