#include "geomsim/train/data/embedding_files.hpp"

#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/torch.h>

#include <array>
#include <cmath>
#include <cstring>
#include <string_view>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/data/archive_integrity.hpp"
#include "geomsim/train/data/tensor_pickle.hpp"

namespace geomsim::train {
namespace {

// A tensor's pickle is a few hundred bytes: its class, sizes, strides and storage key.
constexpr std::uint64_t kMaxTensorPickleBytes = 1 << 20;
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

Matrix read_embeddings(const std::string& path, const std::string& argument) {
  if (detect_array_format(path, argument) != ArrayFormat::torch) return read_embedding_array(path, argument);
  const torch::Tensor t = read_saved_tensor(path, argument);
  if (t.scalar_type() != torch::kFloat && t.scalar_type() != torch::kDouble) {
    throw InvalidArgument(argument, path + ": holds a " + std::string(c10::toString(t.scalar_type())) +
                                        " tensor; embeddings must be float32 or float64");
  }
  if (t.dim() != 2) throw InvalidArgument(argument, path + ": holds a tensor of shape " + dims_text(t) + "; embeddings are N x d");
  const torch::Tensor as_double = t.to(torch::kDouble).contiguous();
  const std::vector<double> values(as_double.data_ptr<double>(), as_double.data_ptr<double>() + as_double.numel());
  return embeddings_from_rows(values, as_double.size(0), as_double.size(1), path, argument);
}

std::vector<int> read_labels(const std::string& path, const std::string& argument, const std::string& column) {
  if (detect_array_format(path, argument) != ArrayFormat::torch) return read_label_array(path, argument, column);
  if (!column.empty()) throw InvalidArgument(argument + "-column", "applies to CSV files only; " + path + " is " + to_string(ArrayFormat::torch));
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
