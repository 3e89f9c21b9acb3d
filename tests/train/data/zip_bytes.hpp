#pragma once
// A zip archive of stored entries built in memory, for tests that need archives no zip tool
// writes: a central directory that lists one entry many times, entries whose bytes were changed
// with their CRC-32 rewritten to match.
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::testing {

struct ZipEntry {
  std::string name, bytes;
};

// CRC-32 as zip computes it (reflected polynomial 0xedb88320), bit by bit: tests' archives are small.
inline std::uint32_t zip_crc32(const std::string& bytes) {
  std::uint32_t crc = 0xffffffffu;
  for (const char c : bytes) {
    crc ^= static_cast<unsigned char>(c);
    for (int bit = 0; bit < 8; ++bit) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

inline void put_little_endian(std::string& out, std::uint64_t value, int width) {
  for (int k = 0; k < width; ++k) out += static_cast<char>((value >> (8 * k)) & 0xff);
}

// The entries stored (method 0) with their CRC-32s, then a central directory that lists entry
// directory[k] for each k (every entry once, in order, when `directory` is empty).
inline std::string zip_bytes(const std::vector<ZipEntry>& entries, std::vector<std::size_t> directory = {}) {
  if (directory.empty()) {
    for (std::size_t k = 0; k < entries.size(); ++k) directory.push_back(k);
  }
  std::string out;
  std::vector<std::uint64_t> offsets;
  std::vector<std::uint32_t> crcs;
  for (const ZipEntry& e : entries) {
    offsets.push_back(out.size());
    crcs.push_back(zip_crc32(e.bytes));
    put_little_endian(out, 0x04034b50, 4);
    put_little_endian(out, 20, 2);  // version needed
    put_little_endian(out, 0, 2);   // flags
    put_little_endian(out, 0, 2);   // stored
    put_little_endian(out, 0, 4);   // time and date
    put_little_endian(out, crcs.back(), 4);
    put_little_endian(out, e.bytes.size(), 4);
    put_little_endian(out, e.bytes.size(), 4);
    put_little_endian(out, e.name.size(), 2);
    put_little_endian(out, 0, 2);  // no extra field
    out += e.name + e.bytes;
  }
  const std::uint64_t start = out.size();
  for (const std::size_t k : directory) {
    const ZipEntry& e = entries[k];
    put_little_endian(out, 0x02014b50, 4);
    put_little_endian(out, 20, 2);  // version made by
    put_little_endian(out, 20, 2);  // version needed
    put_little_endian(out, 0, 2);
    put_little_endian(out, 0, 2);
    put_little_endian(out, 0, 4);
    put_little_endian(out, crcs[k], 4);
    put_little_endian(out, e.bytes.size(), 4);
    put_little_endian(out, e.bytes.size(), 4);
    put_little_endian(out, e.name.size(), 2);
    put_little_endian(out, 0, 2);  // extra
    put_little_endian(out, 0, 2);  // comment
    put_little_endian(out, 0, 2);  // disk
    put_little_endian(out, 0, 2);  // internal attributes
    put_little_endian(out, 0, 4);  // external attributes
    put_little_endian(out, offsets[k], 4);
    out += e.name;
  }
  const std::uint64_t size = out.size() - start;
  put_little_endian(out, 0x06054b50, 4);
  put_little_endian(out, 0, 4);  // disks
  put_little_endian(out, directory.size(), 2);
  put_little_endian(out, directory.size(), 2);
  put_little_endian(out, size, 4);
  put_little_endian(out, start, 4);
  put_little_endian(out, 0, 2);  // comment
  return out;
}

}  // namespace geomsim::testing
