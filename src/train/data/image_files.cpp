#include "geomsim/train/data/image_files.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <limits>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"

namespace geomsim::train {
namespace {

std::uint32_t big_endian(const std::string& bytes, std::size_t offset) {
  std::uint32_t v = 0;
  for (std::size_t k = 0; k < 4; ++k) v = (v << 8) | static_cast<unsigned char>(bytes[offset + k]);
  return v;
}

}  // namespace

std::size_t ByteArray::item_size() const {
  std::size_t size = 1;
  for (std::size_t k = 1; k < shape.size(); ++k) size *= shape[k];
  return size;
}

namespace {

// A file's bytes in order, through gunzip (zlib) when it starts with gzip's magic bytes. zlib
// checks the gzip trailer's CRC-32 and length when the stream ends; a stream that stops before
// its trailer is an error, never a short file. Only regular files are opened (a FIFO would block,
// /dev/zero never ends), and the file's size bounds what it can hold: exactly its size when raw,
// at most kMaxDeflateRatio times its size when gzipped (deflate's largest ratio is 1032:1).
class ByteSource {
 public:
  static constexpr std::uint64_t kMaxDeflateRatio = 1032;

  ByteSource(const std::string& path, const std::string& argument)
      : path_(path), argument_(argument), file_(open_regular_file(path, argument)) {
    std::ifstream& in = file_.stream;
    gzipped_ = file_.size >= 2 && in.peek() == 0x1f && (in.get(), in.peek() == 0x8b);
    in.seekg(0);
    if (gzipped_ && inflateInit2(&stream_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  }
  ~ByteSource() {
    if (gzipped_) inflateEnd(&stream_);
  }
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  bool gzipped() const { return gzipped_; }
  std::uint64_t file_size() const { return file_.size; }
  // The most bytes the file can yield: its size, or deflate's maximum ratio times it.
  std::uint64_t most_bytes() const { return gzipped_ ? kMaxDeflateRatio * file_.size : file_.size; }

  // Up to `count` bytes; fewer only where the data ends.
  std::size_t read(char* into, std::size_t count) {
    std::ifstream& in = file_.stream;
    if (!gzipped_) {
      in.read(into, static_cast<std::streamsize>(count));
      return static_cast<std::size_t>(in.gcount());
    }
    std::size_t produced = 0;
    while (produced < count && !ended_) {
      if (stream_.avail_in == 0) {
        in.read(input_.data(), static_cast<std::streamsize>(input_.size()));
        stream_.next_in = reinterpret_cast<Bytef*>(input_.data());
        stream_.avail_in = static_cast<uInt>(in.gcount());
        if (stream_.avail_in == 0) corrupt("it ends before its gzip trailer");
      }
      const auto room = static_cast<uInt>(std::min<std::size_t>(count - produced, 1u << 30));
      stream_.next_out = reinterpret_cast<Bytef*>(into + produced);
      stream_.avail_out = room;
      const int status = inflate(&stream_, Z_NO_FLUSH);
      produced += room - stream_.avail_out;
      if (status == Z_STREAM_END) ended_ = true;  // the trailer's CRC-32 and length checked out
      else if (status != Z_OK && status != Z_BUF_ERROR) corrupt(stream_.msg != nullptr ? stream_.msg : "inflate failed");
    }
    return produced;
  }

  // Up to `count` bytes appended to `out`, which grows only as the bytes arrive (in chunks that
  // at most double it), so a stream that promises more than it holds costs only what it holds.
  // Each growth is checked against memory.
  std::size_t append(std::vector<std::uint8_t>& out, std::size_t count) {
    constexpr std::size_t kFirstChunk = std::size_t{1} << 20;
    std::size_t got = 0;
    while (got < count) {
      const std::size_t chunk = std::min(count - got, std::max(kFirstChunk, out.size()));
      require_memory(argument_, static_cast<double>(out.size() + chunk), "the bytes read from " + path_);
      const std::size_t before = out.size();
      out.resize(before + chunk);
      const std::size_t read_now = read(reinterpret_cast<char*>(out.data() + before), chunk);
      got += read_now;
      if (read_now < chunk) {
        out.resize(before + read_now);
        break;
      }
    }
    return got;
  }

 private:
  [[noreturn]] void corrupt(const std::string& why) const {
    throw InvalidArgument(argument_, path_ + " is a corrupt or truncated gzip file (" + why + ")");
  }
  std::string path_, argument_;
  InputFile file_;
  bool gzipped_ = false, ended_ = false;
  z_stream stream_{};
  std::array<char, 1 << 16> input_{};
};

// The whole content of a file, inflated when it is gzipped, bounded as ByteSource says and by
// `max_bytes`, the most its format holds (`what` names that most in the message).
std::vector<std::uint8_t> read_bytes(const std::string& path, const std::string& argument, std::uint64_t max_bytes,
                                     const std::string& what) {
  ByteSource source(path, argument);
  std::vector<std::uint8_t> bytes;
  const std::uint64_t most = std::min(source.most_bytes(), max_bytes);
  require_memory(argument, static_cast<double>(source.file_size()), "the file " + path);
  source.append(bytes, static_cast<std::size_t>(std::min<std::uint64_t>(most, std::numeric_limits<std::size_t>::max() - 1) + 1));
  if (bytes.size() > max_bytes) throw InvalidArgument(argument, path + " holds more than " + what);
  if (bytes.size() > most) {
    throw InvalidArgument(argument, path + " inflates to more than " + std::to_string(ByteSource::kMaxDeflateRatio) +
                                        " times its size, which no gzip file does (it is corrupt)");
  }
  return bytes;
}

}  // namespace

ByteArray read_idx(const std::string& path, const std::string& argument) {
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, path + ": " + why); };
  // The header first, then exactly the bytes it promises, and a few more to see whether there
  // are more: a gzip bomb is never inflated past what its header claims, and the claim is
  // checked against the file's size and memory before anything is allocated.
  ByteSource source(path, argument);
  const auto read = [&](char* into, std::size_t count) { return source.read(into, count); };
  std::string magic(4, '\0');
  if (read(magic.data(), 4) < 4) fail("too short for an IDX header");
  if (magic[0] != 0 || magic[1] != 0) fail("not an IDX file (the magic number must start with two zero bytes)");
  if (static_cast<unsigned char>(magic[2]) != 0x08) {
    fail("element type 0x" + std::to_string(static_cast<unsigned char>(magic[2])) + " is not supported (only unsigned bytes, 0x08)");
  }
  const std::size_t dims = static_cast<unsigned char>(magic[3]);
  if (dims == 0 || dims > 8) fail("has " + std::to_string(dims) + " dimensions; expected 1 to 8");
  std::string sizes(4 * dims, '\0');
  if (read(sizes.data(), sizes.size()) < sizes.size()) fail("is truncated inside its header");
  ByteArray array;
  std::size_t total = 1;
  std::string shape;
  for (std::size_t k = 0; k < dims; ++k) {
    array.shape.push_back(big_endian(sizes, 4 * k));
    shape += (k ? " x " : "") + std::to_string(array.shape.back());
  }
  for (const std::uint32_t size : array.shape) {
    if (size == 0) fail("has a dimension of size 0 (shape " + shape + "): it holds no data");
    if (__builtin_mul_overflow(total, static_cast<std::size_t>(size), &total)) {
      fail("has a shape (" + shape + ") whose size overflows: not a real IDX file");
    }
  }
  // The claim against what the file can hold, before anything is allocated: a raw file holds
  // exactly the bytes after its header; a gzipped one at most deflate's ratio times its size.
  const std::uint64_t header = 4 + 4 * static_cast<std::uint64_t>(dims);
  if (!source.gzipped()) {
    const std::uint64_t held = source.file_size() - header;
    if (held < total) fail("is truncated: the header promises " + std::to_string(total) + " bytes, the file holds " + std::to_string(held));
    if (held > total) fail("has " + std::to_string(held - total) + " bytes after the data the header describes");
  } else if (total > source.most_bytes()) {
    fail("is a gzip file of " + std::to_string(source.file_size()) + " bytes whose header promises " + std::to_string(total) +
         " bytes (shape " + shape + "), more than the " + std::to_string(ByteSource::kMaxDeflateRatio) +
         " times its size that gzip can hold: it is corrupt");
  }
  require_memory(argument, static_cast<double>(total), "the " + shape + " bytes " + path + " promises");
  const std::size_t got = source.append(array.data, total);
  if (got < total) fail("is truncated: the header promises " + std::to_string(total) + " bytes, the file holds " + std::to_string(got));
  char extra[4096];
  const std::size_t more = read(extra, sizeof extra);
  if (more > 0) {
    fail("has " + (more < sizeof extra ? std::to_string(more) : std::string("more")) + " bytes after the data the header describes");
  }
  return array;
}

LabelledImages read_idx_pair(const std::string& images_path, const std::string& labels_path, const std::string& argument,
                             const std::string& labels_argument) {
  const std::string& labels_option = labels_argument.empty() ? argument : labels_argument;
  LabelledImages out;
  out.images = read_idx(images_path, argument);
  const ByteArray labels = read_idx(labels_path, labels_option);
  if (out.images.shape.size() < 2) throw InvalidArgument(argument, images_path + ": an image file needs at least 2 dimensions");
  if (labels.shape.size() != 1) throw InvalidArgument(labels_option, labels_path + ": a label file has exactly 1 dimension");
  if (labels.count() != out.images.count()) {
    throw InvalidArgument(argument, images_path + " holds " + std::to_string(out.images.count()) + " images but " + labels_path +
                                        " holds " + std::to_string(labels.count()) + " labels");
  }
  out.labels.assign(labels.data.begin(), labels.data.end());
  return out;
}

namespace {
// The file STEM.gz or STEM in dir, in that order; empty when neither exists.
std::string fashion_mnist_file(const std::string& dir, const std::string& stem) {
  for (const std::string& name : {stem + ".gz", stem}) {
    const auto path = std::filesystem::path(dir) / name;
    if (std::filesystem::exists(path)) return path.string();
  }
  return "";
}
constexpr const char* kFashionMnistStems[] = {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte",
                                              "t10k-labels-idx1-ubyte"};
}  // namespace

std::vector<std::string> fashion_mnist_files(const std::string& dir) {
  std::vector<std::string> files;
  for (const char* stem : kFashionMnistStems) {
    std::string path = fashion_mnist_file(dir, stem);
    if (!path.empty()) files.push_back(std::move(path));
  }
  return files;
}

LabelledImages load_fashion_mnist(const std::string& dir, bool train_split) {
  const std::string prefix = train_split ? "train" : "t10k";
  const auto find = [&](const std::string& stem) {
    std::string path = fashion_mnist_file(dir, stem);
    if (path.empty()) throw InvalidArgument("data", "no " + stem + "[.gz] in " + dir + " (install dataset-fashion-mnist, or pass the folder)");
    return path;
  };
  const std::string images = find(prefix + "-images-idx3-ubyte");  // in this order, for a predictable message
  const std::string labels = find(prefix + "-labels-idx1-ubyte");
  LabelledImages data = read_idx_pair(images, labels, "data");
  if (data.images.shape.size() != 3 || data.images.shape[1] != 28 || data.images.shape[2] != 28) {
    throw InvalidArgument("data", dir + ": Fashion-MNIST images must be 28 x 28");
  }
  for (int label : data.labels) {
    if (label > 9) throw InvalidArgument("data", dir + ": Fashion-MNIST labels must be 0..9, found " + std::to_string(label));
  }
  return data;
}

LabelledImages read_cifar_binary(const std::vector<std::string>& paths, int label_bytes, int label_index,
                                 const std::string& argument) {
  if (label_bytes != 1 && label_bytes != 2) throw InvalidArgument("label_bytes", "must be 1 (CIFAR-10) or 2 (CIFAR-100)");
  if (label_index < 0 || label_index >= label_bytes) throw InvalidArgument("label_index", "must be in [0, label_bytes)");
  constexpr std::size_t kImage = 3 * 32 * 32;
  const std::size_t record = static_cast<std::size_t>(label_bytes) + kImage;
  LabelledImages out;
  out.images.shape = {0, 3, 32, 32};
  for (const auto& path : paths) {
    // A CIFAR batch file holds 10 000 records (CIFAR-10) or up to 50 000 (CIFAR-100's train.bin):
    // a file of more than 60 000 is not one, however well it inflates.
    constexpr std::uint64_t kMaxRecords = 60000;
    const std::vector<std::uint8_t> bytes =
        read_bytes(path, argument, kMaxRecords * record, std::to_string(kMaxRecords) + " CIFAR records (" + std::to_string(kMaxRecords * record) + " bytes)");
    if (bytes.empty() || bytes.size() % record != 0) {
      throw InvalidArgument(argument, path + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of " +
                                          std::to_string(record) + "-byte CIFAR records");
    }
    for (std::size_t offset = 0; offset < bytes.size(); offset += record) {
      out.labels.push_back(bytes[offset + static_cast<std::size_t>(label_index)]);
      if (label_bytes == 2) out.other_labels.push_back(bytes[offset + static_cast<std::size_t>(1 - label_index)]);
      out.images.data.insert(out.images.data.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset + static_cast<std::size_t>(label_bytes)),
                             bytes.begin() + static_cast<std::ptrdiff_t>(offset + record));
    }
  }
  out.images.shape[0] = static_cast<std::uint32_t>(out.labels.size());
  return out;
}

