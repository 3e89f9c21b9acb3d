#pragma once
// Reading a user's file as hostile input: only regular files are opened (a FIFO would block
// forever, /dev/zero never ends), every read is bounded by the size the file has, and that size
// is checked against memory before anything is allocated.
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>

namespace geomsim {

inline constexpr std::uint64_t kNoSizeLimit = std::numeric_limits<std::uint64_t>::max();

// The size of the regular file at `path`. Throws InvalidArgument(argument, ...) when it does not
// exist, cannot be read, or is not a regular file (a directory, a FIFO, a device, a socket), or is
// larger than `max_bytes` ("PATH holds N bytes, more than the M a <what> may have").
std::uint64_t regular_file_size(const std::string& path, const std::string& argument,
                                std::uint64_t max_bytes = kNoSizeLimit, const std::string& what = "file");

// An open stream on the regular file at `path` (checked as above before it is opened, so opening
// never blocks), with its size.
struct InputFile {
  std::ifstream stream;
  std::uint64_t size = 0;
};
InputFile open_regular_file(const std::string& path, const std::string& argument,
                            std::uint64_t max_bytes = kNoSizeLimit, const std::string& what = "file");

// The whole regular file as bytes: its size checked against `max_bytes` and memory first, then
// exactly that many bytes read. Throws InvalidArgument(argument, ...) for anything else.
std::string read_whole_file(const std::string& path, const std::string& argument,
                            std::uint64_t max_bytes = kNoSizeLimit, const std::string& what = "file");

// A fingerprint of the regular file's contents that costs the same for any size, so that a resume
// can tell other data at the same path from the data it was trained on: "SIZE bytes, fnv1a HEX",
// the 64-bit FNV-1a hash (fnv1a_hash.hpp) of the whole file when it holds at most
// kFingerprintBlocks * kFingerprintBlockBytes (1 MiB: label files, hierarchies, small IDX files), and
// otherwise of kFingerprintBlocks blocks of kFingerprintBlockBytes spread evenly over it, the first
// and the last included. Another file (other images, another compression of them) differs in
// nearly every block; what it cannot see is a change confined between the blocks of a file of the
// same size (a few images edited in place in an uncompressed IDX file larger than 1 MiB). Reads at
// most 1 MiB; Fashion-MNIST's four files take about 3 ms. Throws InvalidArgument(argument) as
// open_regular_file does, or when the file changes size while it is read.
inline constexpr std::uint64_t kFingerprintBlocks = 64;
inline constexpr std::uint64_t kFingerprintBlockBytes = 16384;
std::string file_fingerprint(const std::string& path, const std::string& argument);

}  // namespace geomsim
