#pragma once
// An output folder that a command creates when it is missing and removes again when the command
// fails before anything lands in it, so that a refused definition or argument leaves no empty
// folder behind (nor the empty parents it had to create).
#include <string>
#include <vector>

namespace geomsim {

class OutputFolder {
 public:
  // Creates `path` and its missing parents. `argument` names the option that chose it ("out")
  // for the error: InvalidArgument when the folder cannot be created.
  OutputFolder(const std::string& path, const std::string& argument);
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;
  // Unless keep() was called: removes the folders this object created, deepest first, each only
  // while it is empty (runs already written to it, a resumable cache, stay).
  ~OutputFolder();
  void keep() { keep_ = true; }

 private:
  std::vector<std::string> created_;  // the folders created, outermost first
  bool keep_ = false;
};

}  // namespace geomsim
