#include "geomsim/support/file_identity.hpp"

#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <tuple>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {
namespace fs = std::filesystem;

// (device, inode, name): name is empty for an existing file, whose inode says it all;
// for a file yet to be written it is the name inside its folder's (device, inode).
struct Identity {
  std::uint64_t device = 0, inode = 0;
  std::string name;
  bool known = false;  // false: the folder does not exist either (the write will fail later)
  bool operator==(const Identity& other) const {
    return known && other.known && std::tie(device, inode, name) == std::tie(other.device, other.inode, other.name);
  }
};

Identity identity_of(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0) return {static_cast<std::uint64_t>(info.st_dev), info.st_ino, "", true};
  const fs::path p(path);
  const fs::path folder = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (::stat(folder.c_str(), &info) != 0) return {};
  return {static_cast<std::uint64_t>(info.st_dev), info.st_ino, p.filename().string(), true};
}
}  // namespace

void require_distinct_files(const std::vector<NamedPath>& paths) {
  std::vector<Identity> seen;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    seen.push_back(paths[i].path.empty() ? Identity{} : identity_of(paths[i].path));
    for (std::size_t j = 0; j < i; ++j) {
      if (seen[i] == seen[j]) {
        throw InvalidArgument(paths[i].argument, "names the same file as --" + paths[j].argument + " ('" +
                                                     paths[i].path + "' and '" + paths[j].path +
                                                     "'): an output must never overwrite an input or another output");
      }
    }
  }
}

}  // namespace geomsim
