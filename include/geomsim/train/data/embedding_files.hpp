#pragma once
// A user's embeddings and labels from files, whatever wrote them: NumPy's .npy (numpy.save),
// CSV, or a tensor saved by PyTorch's torch.save (read through libtorch's pickle_load). The
// format is told by the file's first bytes, not its name: \x93NUMPY is .npy, a zip archive is
// torch.save's format, anything else is read as CSV.
//
// Embeddings are N x d (float32 or float64; a CSV matrix with an optional header row);
// labels are N integers (an integer .npy or tensor of shape (N,) or (N, 1), or a CSV column).
// Every fault is an InvalidArgument naming the option and the file.
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::train {

enum class ArrayFormat { npy, csv, torch };
std::string to_string(ArrayFormat format);  // "npy", "csv", "torch.save"

// Which format the file at `path` holds, by its first bytes. A torch.save file in the legacy
// (pre-1.6) format is refused, saying how to save it anew.
ArrayFormat detect_array_format(const std::string& path, const std::string& argument);

// N x d embeddings as the core's d x N matrix (one column per point). Refuses an empty array,
// another rank, and values that are not finite.
Matrix read_embeddings(const std::string& path, const std::string& argument);

// N integer labels. For a CSV with several columns `column` names the one to read (a header
// name or a 0-based index).
std::vector<int> read_labels(const std::string& path, const std::string& argument, const std::string& column = "");

}  // namespace geomsim::train
