#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "scratch_folder.hpp"

using geomsim::InvalidArgument;
using geomsim::require_distinct_files;
namespace fs = std::filesystem;

namespace {
// A scratch folder holding sub/ and input.pt.
struct ScratchFolder : geomsim::testing::ScratchFolder {
  ScratchFolder() : geomsim::testing::ScratchFolder("identity") {
    fs::create_directories(root / "sub");
    std::ofstream(root / "input.pt") << "weights";
  }
};

std::string refusal(const std::vector<geomsim::NamedPath>& paths) {
  return geomsim::testing::refusal([&] { require_distinct_files(paths); });
}
}  // namespace

TEST_CASE("Two options naming one existing file are refused, whatever the spelling", "[support][paths]") {
  ScratchFolder dir;
  fs::create_symlink(dir("input.pt"), dir("link.pt"));
  fs::create_hard_link(dir("input.pt"), dir("hard.pt"));
  for (const std::string& other : {dir("input.pt"), dir("sub/../input.pt"), dir("link.pt"), dir("hard.pt")}) {
    const std::string message = refusal({{"checkpoint", dir("input.pt")}, {"json", other}});
    CHECK(message.rfind("--json names the same file as --checkpoint", 0) == 0);
  }
}

TEST_CASE("Two outputs that do not exist yet are one file when folder and name agree", "[support][paths]") {
  ScratchFolder dir;
  CHECK_FALSE(refusal({{"json", dir("out.json")}, {"points", dir("sub/../out.json")}}).empty());
  CHECK(refusal({{"json", dir("out.json")}, {"points", dir("sub/out.json")}}).empty());
  CHECK(refusal({{"json", dir("a.json")}, {"points", dir("b.json")}, {"cosines", dir("c.csv")}}).empty());
}

TEST_CASE("Options that were not given are skipped", "[support][paths]") {
  ScratchFolder dir;
  CHECK(refusal({{"json", ""}, {"points", ""}, {"checkpoint", dir("input.pt")}}).empty());
}
