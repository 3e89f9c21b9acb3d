#include "geomsim/support/input_files.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/fnv1a_hash.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim {
namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::uint64_t regular_file_size(const std::string& path, const std::string& argument, std::uint64_t max_bytes,
                                const std::string& what) {
  if (path.empty()) throw InvalidArgument(argument, "must be a file path, got an empty string");
  struct stat info{};
  if (::stat(path.c_str(), &info) != 0) throw InvalidArgument(argument, "cannot read " + path + " (" + std::strerror(errno) + ")");
  if (!S_ISREG(info.st_mode)) {
    throw InvalidArgument(argument, path + " is " + kind_of(info.st_mode) + "; only regular files are read");
  }
  const auto size = static_cast<std::uint64_t>(info.st_size);
  if (size > max_bytes) {
    throw InvalidArgument(argument, path + " holds " + std::to_string(size) + " bytes, more than the " + std::to_string(max_bytes) +
                                        " a " + what + " may have");
  }
  return size;
}

InputFile open_regular_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes,
                            const std::string& what) {
  InputFile file;
  file.size = regular_file_size(path, argument, max_bytes, what);
  file.stream.open(path, std::ios::binary);
  if (!file.stream) throw InvalidArgument(argument, "cannot read " + path);
  return file;
}

std::string read_whole_file(const std::string& path, const std::string& argument, std::uint64_t max_bytes,
                            const std::string& what) {
  InputFile file = open_regular_file(path, argument, max_bytes, what);
  require_memory(argument, static_cast<double>(file.size), "the " + what + " " + path);
  std::string bytes(static_cast<std::size_t>(file.size), '\0');
  if (!bytes.empty() && !file.stream.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    throw InvalidArgument(argument, "cannot read " + path + " (it changed while it was read)");
  }
  return bytes;
}

std::string file_fingerprint(const std::string& path, const std::string& argument) {
  InputFile file = open_regular_file(path, argument);
  const std::uint64_t block = kFingerprintBlockBytes, blocks = kFingerprintBlocks;
  std::uint64_t hash = kFnv1aOffsetBasis;
  std::vector<char> bytes(static_cast<std::size_t>(block));
  const auto hash_range = [&](std::uint64_t offset, std::uint64_t length) {
    file.stream.seekg(static_cast<std::streamoff>(offset));
    if (!file.stream.read(bytes.data(), static_cast<std::streamsize>(length))) {
      throw InvalidArgument(argument, "cannot read " + path + " (it changed while it was read)");
    }
    hash = fnv1a_update(hash, std::string_view(bytes.data(), static_cast<std::size_t>(length)));
  };
  if (file.size <= blocks * block) {
    for (std::uint64_t offset = 0; offset < file.size; offset += block) hash_range(offset, std::min(block, file.size - offset));
  } else {
    const std::uint64_t step = (file.size - block) / (blocks - 1);
    for (std::uint64_t k = 0; k < blocks; ++k) hash_range(k + 1 == blocks ? file.size - block : k * step, block);
  }
  return std::to_string(file.size) + " bytes, fnv1a " + fnv1a_hex(hash);
}

}  // namespace geomsim
