#pragma once
// The fuzzer's bytes as a user's file: the parsers read a path, so each input is written to one
// regular file in a scratch folder of this process (under TMPDIR, removed when the process ends
// normally), overwritten by the next input.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "scratch_folder.hpp"

namespace geomsim::fuzz {

// The path of a file named `name` (its extension may matter to the parser) holding the bytes.
inline std::string input_file(const std::uint8_t* data, std::size_t size, const std::string& name) {
  static const testing::ScratchFolder folder("fuzz");
  const std::string path = folder(name);
  // A new file each time: ext4 flushes a file truncated and rewritten when it is closed
  // (auto_da_alloc), which made every input wait for the disk.
  std::filesystem::remove(path);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  if (!out.flush()) {
    std::fprintf(stderr, "fuzz harness: cannot write %s (the scratch folder, not the parser)\n", path.c_str());
    std::abort();
  }
  return path;
}

}  // namespace geomsim::fuzz
