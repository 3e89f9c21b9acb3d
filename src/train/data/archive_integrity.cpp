#include "geomsim/train/data/archive_integrity.hpp"

#include <caffe2/serialize/versions.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"

namespace geomsim::train {
namespace {

// Little-endian fields of a zip record, every read bounds-checked against the file.
class Bytes {
 public:
  explicit Bytes(const std::string& data) : data_(data) {}
  std::size_t size() const { return data_.size(); }
  bool has(std::uint64_t offset, std::uint64_t length) const {
    return offset <= data_.size() && length <= data_.size() - offset;
  }
  std::uint64_t read(std::uint64_t offset, int width) const {
    std::uint64_t value = 0;
    for (int k = width - 1; k >= 0; --k) value = (value << 8) | static_cast<unsigned char>(data_[offset + static_cast<std::uint64_t>(k)]);
    return value;
  }
  const char* at(std::uint64_t offset) const { return data_.data() + offset; }

 private:
  const std::string& data_;
};

constexpr std::uint64_t kDirectoryAttribute = 0x10;  // MS-DOS's folder bit in an entry's external attributes
constexpr std::uint32_t kEndOfDirectory = 0x06054b50, kZip64End = 0x06064b50, kZip64Locator = 0x07064b50,
                        kDirectoryEntry = 0x02014b50, kLocalHeader = 0x04034b50;

std::uint32_t crc_of(const char* data, std::uint64_t length) {
  uLong crc = crc32(0L, Z_NULL, 0);
  while (length > 0) {
    const auto chunk = static_cast<uInt>(std::min<std::uint64_t>(length, std::numeric_limits<uInt>::max()));
    crc = crc32(crc, reinterpret_cast<const Bytef*>(data), chunk);
    data += chunk;
    length -= chunk;
  }
  return static_cast<std::uint32_t>(crc);
}

// Inflates a raw deflate stream, handing its output to `sink` in pieces; false when the stream is
// broken or its size is not `expected` (it stops as soon as the output passes `expected`, before a
// bomb goes off).
bool inflate_raw(const char* data, std::uint64_t length, std::uint64_t expected,
                 const std::function<void(const unsigned char*, std::size_t)>& sink) {
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK) return false;
  std::array<unsigned char, 1 << 16> buffer{};
  std::uint64_t produced = 0;
  stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data));
  stream.avail_in = static_cast<uInt>(std::min<std::uint64_t>(length, std::numeric_limits<uInt>::max()));
  int status = Z_OK;
  while (status == Z_OK) {
    stream.next_out = buffer.data();
    stream.avail_out = static_cast<uInt>(buffer.size());
    status = inflate(&stream, Z_NO_FLUSH);
    const std::uint64_t out = buffer.size() - stream.avail_out;
    produced += out;
    if (produced > expected) break;
    sink(buffer.data(), static_cast<std::size_t>(out));
    if (status == Z_BUF_ERROR && stream.avail_in == 0) break;
  }
  inflateEnd(&stream);
  return status == Z_STREAM_END && produced == expected;
}

// CRC-32 of a raw deflate stream's output; false as inflate_raw.
bool inflated_crc(const char* data, std::uint64_t length, std::uint64_t expected, std::uint32_t& crc) {
  uLong running = crc32(0L, Z_NULL, 0);
  const bool whole = inflate_raw(data, length, expected, [&](const unsigned char* piece, std::size_t size) {
    running = crc32(running, piece, static_cast<uInt>(size));
  });
  crc = static_cast<std::uint32_t>(running);
  return whole;
}

// The bytes of a small entry whose CRC was checked: stored, or inflated.
std::string small_entry_bytes(const Bytes& bytes, const ArchiveEntry& entry) {
  if (!entry.compressed) return std::string(bytes.at(entry.data_offset), entry.size);
  std::string out;
  inflate_raw(bytes.at(entry.data_offset), entry.stored_size, entry.size,
              [&](const unsigned char* piece, std::size_t size) { out.append(reinterpret_cast<const char*>(piece), size); });
  return out;
}

