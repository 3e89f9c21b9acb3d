#pragma once
// A user's embeddings and labels from files, whatever wrote them: NumPy's .npy (numpy.save),
// CSV, or a tensor saved by PyTorch's torch.save (read through libtorch's pickle_load). The
// format is told by the file's first bytes, not its name (experiments/embedding_files.hpp, whose
// .npy and CSV readers these are, with torch.save added).
//
// Embeddings are N x d (float32 or float64; a CSV matrix with an optional header row);
// labels are N integers (an integer .npy or tensor of shape (N,) or (N, 1), or a CSV column).
// Every fault is an InvalidArgument naming the option and the file.
#include <string>
#include <vector>

#include "geomsim/experiments/embedding_files.hpp"
#include "geomsim/manifold/sphere.hpp"

namespace geomsim::train {

using geomsim::ArrayFormat;
using geomsim::detect_array_format;
using geomsim::to_string;

// N x d embeddings as the core's d x N matrix (one column per point). Refuses an empty array,
// another rank, and values that are not finite.
Matrix read_embeddings(const std::string& path, const std::string& argument);

// N integer labels. For a CSV with several columns `column` names the one to read (a header
// name or a 0-based index).
std::vector<int> read_labels(const std::string& path, const std::string& argument, const std::string& column = "");

}  // namespace geomsim::train
