#include "geomsim/train/image_files.hpp"

#include <boost/iostreams/copy.hpp>
#include <boost/iostreams/filter/gzip.hpp>
#include <boost/iostreams/filtering_streambuf.hpp>
#include <filesystem>
#include <sstream>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/label_hierarchy.hpp"

namespace geomsim::train {
namespace {

std::string read_bytes(const std::string& path, const std::string& argument) {
  std::string bytes = read_whole_file(path, argument);
  if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f && static_cast<unsigned char>(bytes[1]) == 0x8b) {
    try {
      std::istringstream compressed(bytes);
      boost::iostreams::filtering_streambuf<boost::iostreams::input> gunzip;
      gunzip.push(boost::iostreams::gzip_decompressor());
      gunzip.push(compressed);
      std::ostringstream out;
      boost::iostreams::copy(gunzip, out);
      bytes = out.str();
    } catch (const std::exception& e) {
      throw InvalidArgument(argument, path + " is a corrupt or truncated gzip file (" + e.what() + ")");
    }
  }
  return bytes;
}

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

ByteArray read_idx(const std::string& path, const std::string& argument) {
  const std::string bytes = read_bytes(path, argument);
  const auto fail = [&](const std::string& why) { throw InvalidArgument(argument, path + ": " + why); };
  if (bytes.size() < 4) fail("too short for an IDX header");
  if (bytes[0] != 0 || bytes[1] != 0) fail("not an IDX file (the magic number must start with two zero bytes)");
  if (static_cast<unsigned char>(bytes[2]) != 0x08) {
    fail("element type 0x" + std::to_string(static_cast<unsigned char>(bytes[2])) + " is not supported (only unsigned bytes, 0x08)");
  }
  const std::size_t dims = static_cast<unsigned char>(bytes[3]);
  if (dims == 0 || dims > 8) fail("has " + std::to_string(dims) + " dimensions; expected 1 to 8");
  const std::size_t header = 4 + 4 * dims;
  if (bytes.size() < header) fail("is truncated inside its header");
  ByteArray array;
  std::size_t total = 1;
  for (std::size_t k = 0; k < dims; ++k) {
    array.shape.push_back(big_endian(bytes, 4 + 4 * k));
    total *= array.shape.back();
  }
  const std::size_t body = bytes.size() - header;
  if (body < total) fail("is truncated: the header promises " + std::to_string(total) + " bytes, the file holds " + std::to_string(body));
  if (body > total) fail("has " + std::to_string(body - total) + " bytes after the data the header describes");
  array.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header), bytes.end());
  return array;
}

LabelledImages read_idx_pair(const std::string& images_path, const std::string& labels_path, const std::string& argument) {
  LabelledImages out;
  out.images = read_idx(images_path, argument);
  const ByteArray labels = read_idx(labels_path, argument);
  if (out.images.shape.size() < 2) throw InvalidArgument(argument, images_path + ": an image file needs at least 2 dimensions");
  if (labels.shape.size() != 1) throw InvalidArgument(argument, labels_path + ": a label file has exactly 1 dimension");
  if (labels.count() != out.images.count()) {
    throw InvalidArgument(argument, images_path + " holds " + std::to_string(out.images.count()) + " images but " + labels_path +
                                        " holds " + std::to_string(labels.count()) + " labels");
  }
  out.labels.assign(labels.data.begin(), labels.data.end());
  return out;
}

