// A user's embeddings and labels as hostile files: torch.save archives whose pickle lies about
// a length or a storage, archives cut short, files that are not regular files, and binary data
// that is read as CSV. Each is refused with the file named, before anything large is allocated.
#include "train/catch_with_torch.hpp"

#include <sys/stat.h>
#include <torch/csrc/jit/serialization/pickle.h>

#include <filesystem>
#include <fstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/archive_integrity.hpp"
#include "geomsim/train/data/embedding_files.hpp"
#include "scratch_folder.hpp"
#include "train/data/zip_bytes.hpp"

using namespace geomsim;
using namespace geomsim::train;
using geomsim::testing::ZipEntry;
namespace fs = std::filesystem;

namespace {
using Scratch = geomsim::testing::ScratchFolder;

std::string write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

// The entries of a tensor as torch.save writes it (libtorch's pickle_save writes the same archive).
std::vector<ZipEntry> saved_entries(const torch::Tensor& tensor) {
  const std::vector<char> saved = torch::pickle_save(tensor);
  const std::string bytes(saved.begin(), saved.end());
  std::vector<ZipEntry> entries;
  for (const ArchiveEntry& e : verify_archive_bytes(bytes, "saved", "test").entries) {
    entries.push_back({e.name, bytes.substr(e.data_offset, e.size)});
  }
  return entries;
}

ZipEntry& entry_ending(std::vector<ZipEntry>& entries, const std::string& tail) {
  for (ZipEntry& e : entries) {
    if (e.name.size() >= tail.size() && e.name.compare(e.name.size() - tail.size(), tail.size(), tail) == 0) return e;
  }
  throw std::logic_error("no entry " + tail);
}
}  // namespace

TEST_CASE("torch.save tensors round-trip as embeddings and labels", "[train][data][embeddings]") {
  Scratch dir("embedding-files");
  const torch::Tensor z = torch::tensor({{1.0, 0.0}, {0.0, 1.0}, {0.6, 0.8}}, torch::kDouble);
  write_bytes(dir("z.pt"), geomsim::testing::zip_bytes(saved_entries(z)));
  const Matrix read = read_embeddings(dir("z.pt"), "embeddings");
  CHECK(read.rows() == 2);
  CHECK(read.cols() == 3);
  CHECK(read(1, 2) == 0.8);
  write_bytes(dir("y.pt"), geomsim::testing::zip_bytes(saved_entries(torch::tensor({0, 1, 1}, torch::kLong))));
  CHECK(read_labels(dir("y.pt"), "labels") == std::vector<int>{0, 1, 1});
}

