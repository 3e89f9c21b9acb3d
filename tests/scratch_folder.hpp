#pragma once
// Helpers for tests that read and write files: a scratch folder removed at the end of its
// scope, and the sentence a refusal prints.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::testing {

// A fresh folder under the system's temporary folder, named for the test and the process,
// removed with everything in it when the object goes out of scope.
struct ScratchFolder {
  std::filesystem::path root;
  explicit ScratchFolder(const std::string& name)
      : root(std::filesystem::temp_directory_path() / ("geomsim-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(root);
  }
  ~ScratchFolder() { std::filesystem::remove_all(root); }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  std::string operator()(const std::string& file) const { return (root / file).string(); }
};

// The bytes of a file, "" when it cannot be read.
inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// "--ARGUMENT REQUIREMENT" as the CLI prints the InvalidArgument that f() throws ("the environment
// variable NAME REQUIREMENT" for an InvalidEnvironment), or "" when it throws none.
template <class F>
std::string refusal(F&& f) {
  try {
    f();
  } catch (const InvalidEnvironment& error) {
    return error.what();
  } catch (const InvalidArgument& error) {
    return "--" + error.argument() + " " + error.requirement();
  }
  return "";
}

}  // namespace geomsim::testing
