// file_fingerprint (support/input_files.hpp): what a checkpoint records of its inputs' contents, so
// that a resume on other data at the same path is refused.
#include <catch2/catch.hpp>

#include <fstream>
#include <string>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/fnv1a_hash.hpp"
#include "geomsim/support/input_files.hpp"
#include "scratch_folder.hpp"

using namespace geomsim;
using geomsim::testing::ScratchFolder;

namespace {
void write(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// 3 MiB of bytes that differ from block to block.
std::string large_file() {
  std::string bytes(3 << 20, '\0');
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<char>((i * 2654435761U) >> 13);
  return bytes;
}
}  // namespace

TEST_CASE("A small file's fingerprint is its size and the FNV-1a hash of all its bytes", "[support][fingerprint]") {
  const ScratchFolder dir("fingerprint-small");
  write(dir("h.csv"), "0,0\n1,1\n");
  CHECK(file_fingerprint(dir("h.csv"), "hierarchy") == "8 bytes, fnv1a " + fnv1a_hex(fnv1a_update(kFnv1aOffsetBasis, "0,0\n1,1\n")));
  write(dir("h.csv"), "0,1\n1,0\n");  // the classes swapped: the same size, other bytes
  CHECK(file_fingerprint(dir("h.csv"), "hierarchy") == "8 bytes, fnv1a " + fnv1a_hex(fnv1a_update(kFnv1aOffsetBasis, "0,1\n1,0\n")));
  write(dir("empty"), "");
  CHECK(file_fingerprint(dir("empty"), "data") == "0 bytes, fnv1a " + fnv1a_hex(kFnv1aOffsetBasis));
  // Exactly 1 MiB is still hashed whole: its last byte counts.
  std::string mebibyte(kFingerprintBlocks * kFingerprintBlockBytes, 'x');
  write(dir("m"), mebibyte);
  const std::string before = file_fingerprint(dir("m"), "data");
  mebibyte.back() = 'y';
  write(dir("m"), mebibyte);
  CHECK(file_fingerprint(dir("m"), "data") != before);
}

TEST_CASE("A large file's fingerprint samples blocks from its first byte to its last, and sees its size", "[support][fingerprint]") {
  const ScratchFolder dir("fingerprint-large");
  std::string bytes = large_file();
  write(dir("images.idx"), bytes);
  const std::string original = file_fingerprint(dir("images.idx"), "images");
  CHECK(original.rfind("3145728 bytes, fnv1a ", 0) == 0);
  CHECK(file_fingerprint(dir("images.idx"), "images") == original);  // the same bytes, the same fingerprint
  const auto changed = [&](std::size_t at) {
    std::string other = bytes;
    other[at] = static_cast<char>(other[at] ^ 1);
    write(dir("other.idx"), other);
    return file_fingerprint(dir("other.idx"), "images") != original;
  };
  CHECK(changed(0));                 // the first block
  CHECK(changed(bytes.size() - 1));  // the last block
  // Blocks spread evenly: the 32nd of 64 starts at 31 steps of (size - block) / 63.
  const std::size_t step = (bytes.size() - kFingerprintBlockBytes) / (kFingerprintBlocks - 1);
  CHECK(changed(31 * step + 100));  // inside a block in between
  // The documented blind spot: a change between two blocks of a file of the same size.
  CHECK_FALSE(changed(31 * step + kFingerprintBlockBytes + 100));
  write(dir("other.idx"), bytes + "z");  // one byte more
  CHECK(file_fingerprint(dir("other.idx"), "images").rfind("3145729 bytes", 0) == 0);
  // A path that is no regular file is refused by the option's name.
  CHECK(testing::refusal([&] { file_fingerprint(dir.root.string(), "data"); }).rfind("--data " + dir.root.string() + " is a directory", 0) == 0);
}
