#include "geomsim/train/data/embedding_files.hpp"

#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/torch.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string_view>

#include "geomsim/support/csv_table.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/npy_array.hpp"
#include "geomsim/train/data/archive_integrity.hpp"
#include "geomsim/train/data/tensor_pickle.hpp"

namespace geomsim::train {
namespace {

// A tensor's pickle is a few hundred bytes: its class, sizes, strides and storage key.
constexpr std::uint64_t kMaxTensorPickleBytes = 1 << 20;
// How many first bytes tell the format (anything else is read as CSV, whose reader refuses a
// control byte where it stands).
constexpr std::size_t kFormatSniffBytes = 8;

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

// The tensor torch.save wrote, on the CPU, contiguous. The archive is checked before libtorch
// reads it: its zip structure and CRCs (archive_integrity), its pickle's size and framing
// (tensor_pickle), and afterwards the one storage the tensor has against the bytes its
// entry holds, before any element is read.
torch::Tensor read_saved_tensor(const std::string& path, const std::string& argument) {
  const std::string bytes = read_whole_file(path, argument, kNoSizeLimit, "tensor file");
  require_memory(argument, 3.0 * static_cast<double>(bytes.size()), "the tensor file " + path);
  const VerifiedArchive archive = verify_archive_bytes(bytes, path, argument);
  if (archive.check == ArchiveCheck::not_a_zip) {
    throw InvalidArgument(argument, path + " starts as a zip archive but has no central directory: it is truncated or corrupt, "
                                           "not a tensor file torch.save wrote");
  }
  // torch.save's layout: data.pkl and data/<storage> in the one folder (verify_archive_bytes
  // checked the folder and the version record libtorch's reader requires).
  const ArchiveEntry* pickle = nullptr;
  const ArchiveEntry* storage = nullptr;
  std::size_t storages = 0;
  for (const ArchiveEntry& entry : archive.entries) {
    const std::string inside = entry.name.substr(entry.name.find('/') + 1);
    if (inside == "data.pkl") pickle = &entry;
    if (inside.rfind("data/", 0) == 0) {
      storage = &entry;
      ++storages;
    }
  }
  if (pickle == nullptr) throw InvalidArgument(argument, path + ": is a zip archive without data.pkl, not a tensor file torch.save wrote");
  if (pickle->size > kMaxTensorPickleBytes) {
    throw InvalidArgument(argument, path + ": its pickle (data.pkl) holds " + std::to_string(pickle->size) + " bytes, more than the " +
                                        std::to_string(kMaxTensorPickleBytes) + " that describe a tensor; save the tensor itself (torch.save(z, path))");
  }
  if (pickle->compressed) throw InvalidArgument(argument, path + ": its data.pkl is compressed, which torch.save never does");
  if (storages > 1) {
    throw InvalidArgument(argument, path + ": holds " + std::to_string(storages) + " storages; a tensor has one; save the tensor itself (torch.save(z, path))");
  }
  check_tensor_pickle(std::string_view(bytes).substr(pickle->data_offset, pickle->size), path, argument);
  torch::IValue value;
  try {
    value = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
  } catch (const std::exception& e) {
    std::string what = e.what();
    what = what.substr(0, what.find('\n'));
    throw InvalidArgument(argument, path + ": is not a tensor file torch.save wrote, or it is corrupt (" + what + ")");
  }
  if (!value.isTensor()) {
    throw InvalidArgument(argument, path + ": holds a " + value.tagKind() + ", not a tensor; save the tensor itself (torch.save(z, path))");
  }
  const torch::Tensor tensor = value.toTensor();
  // libtorch sizes a storage by the element count its pickle declares, not by the bytes its entry
  // holds: they must agree before an element is read.
  const std::uint64_t declared = tensor.storage().nbytes(), held = storage == nullptr ? 0 : storage->size;
  if (declared != held) {
    throw InvalidArgument(argument, path + ": its pickle declares a storage of " + std::to_string(declared) + " bytes but its entry holds " +
                                        std::to_string(held) + " (the file is corrupt)");
  }
  return tensor.to(torch::kCPU).contiguous();
}

std::string dims_text(const torch::Tensor& t) {
  std::string out = "(";
  for (int64_t k = 0; k < t.dim(); ++k) out += (k ? ", " : "") + std::to_string(t.size(k));
  return out + ")";
}

}  // namespace

std::string to_string(ArrayFormat format) {
  switch (format) {
    case ArrayFormat::npy: return "npy";
    case ArrayFormat::csv: return "csv";
    case ArrayFormat::torch: return "torch.save";
  }
  return "";
}

ArrayFormat detect_array_format(const std::string& path, const std::string& argument) {
  InputFile file = open_regular_file(path, argument);
  std::array<char, kFormatSniffBytes> head{};
  file.stream.read(head.data(), static_cast<std::streamsize>(head.size()));
  const auto got = static_cast<std::size_t>(file.stream.gcount());
  if (got >= 6 && std::memcmp(head.data(), "\x93NUMPY", 6) == 0) return ArrayFormat::npy;
  if (got >= 4 && std::memcmp(head.data(), "PK\x03\x04", 4) == 0) return ArrayFormat::torch;
  // torch.save before PyTorch 1.6 (or with _use_new_zipfile_serialization=False): a bare pickle.
  if (got >= 2 && static_cast<unsigned char>(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5) {
    throw InvalidArgument(argument, path + ": is a pickle (torch.save's legacy format or pickle.dump), which libtorch cannot read; "
                                           "save it with torch.save(tensor, path) from PyTorch 1.6 or later, or numpy.save");
  }
  return ArrayFormat::csv;
}

Matrix read_embeddings(const std::string& path, const std::string& argument) {
  const ArrayFormat format = detect_array_format(path, argument);
  Index n = 0, d = 0;
  std::vector<double> values;
  if (format == ArrayFormat::npy) {
    NpyHeader header;
    values = read_npy_floats(path, argument, header, "embeddings");
    if (header.shape.size() != 2) throw InvalidArgument(argument, path + ": has shape " + shape_text(header.shape) + "; embeddings are N x d");
    n = static_cast<Index>(header.shape[0]);
    d = static_cast<Index>(header.shape[1]);
  } else if (format == ArrayFormat::csv) {
    const NumericTable table = read_numeric_csv(path, argument);
    n = static_cast<Index>(table.rows);
    d = static_cast<Index>(table.columns);
    values = table.values;
  } else {
    const torch::Tensor t = read_saved_tensor(path, argument);
    if (t.scalar_type() != torch::kFloat && t.scalar_type() != torch::kDouble) {
      throw InvalidArgument(argument, path + ": holds a " + std::string(c10::toString(t.scalar_type())) +
                                          " tensor; embeddings must be float32 or float64");
    }
    if (t.dim() != 2) throw InvalidArgument(argument, path + ": holds a tensor of shape " + dims_text(t) + "; embeddings are N x d");
    const torch::Tensor as_double = t.to(torch::kDouble).contiguous();
    n = as_double.size(0);
    d = as_double.size(1);
    values.assign(as_double.data_ptr<double>(), as_double.data_ptr<double>() + as_double.numel());
  }
  if (n < 1 || d < 1) throw InvalidArgument(argument, path + ": holds " + std::to_string(n) + " x " + std::to_string(d) + " embeddings; need N >= 1 rows of d >= 1");
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) {
      throw InvalidArgument(argument, path + ": embedding " + std::to_string(k / static_cast<std::size_t>(d)) + " has a value that is not finite");
    }
  }
  // Row-major N x d is column-major d x N: one column per point.
  return Eigen::Map<const Matrix>(values.data(), d, n);
}

