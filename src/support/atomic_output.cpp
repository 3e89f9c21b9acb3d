#include "geomsim/support/atomic_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/interrupt_cleanup.hpp"

namespace geomsim {
namespace fs = std::filesystem;

namespace {
std::string parent_directory(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}
}  // namespace

void require_writable_path(const std::string& path, const std::string& argument) {
  if (path.empty()) throw InvalidArgument(argument, "must be a file path, got an empty string");
  const std::string dir = parent_directory(path);
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw InvalidArgument(argument, "cannot write '" + path + "': directory '" + dir + "' does not exist");
  if (fs::is_directory(path, ec)) throw InvalidArgument(argument, "cannot write '" + path + "': it is a directory");
  if (::access(dir.c_str(), W_OK) != 0) throw InvalidArgument(argument, "cannot write '" + path + "': directory '" + dir + "' is not writable");
}

std::string OutputTransaction::reserve(const std::string& path, const std::string& argument) {
  require_writable_path(path, argument);
  // Temporaries of this path that a killed process (SIGKILL: no handler ran) left behind.
  remove_stale_temporaries(path);
  // Registered before the file exists, so an interrupt from here on removes it (issue 53).
  std::string temporary = temporary_name(path);
  const int slot = register_temporary(temporary);
  try {
    staged_.push_back({temporary, path, argument, slot});
  } catch (...) {
    unregister_temporary(slot);
    throw;
  }
  return temporary;
}

void OutputTransaction::stage(const std::string& path, const std::string& content, const std::string& argument) {
  const std::string temporary = reserve(path, argument);
  errno = 0;  // before the open: a file system out of inodes fails there
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  out << content;
  out.close();  // flushes: a full disk shows here at the latest
  if (!out) {
    const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
    std::remove(temporary.c_str());
    unregister_temporary(staged_.back().slot);
    staged_.pop_back();
    throw InvalidArgument(argument, "cannot write '" + path + "': " + reason);
  }
}

void OutputTransaction::commit() {
  for (auto& s : staged_) {
    if (s.temporary.empty()) continue;  // renamed by an earlier commit() that then failed
    std::error_code ec;
    fs::rename(s.temporary, s.path, ec);
    if (ec) throw InvalidArgument(s.argument, "cannot write '" + s.path + "': " + ec.message());
    // Unregistered only once renamed: an interrupt in between finds no file to remove.
    unregister_temporary(s.slot);
    s.temporary.clear();
  }
  staged_.clear();
}

OutputTransaction::~OutputTransaction() {
  for (const auto& s : staged_) {
    if (s.temporary.empty()) continue;
    std::remove(s.temporary.c_str());  // removed first, then unregistered: never a moment unowned
    unregister_temporary(s.slot);
  }
}

}  // namespace geomsim
