#pragma once
// A user's embeddings and labels from files: NumPy's .npy (numpy.save) or CSV, read without
// libtorch. The format is told by the file's first bytes, not its name: \x93NUMPY is .npy, a zip
// archive is torch.save's format (which only geomsim-torch reads: train/data/embedding_files.hpp
// adds it on top of these readers), anything else is read as CSV.
//
// Embeddings are N x d (float32 or float64; a CSV matrix with an optional header row);
// labels are N integers (an integer .npy of shape (N,) or (N, 1), or a CSV column).
// Every fault is an InvalidArgument naming the option and the file.
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim {

enum class ArrayFormat { npy, csv, torch };
std::string to_string(ArrayFormat format);  // "npy", "csv", "torch.save"

// Which format the file at `path` holds, by its first bytes. A torch.save file in the legacy
// (pre-1.6) format is refused, saying how to save it anew.
ArrayFormat detect_array_format(const std::string& path, const std::string& argument);

// The refusal of a torch.save file by a build without libtorch.
[[noreturn]] void refuse_torch_file(const std::string& path, const std::string& argument);

// N x d row-major `values` as the core's d x N matrix (one column per point). Refuses an empty
// array and values that are not finite.
Matrix embeddings_from_rows(const std::vector<double>& values, Index n, Index d, const std::string& path,
                            const std::string& argument);

// N x d embeddings from a .npy or CSV file, as a d x N matrix; a torch.save file is refused
// (refuse_torch_file).
Matrix read_embedding_array(const std::string& path, const std::string& argument);

// N integer labels from a .npy or CSV file. For a CSV with several columns `column` names the one
// to read (a header name or a 0-based index).
std::vector<int> read_label_array(const std::string& path, const std::string& argument, const std::string& column = "");

}  // namespace geomsim
