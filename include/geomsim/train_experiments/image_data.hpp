#pragma once
// The labelled images the training commands read: Fashion-MNIST from a folder (Debian's
// dataset-fashion-mnist by default), any IDX image/label pair, or CIFAR-10/100's binary
// batches (--cifar DIR), with coarse labels from a built-in hierarchy or a hierarchy file.
// Built only with libtorch. The command-line options that fill DataOptions are the CLI's
// (cli/data_options.hpp).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <torch/torch.h>

#include "geomsim/support/file_identity.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"

namespace geomsim::train_experiments {

struct DataOptions {
  std::string data;          // Fashion-MNIST folder; empty: Debian's
  std::string images, labels;  // a user's IDX pair instead (one split; see load_split)
  std::string hierarchy;     // empty: the data's default (see data_hierarchy)
  std::string cifar;         // CIFAR-10 or CIFAR-100 binary folder instead
  // --colour-backgrounds RHO: grey images on coloured backgrounds (train::colour_backgrounds),
  // the colour the fine class's with chance RHO in the training split, and independent of the
  // class (RHO = 0) in the test split; none: the images as they are.
  std::optional<double> colour_backgrounds;
};

// The hierarchy named by --hierarchy, or the data's default when it is empty: fmnist-2 for
// Fashion-MNIST and IDX pairs, cifar10-2 for CIFAR-10, cifar100-20 for CIFAR-100.
std::string data_hierarchy(const DataOptions& options);

struct LabelledSplit {
  torch::Tensor images;  // N x C x H x W floats in [0, 1] (C = 3 for CIFAR and coloured backgrounds)
  torch::Tensor coarse, fine;
  torch::Tensor colours;  // N x 3 floats in [0, 1] with --colour-backgrounds (each image's), else undefined
};

// Throws InvalidArgument("colour-backgrounds") for a chance outside [0, 1] or with --cifar (its
// images are in colour already); nothing without colour_backgrounds. load_split checks it too.
void require_colour_backgrounds(const DataOptions& options);

// The hierarchy's kept examples of one split (all, or the imbalanced subset), then the first
// `limit` of a seeded shuffle (0: all). A user's IDX pair is one split: train_split = true
// takes its first half and false its second, so probes are never scored on their training data.
// `limit_argument` names the option that gave the limit (InvalidArgument when it is negative).
// With colour_backgrounds, the colours are drawn with the seed and the split.
LabelledSplit load_split(const DataOptions& options, bool train_split, int64_t limit, std::uint64_t seed,
                         const std::string& limit_argument);

// The files the data options read (--images and --labels, or the Fashion-MNIST files of
// --data), for require_distinct_files.
std::vector<NamedPath> data_files(const DataOptions& options);

// What a checkpoint records of the contents of the files `options` read, so that a resume on
// other files at the same paths is refused by the option that names them
// (train::require_same_inputs): an object from each option (data, images, labels, cifar, and
// hierarchy when it names a file) to its files' file_fingerprint (support/input_files.hpp), several
// files of one option as "NAME: FINGERPRINT; ...". Reads at most 1 MiB of each file.
nlohmann::json input_contents(const DataOptions& options);

// Where the data came from, for JSON output and checkpoint descriptions.
std::string data_source(const DataOptions& options);
// The last component of data_source (a folder or file name), for a figure's subtitle.
std::string data_name(const DataOptions& options);

}  // namespace geomsim::train_experiments
