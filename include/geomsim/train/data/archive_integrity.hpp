#pragma once
// The integrity of a torch archive (a zip file: geomsim's checkpoints, PyTorch's torch.save and
// torch.jit.save) before libtorch reads it. libtorch's zip reader is built without its CRC-32
// checks, so a checkpoint with flipped bytes inside a weight tensor loads and gives other
// numbers; this reads the zip's central directory and checks every entry's CRC-32 (stored
// entries directly, deflated ones after inflating them with zlib).
//
// The archive is hostile input: entries must lie in the file and be disjoint (a zip bomb lists
// one entry's bytes thousands of times), a deflated entry may not claim more than deflate's
// 1032:1 can produce, and the total they inflate to is bounded by a ratio to the file's size and
// by memory, all before anything is inflated. It must also be laid out as libtorch's reader
// requires (one top-level folder, a version record it reads, no folder or encrypted entries),
// because that reader leaks its state when it throws from its constructor.
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::train {

enum class ArchiveCheck {
  not_a_zip,  // no end-of-central-directory record: not an archive at all (or cut short)
  verified,   // every entry is where the directory says, with its recorded size and CRC-32
};

inline constexpr std::uint64_t kMaxDeflateRatio = 1032;  // deflate's largest output per input byte
// The most a torch archive's entries may inflate to: this many times the file's size, plus the
// allowance below. torch.save and torch.jit.save store their entries (ratio 1); a rezipped one
// deflates float weights and text at most a few times.
inline constexpr int kMaxArchiveRatio = 100;
inline constexpr double kArchiveAllowanceBytes = 64.0 * (1 << 20);

// One entry of a verified archive: where its bytes are in the file and how large they are.
struct ArchiveEntry {
  std::string name;
  std::uint64_t size = 0;         // inflated
  std::uint64_t data_offset = 0;  // its first byte in the file
  std::uint64_t stored_size = 0;  // its bytes in the file
  bool compressed = false;        // deflated (else stored: size == stored_size)
};

struct VerifiedArchive {
  ArchiveCheck check = ArchiveCheck::not_a_zip;
  std::vector<ArchiveEntry> entries;  // in the central directory's order; empty for not_a_zip
};

// The checks of verify_archive on a file's bytes already read (`path` names it in messages).
VerifiedArchive verify_archive_bytes(const std::string& bytes, const std::string& path, const std::string& argument);

// Throws InvalidArgument(argument) naming the file and the entry when the file is a zip whose
// directory is inconsistent or whose entry fails its size or CRC-32 check; InvalidArgument too
// when the file cannot be read or is not a regular file.
ArchiveCheck verify_archive(const std::string& path, const std::string& argument);

}  // namespace geomsim::train