LabelledImages load_fashion_mnist(const std::string& dir, bool train_split) {
  const std::string prefix = train_split ? "train" : "t10k";
  const auto find = [&](const std::string& stem) {
    for (const std::string& name : {stem + ".gz", stem}) {
      const auto path = std::filesystem::path(dir) / name;
      if (std::filesystem::exists(path)) return path.string();
    }
    throw InvalidArgument("data", "no " + stem + "[.gz] in " + dir + " (install dataset-fashion-mnist, or pass the folder)");
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
    const std::string bytes = read_bytes(path, argument);
    if (bytes.empty() || bytes.size() % record != 0) {
      throw InvalidArgument(argument, path + ": " + std::to_string(bytes.size()) + " bytes is not a whole number of " +
                                          std::to_string(record) + "-byte CIFAR records");
    }
    for (std::size_t offset = 0; offset < bytes.size(); offset += record) {
      out.labels.push_back(static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(label_index)]));
      if (label_bytes == 2) out.other_labels.push_back(static_cast<unsigned char>(bytes[offset + static_cast<std::size_t>(1 - label_index)]));
      out.images.data.insert(out.images.data.end(), bytes.begin() + static_cast<std::ptrdiff_t>(offset + label_bytes),
                             bytes.begin() + static_cast<std::ptrdiff_t>(offset + record));
    }
  }
  out.images.shape[0] = static_cast<std::uint32_t>(out.labels.size());
  return out;
}

CifarData load_cifar(const std::string& dir, bool train_split) {
  namespace fs = std::filesystem;
  const auto all_exist = [](const fs::path& folder, const std::vector<std::string>& names) {
    for (const auto& n : names) {
      if (!fs::is_regular_file(folder / n)) return false;
    }
    return true;
  };
  const std::vector<std::string> ten_train{"data_batch_1.bin", "data_batch_2.bin", "data_batch_3.bin", "data_batch_4.bin", "data_batch_5.bin"};
  for (const fs::path& folder : {fs::path(dir), fs::path(dir) / "cifar-10-batches-bin", fs::path(dir) / "cifar-100-binary"}) {
    std::vector<std::string> paths;
    if (all_exist(folder, ten_train) && all_exist(folder, {"test_batch.bin"})) {
      for (const auto& n : train_split ? ten_train : std::vector<std::string>{"test_batch.bin"}) paths.push_back((folder / n).string());
      CifarData out{"cifar-10", read_cifar_binary(paths, 1, 0, "cifar")};
      // A file of another layout (or a shifted one) shows up as label bytes out of range.
      for (std::size_t i = 0; i < out.data.labels.size(); ++i) {
        if (out.data.labels[i] > 9) {
          throw InvalidArgument("cifar", folder.string() + ": record " + std::to_string(i) + " has label " + std::to_string(out.data.labels[i]) +
                                             "; CIFAR-10's labels are 0..9 (is this CIFAR-10's binary version?)");
        }
      }
      return out;
    }
    if (all_exist(folder, {"train.bin", "test.bin"})) {
      const std::string path = (folder / (train_split ? "train.bin" : "test.bin")).string();
      CifarData out{"cifar-100", read_cifar_binary({path}, 2, 1, "cifar")};
      // Each record holds its superclass beside its class: they must agree with the data set's grouping.
      const std::vector<int> superclass = builtin_hierarchy("cifar100-20").coarse_of_fine;
      for (std::size_t i = 0; i < out.data.labels.size(); ++i) {
        const int fine = out.data.labels[i], coarse = out.data.other_labels[i];
        if (fine > 99 || coarse != superclass[static_cast<std::size_t>(fine)]) {
          throw InvalidArgument("cifar", path + ": record " + std::to_string(i) + " has coarse label " + std::to_string(coarse) +
                                             " and fine label " + std::to_string(fine) +
                                             ", which CIFAR-100 never pairs (is this CIFAR-100's binary version?)");
        }
      }
      return out;
    }
  }
  throw InvalidArgument("cifar", dir + " holds neither CIFAR-10's binary batches (data_batch_1..5.bin, test_batch.bin) nor CIFAR-100's "
                                       "(train.bin, test.bin), nor a cifar-10-batches-bin or cifar-100-binary folder with them; get the "
                                       "\"binary version\" of either from https://www.cs.toronto.edu/~kriz/cifar.html and unpack it");
}

}  // namespace geomsim::train