// What libtorch's reader (PyTorchStreamReader) requires before it reads a record, checked here
// because it reports a failure by throwing from its constructor, which leaks what its zip reader
// had allocated (two fuzz findings, tests/fuzz/regressions/torch_save/): every entry inside one
// top-level folder, and a version record (FOLDER/version, and FOLDER/.data/version where torch 2
// writes one) holding a decimal format version this libtorch reads.
void require_torch_layout(const Bytes& bytes, const VerifiedArchive& archive, const std::function<void(const std::string&)>& corrupt) {
  if (archive.entries.empty()) corrupt("it holds no entry");
  const std::string& first = archive.entries.front().name;
  const auto slash = first.find('/');
  if (slash == std::string::npos || slash == 0) corrupt("its entry '" + first.substr(0, 80) + "' is outside the one folder torch archives hold");
  const std::string folder = first.substr(0, slash + 1);
  bool has_version = false;
  for (const ArchiveEntry& entry : archive.entries) {
    if (entry.name.compare(0, folder.size(), folder) != 0) {
      corrupt("its entry '" + entry.name.substr(0, 80) + "' is outside the one folder torch archives hold ('" + folder.substr(0, 80) + "')");
    }
    const std::string inside = entry.name.substr(folder.size());
    if (inside != "version" && inside != ".data/version") continue;
    has_version = true;
    constexpr std::uint64_t kMaxVersionBytes = 21;  // 20 digits and a newline
    const std::string text = entry.size <= kMaxVersionBytes ? small_entry_bytes(bytes, entry) : std::string();
    const std::string digits = !text.empty() && text.back() == '\n' ? text.substr(0, text.size() - 1) : text;
    const bool decimal = !digits.empty() && digits.size() < 20 && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
    const std::uint64_t version = decimal ? std::stoull(digits) : 0;
    if (!decimal || version < caffe2::serialize::kMinSupportedFileFormatVersion || version > caffe2::serialize::kMaxSupportedFileFormatVersion) {
      corrupt("its record '" + entry.name.substr(0, 80) + "' does not hold a format version this libtorch reads (a decimal number from " +
              std::to_string(caffe2::serialize::kMinSupportedFileFormatVersion) + " to " +
              std::to_string(caffe2::serialize::kMaxSupportedFileFormatVersion) + ")");
    }
  }
  if (!has_version) corrupt("it has no version record ('" + folder.substr(0, 80) + "version'), which every torch archive holds");
}

}  // namespace

