#include "geomsim/support/atomic_output.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"

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
  std::string temporary = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(staged_.size());
  staged_.push_back({temporary, path, argument});
  return temporary;
}

void OutputTransaction::stage(const std::string& path, const std::string& content, const std::string& argument) {
  const std::string temporary = reserve(path, argument);
  std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
  errno = 0;
  out << content;
  out.close();  // flushes: a full disk shows here at the latest
  if (!out) {
    const std::string reason = errno != 0 ? std::strerror(errno) : "write failed";
    std::remove(temporary.c_str());
    staged_.pop_back();
    throw InvalidArgument(argument, "cannot write '" + path + "': " + reason);
  }
}

void OutputTransaction::commit() {
  for (auto& s : staged_) {
    std::error_code ec;
    fs::rename(s.temporary, s.path, ec);
    if (ec) throw InvalidArgument(s.argument, "cannot write '" + s.path + "': " + ec.message());
    s.temporary.clear();
  }
  staged_.clear();
}

OutputTransaction::~OutputTransaction() {
  for (const auto& s : staged_) {
    if (!s.temporary.empty()) std::remove(s.temporary.c_str());
  }
}

}  // namespace geomsim