TEST_CASE("A torch.save archive whose pickle or storage lies is refused before libtorch allocates", "[train][data][embeddings][errors]") {
  Scratch dir("embedding-files");
  const auto refused = [&](const std::string& name, const std::string& bytes, const std::string& why) {
    const std::string path = write_bytes(dir(name), bytes);
    CHECK_THAT(geomsim::testing::refusal([&] { read_embeddings(path, "embeddings"); }),
               Catch::Contains("--embeddings " + path) && Catch::Contains(why));
  };
  // The fuzzer's reproducer: a string whose BINUNICODE length says ~4 GB (libtorch would allocate it).
  const std::string lying_string = std::string("\x80\x02X\xf0\xff\xff\xff", 7) + "abc.";
  refused("string.pt", geomsim::testing::zip_bytes({{"archive/data.pkl", lying_string}, {"archive/version", "3\n"}}),
          "its pickle (data.pkl) is corrupt: a length field claims 4294967280 bytes where 4 remain at byte 2");
  // A memo index far past the ones set (libtorch would grow its memo table to it).
  refused("memo.pt", geomsim::testing::zip_bytes({{"archive/data.pkl", std::string("\x80\x02Nr\xff\xff\xff\x7f.", 9)}, {"archive/version", "3\n"}}),
          "memo index 2147483647 skips past the 0 set");
  refused("opcode.pt", geomsim::testing::zip_bytes({{"archive/data.pkl", std::string("\x80\x02\xff.", 4)}, {"archive/version", "3\n"}}), "byte 255 is not a pickle opcode");
  // A pickle far larger than a tensor's.
  refused("large.pt", geomsim::testing::zip_bytes({{"archive/data.pkl", std::string((1 << 20) + 1, 'N') + "."}, {"archive/version", "3\n"}}),
          "its pickle (data.pkl) holds 1048578 bytes, more than the 1048576 that describe a tensor");
  // A storage entry shorter than the storage its pickle declares (libtorch would read past it).
  std::vector<ZipEntry> short_storage = saved_entries(torch::ones({4, 3}, torch::kFloat));
  ZipEntry& storage = entry_ending(short_storage, "data/0");
  storage.bytes.resize(storage.bytes.size() / 2);
  refused("storage.pt", geomsim::testing::zip_bytes(short_storage), "its pickle declares a storage of 48 bytes but its entry holds 24");
  // Cut short, or a byte changed: the archive itself is refused, libtorch never reads it.
  const std::string whole = geomsim::testing::zip_bytes(saved_entries(torch::ones({4, 3}, torch::kFloat)));
  refused("cut.pt", whole.substr(0, whole.size() / 2), "has no central directory: it is truncated or corrupt");
  std::string flipped = whole;
  flipped[whole.find("archive/data/0") + 20] ^= 0x10;
  refused("flipped.pt", flipped, "fails its CRC-32 check");
  // An entry marked encrypted (bit 0 of its directory record's flags, 8 bytes into the record):
  // libtorch's reader leaked on such an archive (tests/fuzz/regressions/torch_save/).
  std::string encrypted = whole;
  const std::size_t record = encrypted.rfind("PK\x01\x02");
  REQUIRE(record != std::string::npos);
  encrypted[record + 8] = static_cast<char>(encrypted[record + 8] | 0x01);
  refused("encrypted.pt", encrypted, "is marked encrypted, which torch archives never are");
  // What else libtorch's reader throws on from its constructor (leaking its zip reader): an entry
  // marked a folder (external attributes, 38 bytes into the record), a version it does not read.
  std::string folder = whole;
  folder[record + 38] = static_cast<char>(folder[record + 38] | 0x10);
  refused("folder.pt", folder, "is a folder, which torch archives never hold");
  std::vector<ZipEntry> future = saved_entries(torch::ones({2, 2}, torch::kFloat));
  for (const std::string version : {"99\n", "x\n", "0\n", "", "3 \n"}) {
    entry_ending(future, "/version").bytes = version;
    refused("version.pt", geomsim::testing::zip_bytes(future), "version' does not hold a format version this libtorch reads (a decimal number from 1 to ");
  }
  entry_ending(future, "/version").bytes = "3\n";
  std::vector<ZipEntry> outside = future;
  outside.push_back({"other/x", "1"});
  refused("outside.pt", geomsim::testing::zip_bytes(outside), "its entry 'other/x' is outside the one folder torch archives hold");
  std::vector<ZipEntry> no_version;
  for (const ZipEntry& e : future) {
    if (e.name.find("version") == std::string::npos) no_version.push_back(e);
  }
  refused("no-version.pt", geomsim::testing::zip_bytes(no_version), "it has no version record");
  // libtorch's own archive (pickle_save writes zip64 end records) whose zip64 end record says 0
  // entries: libtorch's reader reads that record, finds no file and throws, leaking its state.
  const std::vector<char> saved = torch::pickle_save(torch::ones({2}, torch::kFloat));
  std::string empty64(saved.begin(), saved.end());
  const std::size_t record64 = empty64.rfind("PK\x06\x06");
  REQUIRE(record64 != std::string::npos);
  empty64.replace(record64 + 24, 16, std::string(16, '\0'));  // entries on this disk, and in all
  refused("empty64.pt", empty64, "its zip64 end record and its end record disagree on the central directory");
}

TEST_CASE("Embeddings and labels that are not regular files, or not text, are refused at once", "[train][data][embeddings][errors]") {
  Scratch dir("embedding-files");
  const std::string fifo = dir("fifo");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_THROWS_WITH(read_embeddings(fifo, "embeddings"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_labels(fifo, "labels"), Catch::Contains("is a FIFO (named pipe); only regular files are read"));
  CHECK_THROWS_WITH(read_embeddings("/dev/zero", "embeddings"), Catch::Contains("/dev/zero is a character device"));
  CHECK_THROWS_WITH(read_labels("/dev/zero", "labels"), Catch::Contains("/dev/zero is a character device"));
  // A 2 GB sparse file (zeros) is not a CSV: refused at its first byte (the CSV reader streams),
  // not after reading it (the bad-input table runs the same file through the CLI).
  const std::string sparse = write_bytes(dir("sparse.npy"), "");
  fs::resize_file(sparse, std::uintmax_t{2} << 30);
  CHECK_THROWS_WITH(read_embeddings(sparse, "embeddings"), Catch::Contains("byte 0 (line 1) is the control character 0x00"));
  // A CSV is still read as one.
  write_bytes(dir("z.csv"), "a,b\n1,0\n0,1\n");
  CHECK(read_embeddings(dir("z.csv"), "embeddings").cols() == 2);
}
