#pragma once
// Coarse labels from fine ones: the built-in hierarchies of the training experiments, the
// imbalanced-subclass variant (like seed 004's CIFAR100-U), and a user's own mapping from a
// JSON or CSV file.
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::train {

struct LabelHierarchy {
  std::string name;     // the built-in name, or the file it was read from
  std::string dataset;  // "fashion-mnist", "cifar-10", "cifar-100", or "" (any data with these fine labels)
  std::vector<std::string> fine_names, coarse_names;
  std::vector<int> coarse_of_fine;  // indexed by fine label
  // Fraction of each fine class kept by the imbalanced variant (all 1 for a balanced one).
  std::vector<double> keep_fraction;
  int num_coarse() const { return static_cast<int>(coarse_names.size()); }
  int num_fine() const { return static_cast<int>(fine_names.size()); }
  // The fine labels of each coarse class, in increasing order.
  std::vector<std::vector<int>> fine_of_coarse() const;
};

// The built-in hierarchies by name:
//   fmnist-2             Fashion-MNIST: clothing {T-shirt/top, Trouser, Pullover, Dress, Coat, Shirt}
//                        vs {Sandal, Sneaker, Bag, Ankle boot} (the 2-class split, like CIFAR10-coarse)
//   fmnist-4             tops {T-shirt/top, Pullover, Coat, Shirt}, bottoms and dresses {Trouser,
//                        Dress}, footwear {Sandal, Sneaker, Ankle boot}, bags {Bag}
//   fmnist-4-imbalanced  fmnist-4 keeping all of the first fine class of each coarse class and
//                        20% of the others (the subclass proportions p(z|y) become unequal)
//   fmnist-pairs         five classes of two subclasses each, seed 004 section 2.1's data model (the
//                        only one where Theorem 3's delta_f applies): {T-shirt/top, Shirt},
//                        {Trouser, Dress}, {Pullover, Coat}, {Sandal, Sneaker}, {Bag, Ankle boot}.
//                        The pairing is the most alike: of the 945 ways to pair the ten classes, it
//                        has the closest class-mean images (summed pixel distance 20.29, next 22.55)
//                        and the most confusions of the pixel-space nearest-class-mean rule on the
//                        test set (967 of 10,000 images, next 948); tested in test_label_hierarchy.
//   identity             ten classes, each its own subclass (end-model accuracy; any 10-label data)
//   cifar10-2            CIFAR-10: vehicles {airplane, automobile, ship, truck} vs animals {bird,
//                        cat, deer, dog, frog, horse} (seed 004's CIFAR10-coarse)
//   cifar100-20          CIFAR-100's 20 superclasses of 5 classes each, as the data set defines them
// Throws InvalidArgument("hierarchy") for another name, listing the valid ones.
LabelHierarchy builtin_hierarchy(const std::string& name);
std::vector<std::string> builtin_hierarchy_names();

// A hierarchy from coarse_of_fine[fine] = coarse, validated: at least one fine label, coarse ids
// contiguous from 0 (each of 0..C-1 used). Throws InvalidArgument(argument) naming the fault.
LabelHierarchy hierarchy_from_mapping(const std::string& name, const std::vector<int>& coarse_of_fine,
                                      const std::string& argument);

// A user's hierarchy file, fine label -> coarse label:
//   JSON  an object {"0": 0, "1": 0, "2": 1, ...}, or {"fine_to_coarse": {...} or [c0, c1, ...],
//         "coarse_names": [...], "fine_names": [...]} (names optional);
//   CSV   one "fine,coarse" pair of integers per line, an optional header line "fine,coarse".
// Every fine label 0..F-1 must be mapped exactly once and the coarse ids must be 0..C-1, each
// used. Any fault (a duplicate, a gap, a negative or non-integer label, malformed JSON or CSV)
// throws InvalidArgument(argument) naming the file, the line or key, and the rule.
LabelHierarchy read_hierarchy_file(const std::string& path, const std::string& argument = "hierarchy");

// A built-in name, or else the path of a hierarchy file. Throws InvalidArgument(argument) when it
// is neither, listing the built-in names.
LabelHierarchy resolve_hierarchy(const std::string& name_or_path, const std::string& argument = "hierarchy");

// The coarse label of each fine label.
std::vector<int> coarse_labels(const LabelHierarchy& hierarchy, const std::vector<int>& fine_labels);

// The indices kept by the hierarchy's keep_fraction: for each fine class, the first
// round(fraction * count) of its examples in a seeded random order, returned in index order.
std::vector<std::size_t> kept_indices(const LabelHierarchy& hierarchy, const std::vector<int>& fine_labels,
                                      std::uint64_t seed);

}  // namespace geomsim::train
