#include "geomsim/support/output_folder.hpp"

#include <filesystem>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace fs = std::filesystem;

OutputFolder::OutputFolder(const std::string& path, const std::string& argument) {
  std::error_code ec;
  // The missing folders from the path up to its first existing ancestor.
  for (fs::path p = fs::path(path).lexically_normal(); !p.empty() && !fs::exists(p, ec); p = p.parent_path()) {
    created_.insert(created_.begin(), p.string());
    if (p == p.parent_path()) break;
  }
  if (created_.empty()) return;
  fs::create_directories(path, ec);
  if (ec) {
    created_.clear();
    throw InvalidArgument(argument, "cannot create the folder '" + path + "': " + ec.message());
  }
}

OutputFolder::~OutputFolder() {
  if (keep_) return;
  std::error_code ec;
  for (auto it = created_.rbegin(); it != created_.rend(); ++it) {
    if (!fs::is_empty(*it, ec) || ec) return;  // something landed there: it and its parents stay
    fs::remove(*it, ec);
  }
}

}  // namespace geomsim
