#pragma once
// The integrity of a torch archive (a zip file: geomsim's checkpoints, PyTorch's torch.save and
// torch.jit.save) before libtorch reads it. libtorch's zip reader is built without its CRC-32
// checks, so a checkpoint with flipped bytes inside a weight tensor loads and gives other
// numbers; this reads the zip's central directory and checks every entry's CRC-32 (stored
// entries directly, deflated ones after inflating them with zlib).
#include <string>

namespace geomsim::train {

enum class ArchiveCheck {
  not_a_zip,  // no end-of-central-directory record: not an archive at all (or cut short)
  verified,   // every entry is where the directory says, with its recorded size and CRC-32
};

// Throws InvalidArgument(argument) naming the file and the entry when the file is a zip whose
// directory is inconsistent or whose entry fails its size or CRC-32 check; InvalidArgument too
// when the file cannot be read.
ArchiveCheck verify_archive(const std::string& path, const std::string& argument);

}  // namespace geomsim::train
