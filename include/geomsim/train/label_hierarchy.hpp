#pragma once
// Coarse labels from fine ones: the named hierarchies of the training experiments, and the
// imbalanced-subclass variant (like seed 004's CIFAR100-U).
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::train {

struct LabelHierarchy {
  std::string name;
  std::vector<std::string> fine_names, coarse_names;
  std::vector<int> coarse_of_fine;  // indexed by fine label
  // Fraction of each fine class kept by the imbalanced variant (all 1 for a balanced one).
  std::vector<double> keep_fraction;
  int num_coarse() const { return static_cast<int>(coarse_names.size()); }
  int num_fine() const { return static_cast<int>(fine_names.size()); }
};

// Fashion-MNIST hierarchies by name:
//   fmnist-2             clothing {T-shirt/top, Trouser, Pullover, Dress, Coat, Shirt} vs
//                        {Sandal, Sneaker, Bag, Ankle boot} (the 2-class split, like CIFAR10-coarse)
//   fmnist-4             tops {T-shirt/top, Pullover, Coat, Shirt}, bottoms and dresses {Trouser,
//                        Dress}, footwear {Sandal, Sneaker, Ankle boot}, bags {Bag}
//   fmnist-4-imbalanced  fmnist-4 keeping all of the first fine class of each coarse class and
//                        20% of the others (the subclass proportions p(z|y) become unequal)
// Throws InvalidArgument("hierarchy") for another name, listing the valid ones.
LabelHierarchy fashion_mnist_hierarchy(const std::string& name);
std::vector<std::string> fashion_mnist_hierarchy_names();

// The coarse label of each fine label.
std::vector<int> coarse_labels(const LabelHierarchy& hierarchy, const std::vector<int>& fine_labels);

// The indices kept by the hierarchy's keep_fraction: for each fine class, the first
// round(fraction * count) of its examples in a seeded random order, returned in index order.
std::vector<std::size_t> kept_indices(const LabelHierarchy& hierarchy, const std::vector<int>& fine_labels,
                                      std::uint64_t seed);

}  // namespace geomsim::train