CifarFiles find_cifar_files(const std::string& dir) {
  namespace fs = std::filesystem;
  const auto all_exist = [](const fs::path& folder, const std::vector<std::string>& names) {
    for (const auto& n : names) {
      if (!fs::is_regular_file(folder / n)) return false;
    }
    return true;
  };
  const auto in = [](const fs::path& folder, const std::vector<std::string>& names) {
    std::vector<std::string> paths;
    for (const auto& n : names) paths.push_back((folder / n).string());
    return paths;
  };
  const std::vector<std::string> ten_train{"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin"};
  for (const fs::path& folder : {fs::path(dir), fs::path(dir) / "cifar-10-batches-bin", fs::path(dir) / "cifar-100-binary"}) {
    if (all_exist(folder, ten_train) && all_exist(folder, {"test_batch.bin"})) return {"cifar-10", in(folder, ten_train), in(folder, {"test_batch.bin"})};
    if (all_exist(folder, {"train.bin", "test.bin"})) return {"cifar-100", in(folder, {"train.bin"}), in(folder, {"test.bin"})};
  }
  throw InvalidArgument("cifar", dir + " holds neither CIFAR-10's binary batches (data_batch_1..5.bin, test_batch.bin) nor CIFAR-100's "
                                       "(train.bin, test.bin), nor a cifar-10-batches-bin or cifar-100-binary folder with them; get the "
                                       "\"binary version\" of either from https://www.cs.toronto.edu/~kriz/cifar.html and unpack it");
}

