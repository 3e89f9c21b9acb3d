#pragma once
// Readers for labelled image files: IDX (MNIST, Fashion-MNIST; gzipped or not) and the
// CIFAR-10/100 binary format. No libtorch: the arrays are plain bytes, turned into tensors by
// the training code.
//
// Every header field and size is checked. A wrong magic number, an unsupported element type,
// a truncated file or trailing bytes raise InvalidArgument naming the argument and the file.
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::train {

// An IDX array of unsigned bytes (element type 0x08): shape as in the header, data row-major.
struct ByteArray {
  std::vector<std::uint32_t> shape;
  std::vector<std::uint8_t> data;
  std::size_t count() const { return shape.empty() ? 0 : shape.front(); }  // items along the first axis
  std::size_t item_size() const;  // product of the other dimensions
};

// Reads an IDX file (gzip detected by its magic bytes). `argument` names the option that gave
// the path, for messages.
ByteArray read_idx(const std::string& path, const std::string& argument);

// Images (N x rows x cols, or N x anything) with one label per image.
struct LabelledImages {
  ByteArray images;
  std::vector<int> labels;
  std::vector<int> other_labels;  // CIFAR-100: the label byte not picked by label_index; else empty
};

// An IDX image file and its IDX label file; their counts must agree. A fault of the label file
// alone names `labels_argument` (`argument` when empty), so that --labels is named for it.
LabelledImages read_idx_pair(const std::string& images_path, const std::string& labels_path,
                             const std::string& argument, const std::string& labels_argument = "");

// Fashion-MNIST from a folder holding {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz]
// (Debian's dataset-fashion-mnist installs them in kFashionMnistDir).
inline constexpr const char* kFashionMnistDir = "/usr/share/datasets/fashion-mnist";
LabelledImages load_fashion_mnist(const std::string& dir, bool train_split);
// The files load_fashion_mnist reads from `dir` (both splits; those that exist), e.g. for
// checking that no output overwrites one.
std::vector<std::string> fashion_mnist_files(const std::string& dir);

// CIFAR binary batches: records of `label_bytes` label bytes (1 for CIFAR-10; 2 for CIFAR-100,
// coarse then fine) and 3072 image bytes (3 x 32 x 32, channel-major). `label_index` picks which
// label byte is returned. Several files may be given; they are concatenated.
LabelledImages read_cifar_binary(const std::vector<std::string>& paths, int label_bytes, int label_index,
                                 const std::string& argument);

// CIFAR-10 or CIFAR-100 from the folder of the binary version (cifar-10-batches-bin:
// data_batch_1..5.bin and test_batch.bin; cifar-100-binary: train.bin and test.bin), or from
// its parent. The labels are the fine ones (CIFAR-100's second label byte). Throws
// InvalidArgument("cifar") naming the files it looked for, and saying where to get them.
struct CifarData {
  std::string kind;  // "cifar-10" or "cifar-100"
  LabelledImages data;
};
CifarData load_cifar(const std::string& dir, bool train_split);

// The batch files load_cifar reads from `dir` (the same search, the same refusal), so that a
// command can check them against its outputs before reading anything.
struct CifarFiles {
  std::string kind;  // "cifar-10" or "cifar-100"
  std::vector<std::string> train, test;
};
CifarFiles find_cifar_files(const std::string& dir);

}  // namespace geomsim::train