VerifiedArchive verify_archive_bytes(const std::string& data, const std::string& path, const std::string& argument) {
  const Bytes bytes(data);
  const auto corrupt = [&](const std::string& why) {
    throw InvalidArgument(argument, path + " is a corrupt archive: " + why);
  };
  VerifiedArchive archive;
  // The end-of-central-directory record: 22 bytes and a comment of up to 65535 at the end.
  if (bytes.size() < 22) return archive;
  std::uint64_t end = bytes.size() - 22;
  const std::uint64_t lowest = bytes.size() > 22 + 65535 ? bytes.size() - 22 - 65535 : 0;
  while (bytes.read(end, 4) != kEndOfDirectory) {
    if (end == lowest) return archive;
    --end;
  }
  if (bytes.read(end + 4, 2) != 0 || bytes.read(end + 6, 2) != 0 || bytes.read(end + 8, 2) != bytes.read(end + 10, 2)) {
    corrupt("it is one part of a split archive");
  }
  std::uint64_t entries = bytes.read(end + 10, 2), directory_size = bytes.read(end + 12, 4), directory = bytes.read(end + 16, 4);
  // A zip64 end record, found through its locator just before the end record: needed when a field
  // above is all ones, and read by libtorch's zip reader (miniz) in place of the end record's
  // fields whenever its locator is there, so the two must agree where both give a value.
  const bool needs_zip64 = entries == 0xffff || directory_size == 0xffffffff || directory == 0xffffffff;
  const bool has_locator = end >= 20 && bytes.read(end - 20, 4) == kZip64Locator;
  if (needs_zip64 && !has_locator) corrupt("its zip64 locator is missing");
  if (has_locator) {
    const std::uint64_t locator = end - 20, record = bytes.read(locator + 8, 8);
    if (!bytes.has(record, 56) || bytes.read(record, 4) != kZip64End) corrupt("its zip64 end record is missing");
    if (bytes.read(locator + 4, 4) != 0 || bytes.read(locator + 16, 4) != 1 || bytes.read(record + 16, 4) != 0 ||
        bytes.read(record + 20, 4) != 0 || bytes.read(record + 24, 8) != bytes.read(record + 32, 8)) {
      corrupt("its zip64 end record describes a split archive");
    }
    const std::uint64_t entries64 = bytes.read(record + 32, 8), size64 = bytes.read(record + 40, 8), directory64 = bytes.read(record + 48, 8);
    if ((entries != 0xffff && entries != entries64) || (directory_size != 0xffffffff && directory_size != size64) ||
        (directory != 0xffffffff && directory != directory64)) {
      corrupt("its zip64 end record and its end record disagree on the central directory");
    }
    entries = entries64;
    directory_size = size64;
    directory = directory64;
  }
  if (!bytes.has(directory, directory_size)) corrupt("its central directory lies outside the file");
  if (entries > directory_size / 46) corrupt("its central directory is too small for the " + std::to_string(entries) + " entries it claims");
  // First the directory alone: every entry's place and sizes, checked for overlaps and for the
  // total they would inflate to before a single byte is inflated or summed (a directory that lists
  // one bomb 65 534 times would otherwise inflate it 65 534 times).
  struct Extent {
    std::uint64_t begin, end;  // local header to the end of the entry's data
    std::size_t entry;
  };
  std::vector<Extent> extents;
  std::vector<std::uint32_t> crcs;
  double inflated = 0;
  std::uint64_t at = directory;
  for (std::uint64_t k = 0; k < entries; ++k) {
    if (!bytes.has(at, 46) || bytes.read(at, 4) != kDirectoryEntry) corrupt("directory entry " + std::to_string(k) + " is damaged");
    const auto method = bytes.read(at + 10, 2);
    const auto crc = static_cast<std::uint32_t>(bytes.read(at + 16, 4));
    std::uint64_t compressed = bytes.read(at + 20, 4), size = bytes.read(at + 24, 4), local = bytes.read(at + 42, 4);
    const std::uint64_t name_length = bytes.read(at + 28, 2), extra_length = bytes.read(at + 30, 2),
                        comment_length = bytes.read(at + 32, 2);
    if (!bytes.has(at + 46, name_length + extra_length + comment_length)) corrupt("directory entry " + std::to_string(k) + " is cut short");
    const std::string name(bytes.at(at + 46), name_length);
    // Zip64 sizes and offset live in the extra field (id 1), in this order, for the fields set to all ones.
    for (std::uint64_t e = at + 46 + name_length; e + 4 <= at + 46 + name_length + extra_length;) {
      const auto id = bytes.read(e, 2), length = bytes.read(e + 2, 2);
      std::uint64_t field = e + 4;
      if (id == 1) {
        for (std::uint64_t* value : {&size, &compressed, &local}) {
          if (*value != 0xffffffff) continue;
          if (field + 8 > e + 4 + length || !bytes.has(field, 8)) corrupt("entry '" + name + "' has a damaged zip64 field");
          *value = bytes.read(field, 8);
          field += 8;
        }
      }
      e += 4 + length;
    }
    if (!bytes.has(local, 30) || bytes.read(local, 4) != kLocalHeader) corrupt("entry '" + name + "' has no local header where the directory says");
    // Bits 0, 6 and 13 of the general-purpose flags, in the directory or the local header, mark
    // encryption: torch.save never encrypts, and libtorch 1.13's zip reader leaks what it had
    // allocated when it meets an encrypted entry in a damaged archive (fuzz regression input).
    constexpr std::uint64_t kEncrypted = 0x0001 | 0x0040 | 0x2000, kPatch = 0x0020;
    const std::uint64_t flags = bytes.read(at + 8, 2) | bytes.read(local + 6, 2);
    if ((flags & kEncrypted) != 0) corrupt("entry '" + name + "' is marked encrypted, which torch archives never are");
    if ((flags & kPatch) != 0) corrupt("entry '" + name + "' is marked a patch, which torch archives never are");
    // The rest of what miniz's reader refuses, which libtorch then reports by throwing from its
    // reader's constructor, leaking the reader: a directory, an entry on another disk.
    if ((bytes.read(at + 38, 4) & kDirectoryAttribute) != 0 || name.empty() || name.back() == '/') {
      corrupt("entry '" + name + "' is a folder, which torch archives never hold");
    }
    if (bytes.read(at + 34, 2) != 0) corrupt("entry '" + name + "' lies on another disk of a split archive");
    const std::uint64_t start = local + 30 + bytes.read(local + 26, 2) + bytes.read(local + 28, 2);
    if (!bytes.has(start, compressed)) corrupt("entry '" + name + "' is cut short");
    if (method == 0) {
      if (compressed != size) corrupt("entry '" + name + "' has two sizes");
    } else if (method == 8) {
      if (compressed == 0 || size / kMaxDeflateRatio > compressed) {
        corrupt("entry '" + name + "' claims " + std::to_string(size) + " bytes from " + std::to_string(compressed) +
                " deflated ones, more than deflate's " + std::to_string(kMaxDeflateRatio) + ":1 can produce");
      }
    } else {
      corrupt("entry '" + name + "' uses compression method " + std::to_string(method) + ", which torch archives do not");
    }
    extents.push_back({local, start + compressed, archive.entries.size()});
    archive.entries.push_back({name, size, start, compressed, method == 8});
    crcs.push_back(crc);
    inflated += static_cast<double>(size);
    at += 46 + name_length + extra_length + comment_length;
  }
  std::sort(extents.begin(), extents.end(), [](const Extent& a, const Extent& b) { return a.begin < b.begin; });
  for (std::size_t k = 1; k < extents.size(); ++k) {
    if (extents[k].begin < extents[k - 1].end) {
      corrupt("entries '" + archive.entries[extents[k - 1].entry].name + "' and '" + archive.entries[extents[k].entry].name +
              "' overlap (a zip bomb lists one entry's bytes many times)");
    }
  }
  const double sane = kArchiveAllowanceBytes + kMaxArchiveRatio * static_cast<double>(bytes.size());
  if (inflated > sane) {
    corrupt("its entries inflate to " + format_bytes(inflated) + ", more than " + std::to_string(kMaxArchiveRatio) + " times the " +
            format_bytes(static_cast<double>(bytes.size())) + " of the file (and its allowance of " + format_bytes(kArchiveAllowanceBytes) +
            "): not a torch archive");
  }
  require_memory(argument, inflated, "the inflated entries of " + path);
  // Then every entry's bytes: disjoint, so each byte of the file is read (or inflated) once.
  for (std::size_t k = 0; k < archive.entries.size(); ++k) {
    const ArchiveEntry& entry = archive.entries[k];
    std::uint32_t actual = 0;
    if (!entry.compressed) {
      actual = crc_of(bytes.at(entry.data_offset), entry.size);
    } else if (!inflated_crc(bytes.at(entry.data_offset), entry.stored_size, entry.size, actual)) {
      corrupt("entry '" + entry.name + "' does not inflate to its recorded size");
    }
    if (actual != crcs[k]) corrupt("entry '" + entry.name + "' fails its CRC-32 check (its bytes were changed after it was written)");
  }
  require_torch_layout(bytes, archive, corrupt);
  archive.check = ArchiveCheck::verified;
  return archive;
}

ArchiveCheck verify_archive(const std::string& path, const std::string& argument) {
  return verify_archive_bytes(read_whole_file(path, argument, kNoSizeLimit, "torch archive"), path, argument).check;
}

}  // namespace geomsim::train