CifarData load_cifar(const std::string& dir, bool train_split) {
  const CifarFiles files = find_cifar_files(dir);
  const std::vector<std::string>& paths = train_split ? files.train : files.test;
  if (files.kind == "cifar-10") {
    CifarData out{files.kind, read_cifar_binary(paths, 1, 0, "cifar")};
    // A file of another layout (or a shifted one) shows up as label bytes out of range.
    for (std::size_t i = 0; i < out.data.labels.size(); ++i) {
      if (out.data.labels[i] > 9) {
        throw InvalidArgument("cifar", dir + ": record " + std::to_string(i) + " has label " + std::to_string(out.data.labels[i]) +
                                           "; CIFAR-10's labels are 0..9 (is this CIFAR-10's binary version?)");
      }
    }
    return out;
  }
  CifarData out{files.kind, read_cifar_binary(paths, 2, 1, "cifar")};
  // Each record holds its superclass beside its class: they must agree with the data set's grouping.
  const std::vector<int> superclass = builtin_hierarchy("cifar100-20").coarse_of_fine;
  for (std::size_t i = 0; i < out.data.labels.size(); ++i) {
    const int fine = out.data.labels[i], coarse = out.data.other_labels[i];
    if (fine > 99 || coarse != superclass[static_cast<std::size_t>(fine)]) {
      throw InvalidArgument("cifar", paths.front() + ": record " + std::to_string(i) + " has coarse label " + std::to_string(coarse) +
                                         " and fine label " + std::to_string(fine) +
                                         ", which CIFAR-100 never pairs (is this CIFAR-100's binary version?)");
    }
  }
  return out;
}

}  // namespace geomsim::train
