#include "geomsim/experiments/embedding_files.hpp"

#include <array>
#include <cmath>
#include <cstring>

#include "geomsim/manifold/point_magnitude.hpp"
#include "geomsim/support/csv_table.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/npy_array.hpp"

namespace geomsim {
namespace {

// How many first bytes tell the format (anything else is read as CSV, whose reader refuses a
// control byte where it stands).
constexpr std::size_t kFormatSniffBytes = 8;

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + (shape.size() == 1 ? ",)" : ")");
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

void refuse_torch_file(const std::string& path, const std::string& argument) {
  throw InvalidArgument(argument, path + ": is a tensor saved by torch.save, which needs a build with libtorch "
                                         "(GEOMSIM_WITH_TORCH=ON); without it, save the array with numpy.save or as CSV");
}

Matrix embeddings_from_rows(const std::vector<double>& values, Index n, Index d, const std::string& path,
                            const std::string& argument) {
  if (n < 1 || d < 1) {
    throw InvalidArgument(argument, path + ": holds " + std::to_string(n) + " x " + std::to_string(d) +
                                        " embeddings; need N >= 1 rows of d >= 1");
  }
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!std::isfinite(values[k])) {
      throw InvalidArgument(argument, path + ": embedding " + std::to_string(k / static_cast<std::size_t>(d)) + " has a value that is not finite");
    }
    if (std::abs(values[k]) > kMaxCoordinateMagnitude) {
      throw InvalidArgument(argument, path + ": embedding " + std::to_string(k / static_cast<std::size_t>(d)) + " has the value " +
                                          format_number(values[k]) + ", above 1e150 in magnitude (the measures sum squares of coordinates)");
    }
  }
  // Row-major N x d is column-major d x N: one column per point.
  return Eigen::Map<const Matrix>(values.data(), d, n);
}

Matrix read_embedding_array(const std::string& path, const std::string& argument) {
  const ArrayFormat format = detect_array_format(path, argument);
  if (format == ArrayFormat::torch) refuse_torch_file(path, argument);
  if (format == ArrayFormat::npy) {
    NpyHeader header;
    const std::vector<double> values = read_npy_floats(path, argument, header, "embeddings");
    if (header.shape.size() != 2) throw InvalidArgument(argument, path + ": has shape " + shape_text(header.shape) + "; embeddings are N x d");
    return embeddings_from_rows(values, static_cast<Index>(header.shape[0]), static_cast<Index>(header.shape[1]), path, argument);
  }
  const NumericTable table = read_numeric_csv(path, argument);
  return embeddings_from_rows(table.values, static_cast<Index>(table.rows), static_cast<Index>(table.columns), path, argument);
}

std::vector<int> read_label_array(const std::string& path, const std::string& argument, const std::string& column) {
  const ArrayFormat format = detect_array_format(path, argument);
  if (format == ArrayFormat::csv) return integer_column(read_numeric_csv(path, argument), column, path, argument);
  if (!column.empty()) throw InvalidArgument(argument + "-column", "applies to CSV files only; " + path + " is " + to_string(format));
  if (format == ArrayFormat::torch) refuse_torch_file(path, argument);
  NpyHeader header;
  std::vector<int> labels = read_npy_integers(path, argument, header);
  if (!(header.shape.size() == 1 || (header.shape.size() == 2 && header.shape[1] == 1))) {
    throw InvalidArgument(argument, path + ": has shape " + shape_text(header.shape) + "; labels are a vector (N,) or (N, 1)");
  }
  return labels;
}

}  // namespace geomsim