std::vector<int> read_labels(const std::string& path, const std::string& argument, const std::string& column) {
  const ArrayFormat format = detect_array_format(path, argument);
  if (format == ArrayFormat::csv) return integer_column(read_numeric_csv(path, argument), column, path, argument);
  if (!column.empty()) throw InvalidArgument(argument + "-column", "applies to CSV files only; " + path + " is " + to_string(format));
  if (format == ArrayFormat::npy) {
    NpyHeader header;
    std::vector<int> labels = read_npy_integers(path, argument, header);
    if (!(header.shape.size() == 1 || (header.shape.size() == 2 && header.shape[1] == 1))) {
      throw InvalidArgument(argument, path + ": has shape " + shape_text(header.shape) + "; labels are a vector (N,) or (N, 1)");
    }
    return labels;
  }
  const torch::Tensor t = read_saved_tensor(path, argument);
  if (!c10::isIntegralType(t.scalar_type(), false)) {
    throw InvalidArgument(argument, path + ": holds a " + std::string(c10::toString(t.scalar_type())) + " tensor; labels must be integers");
  }
  if (!(t.dim() == 1 || (t.dim() == 2 && t.size(1) == 1))) {
    throw InvalidArgument(argument, path + ": holds a tensor of shape " + dims_text(t) + "; labels are a vector (N,) or (N, 1)");
  }
  const torch::Tensor as_long = t.to(torch::kLong).contiguous().view({-1});
  std::vector<int> labels(static_cast<std::size_t>(as_long.numel()));
  const int64_t* p = as_long.data_ptr<int64_t>();
  for (std::size_t k = 0; k < labels.size(); ++k) {
    if (p[k] < std::numeric_limits<int>::min() || p[k] > std::numeric_limits<int>::max()) {
      throw InvalidArgument(argument, path + ": label " + std::to_string(p[k]) + " is outside int");
    }
    labels[k] = static_cast<int>(p[k]);
  }
  return labels;
}

}  // namespace geomsim::train
