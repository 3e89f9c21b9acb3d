#include "data_options.hpp"

#include <string>

#include "geomsim/train/data/label_hierarchy.hpp"

namespace geomsim::cli {

void add_data_options(CLI::App& c, DataOptions& o) {
  c.add_option("--data", o.data, "folder with Fashion-MNIST's IDX files (default: Debian's dataset-fashion-mnist)");
  c.add_option("--images", o.images, "an IDX image file (N x H x W bytes) to use instead of Fashion-MNIST; needs --labels");
  c.add_option("--labels", o.labels, "the IDX label file of --images (fine labels 0..F-1 of --hierarchy)");
  c.add_option("--cifar", o.cifar, "a folder with CIFAR-10's or CIFAR-100's binary version, instead of Fashion-MNIST");
  c.add_option("--colour-backgrounds", o.colour_backgrounds,
               "RHO in [0, 1]: grey images on coloured backgrounds (seed 002's ColorMNIST, §4.2), the colour the image's fine "
               "class's with chance RHO in the training split and uniform in the test split; the colour attribute "
               "(--condition-on attributes:colour) reads it back, and the run reports colour_mse");
  std::string names;
  for (const auto& n : train::builtin_hierarchy_names()) names += (names.empty() ? "" : ", ") + n;
  c.add_option("--hierarchy", o.hierarchy,
               "coarse labels: " + names + ", or a file mapping fine to coarse labels (JSON {\"0\": 0, ...} or CSV fine,coarse); "
               "default: fmnist-2, cifar10-2 or cifar100-20 by the data (eval, measure: the checkpoint's)");
}

}  // namespace geomsim::cli
