#pragma once
// No output may overwrite an input, and no two outputs may be one file. Commands list
// every path they read or write, each with the option that named it, and call
// require_distinct_files before reading or writing anything.
#include <string>
#include <vector>

namespace geomsim {

struct NamedPath {
  std::string argument;  // the option that chose the path, e.g. "json", "checkpoint"
  std::string path;      // empty: the option was not given (skipped)
};

// Throws InvalidArgument naming both options when two of the paths are the same file.
// Paths are compared by filesystem identity, not by string: an existing file by its
// device and inode (so "x", "./x", "dir/../x", a symbolic link to x and a hard link of x
// are all x); a path that does not exist yet by its folder's identity and its name.
void require_distinct_files(const std::vector<NamedPath>& paths);

}  // namespace geomsim
