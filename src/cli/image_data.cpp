#include "image_data.hpp"

#include <set>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/image_files.hpp"

namespace geomsim::cli {

void add_data_options(CLI::App& c, DataOptions& o, bool hierarchy_default) {
  c.add_option("--data", o.data, "folder with Fashion-MNIST's IDX files (default: Debian's dataset-fashion-mnist)");
  c.add_option("--images", o.images, "an IDX image file (N x H x W bytes) to use instead of Fashion-MNIST; needs --labels");
  c.add_option("--labels", o.labels, "the IDX label file (labels 0..9) of --images");
  auto* h = c.add_option("--hierarchy", o.hierarchy, "coarse labels: fmnist-2, fmnist-4 or fmnist-4-imbalanced");
  if (hierarchy_default) h->capture_default_str();
}

std::string data_source(const DataOptions& o) {
  if (!o.images.empty()) return o.images;
  return o.data.empty() ? train::kFashionMnistDir : o.data;
}

std::vector<NamedPath> data_files(const DataOptions& o) {
  if (!o.images.empty() || !o.labels.empty()) return {{"images", o.images}, {"labels", o.labels}};
  std::vector<NamedPath> files;
  for (const auto& path : train::fashion_mnist_files(data_source(o))) files.push_back({"data", path});
  return files;
}

LabelledSplit load_split(const DataOptions& o, bool train_split, int64_t limit, std::uint64_t seed,
                         const std::string& limit_argument) {
  require_at_least(limit_argument.c_str(), limit, 0);
  if (o.images.empty() != o.labels.empty()) throw InvalidArgument(o.images.empty() ? "images" : "labels", "needs --images and --labels together");
  const train::LabelHierarchy h = train::fashion_mnist_hierarchy(o.hierarchy);
  train::LabelledImages data;
  std::size_t begin = 0, end = 0;
  if (o.images.empty()) {
    data = train::load_fashion_mnist(data_source(o), train_split);
    end = data.labels.size();
  } else {
    data = train::read_idx_pair(o.images, o.labels, "images");
    if (data.images.shape.size() != 3) throw InvalidArgument("images", o.images + " must hold N x H x W images");
    const std::size_t half = data.labels.size() / 2;
    begin = train_split ? 0 : half;
    end = train_split ? half : data.labels.size();
  }
  for (int label : data.labels) {
    if (label < 0 || label >= h.num_fine()) {
      throw InvalidArgument("labels", "must be in 0.." + std::to_string(h.num_fine() - 1) + " for --hierarchy " + o.hierarchy +
                                          ", got " + std::to_string(label));
    }
  }
  const std::vector<int> part(data.labels.begin() + static_cast<std::ptrdiff_t>(begin), data.labels.begin() + static_cast<std::ptrdiff_t>(end));
  std::vector<std::size_t> idx = train::kept_indices(h, part, seed);
  for (auto& i : idx) i += begin;
  Rng rng(seed + 1);
  rng.shuffle(idx);
  // The evaluation numbers the subclasses (fine labels) 0..max and measures each one, so a limit
  // that leaves one of them without an image fails there, after the training. Say so here.
  const auto subclasses = [&] {
    std::set<int> present;
    for (std::size_t i : idx) present.insert(data.labels[i]);
    return present;
  };
  const std::set<int> available = subclasses();
  if (limit > 0 && static_cast<std::size_t>(limit) < idx.size()) idx.resize(static_cast<std::size_t>(limit));
  if (idx.empty()) throw InvalidArgument(o.images.empty() ? "data" : "images", "holds no examples to use");
  const std::set<int> kept = subclasses();
  std::string missing;
  for (int label : available) {
    if (label < *kept.rbegin() && !kept.count(label)) missing += (missing.empty() ? "" : ", ") + std::to_string(label);
  }
  if (!missing.empty()) {
    throw InvalidArgument(limit_argument, "keeps " + std::to_string(idx.size()) + " images, which leave no image of subclass " +
                                              missing + " (the evaluation measures every subclass); give more, or 0 for all");
  }
  const auto item = static_cast<int64_t>(data.images.item_size());
  const auto all = torch::from_blob(data.images.data.data(), {static_cast<int64_t>(data.images.count()), item}, torch::kUInt8);
  std::vector<int64_t> rows(idx.begin(), idx.end()), fine, coarse;
  for (std::size_t i : idx) {
    fine.push_back(data.labels[i]);
    coarse.push_back(h.coarse_of_fine[static_cast<std::size_t>(data.labels[i])]);
  }
  LabelledSplit s;
  const auto height = static_cast<int64_t>(data.images.shape[1]), width = static_cast<int64_t>(data.images.shape[2]);
  s.images = all.index_select(0, torch::tensor(rows)).to(torch::kFloat).div(255.0).view({-1, 1, height, width});
  s.fine = torch::tensor(fine);
  s.coarse = torch::tensor(coarse);
  return s;
}

}  // namespace geomsim::cli
