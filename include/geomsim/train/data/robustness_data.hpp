#pragma once
// The two robustness data sets of the worst-group experiments (seed 004 §5, Table 4), built
// from Fashion-MNIST, deterministically from a seed. Each has a training, a validation and a
// test split; every example has a class label and a true group.
//
// undersampled   The analogue of an undersampled subclass (a rare group). Classes: geomsim's
//                fmnist-2 hierarchy (label_hierarchy.hpp), clothing {T-shirt/top, Trouser, Pullover, Dress, Coat,
//                Shirt} vs shoes and bags {Sandal, Sneaker, Bag, Ankle boot}. Groups: the ten
//                subclasses (the Fashion-MNIST labels). Training holds `train_per_subclass`
//                images of every subclass but Bag, and round(rare_fraction x
//                train_per_subclass) Bags (5% by default); validation and test hold
//                `validation_per_subclass` and `test_per_subclass` of every subclass (not
//                undersampled).
// spurious       The analogue of Waterbirds (a spurious background). Classes: the Fashion-MNIST
//                labels < 5 {T-shirt/top, Trouser, Pullover, Dress, Coat} vs >= 5 {Sandal,
//                Shirt, Sneaker, Bag, Ankle boot} (the rule of seed 004's MNIST-Coarse). Every
//                image gets a background: a frame of `frame_width` pixels drawn over its border,
//                bright (every pixel 1) for background 0 or checkered (1 where row + column is
//                even, 0 elsewhere) for background 1. Groups: (class, background), numbered
//                2 class + background. Each split holds `..._per_subclass` images of each of the
//                ten subclasses, so n_y = 5 x that per class. In training the background agrees
//                with the class (background = class) for exactly n_y - m_y images of class y,
//                m_y = round((1 - agreement) n_y) (95% agree by default); in validation and test
//                exactly floor(n_y / 2) images of each class get background 1 and the rest
//                background 0, so the background is independent of the class.
//
// Images are drawn per subclass from a seeded shuffle of Fashion-MNIST's training split (the
// first ones for training, the next ones for validation, disjoint) and of its test split (for
// test); which images get the minority background is a seeded shuffle within each class.
// The same options give the same images, labels and groups.
#include <cstdint>
#include <string>
#include <torch/torch.h>
#include <vector>

#include "geomsim/train/data/image_files.hpp"

namespace geomsim::train {

struct RobustnessDataOptions {
  std::string dataset = "spurious";  // "undersampled" or "spurious"
  int64_t train_per_subclass = 400;
  int64_t validation_per_subclass = 100;
  int64_t test_per_subclass = 400;
  double rare_fraction = 0.05;  // undersampled: the rare subclass's share in training, in (0, 1]
  double agreement = 0.95;      // spurious: training images whose background agrees with the class, in [0.5, 1]
  int64_t frame_width = 3;      // spurious: pixels, 1..6
  uint64_t seed = 0;
};

const std::vector<std::string>& robustness_dataset_names();  // undersampled, spurious
// Whether the data set has an attribute besides the classes (GroupedData::attribute_name): the
// spurious one's background.
bool robustness_dataset_has_attribute(const std::string& dataset);
// Throws InvalidArgument naming the option (data-seed and the sizes as the CLI spells them).
void validate(const RobustnessDataOptions& options);

// The subclass kept rare by "undersampled" (Bag).
inline constexpr int kUndersampledSubclass = 8;

struct GroupedSplit {
  torch::Tensor images;     // N x 1 x H x W floats in [0, 1]
  torch::Tensor labels;     // N class labels (int64)
  torch::Tensor groups;     // N true groups (int64)
  torch::Tensor fine;       // N Fashion-MNIST labels (int64)
  torch::Tensor attribute;  // N backgrounds (int64) for "spurious"; undefined for "undersampled"
};

struct GroupedData {
  std::string dataset;
  std::vector<std::string> class_names, group_names;
  std::vector<int> class_of_group;
  std::string attribute_name;  // "background", or empty when the data set has none
  GroupedSplit train, validation, test;
  int64_t num_classes() const { return static_cast<int64_t>(class_names.size()); }
  int64_t num_groups() const { return static_cast<int64_t>(group_names.size()); }
  bool has_attribute() const { return !attribute_name.empty(); }
};

enum class Split { train, validation, test };

// The documented number of examples of every group in a split (what the builder produces).
std::vector<int64_t> robustness_group_counts(const RobustnessDataOptions& options, Split split);

// From Fashion-MNIST's training and test splits (load_fashion_mnist), or any two labelled image
// sets with labels 0..9 and enough images of each. Throws InvalidArgument naming the size
// option when a subclass has too few images.
GroupedData build_robustness_data(const LabelledImages& train_source, const LabelledImages& test_source,
                                  const RobustnessDataOptions& options);

}  // namespace geomsim::train
