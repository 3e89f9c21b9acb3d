#include "geomsim/train_experiments/image_data.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <utility>
#include <set>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/data/coloured_backgrounds.hpp"
#include "geomsim/train/data/image_files.hpp"

namespace geomsim::train_experiments {
namespace {

// Fashion-MNIST splits decoded once per process: an experiment trains many runs on the same
// files, and decompressing the 60,000 training images takes about a second each time.
const train::LabelledImages& fashion_mnist_split(const std::string& folder, bool train_split) {
  static std::map<std::pair<std::string, bool>, train::LabelledImages> decoded;
  const auto key = std::make_pair(folder, train_split);
  auto found = decoded.find(key);
  if (found == decoded.end()) found = decoded.emplace(key, train::load_fashion_mnist(folder, train_split)).first;
  return found->second;
}

}  // namespace

namespace {
bool cifar100(const std::string& dir) {
  namespace fs = std::filesystem;
  return fs::is_regular_file(fs::path(dir) / "train.bin") || fs::is_directory(fs::path(dir) / "cifar-100-binary");
}
}  // namespace

std::string data_hierarchy(const DataOptions& o) {
  if (!o.hierarchy.empty()) return o.hierarchy;
  if (!o.cifar.empty()) return cifar100(o.cifar) ? "cifar100-20" : "cifar10-2";
  return "fmnist-2";
}

std::string data_source(const DataOptions& o) {
  if (!o.cifar.empty()) return o.cifar;
  if (!o.images.empty()) return o.images;
  return o.data.empty() ? train::kFashionMnistDir : o.data;
}

std::string data_name(const DataOptions& o) {
  std::filesystem::path path(data_source(o));
  if (path.filename().empty()) path = path.parent_path();  // a folder given as "dir/"
  return path.filename().empty() ? data_source(o) : path.filename().string();
}

std::vector<NamedPath> data_files(const DataOptions& o) {
  if (!o.images.empty() || !o.labels.empty()) return {{"images", o.images}, {"labels", o.labels}};
  std::vector<NamedPath> files;
  if (!o.cifar.empty()) {
    const train::CifarFiles cifar = train::find_cifar_files(o.cifar);
    for (const auto* split : {&cifar.train, &cifar.test}) {
      for (const auto& path : *split) files.push_back({"cifar", path});
    }
    return files;
  }
  for (const auto& path : train::fashion_mnist_files(data_source(o))) files.push_back({"data", path});
  return files;
}

nlohmann::json input_contents(const DataOptions& o) {
  std::vector<NamedPath> files = data_files(o);
  const std::string hierarchy = data_hierarchy(o);
  const auto builtin = train::builtin_hierarchy_names();
  if (std::find(builtin.begin(), builtin.end(), hierarchy) == builtin.end()) files.push_back({"hierarchy", hierarchy});
  nlohmann::json contents = nlohmann::json::object();
  for (const NamedPath& file : files) {
    if (file.path.empty()) continue;
    const std::string fingerprint = file_fingerprint(file.path, file.argument);
    const bool several = std::count_if(files.begin(), files.end(), [&](const NamedPath& f) { return f.argument == file.argument; }) > 1;
    const std::string entry = several ? std::filesystem::path(file.path).filename().string() + ": " + fingerprint : fingerprint;
    const std::string before = contents.value(file.argument, std::string());
    contents[file.argument] = before.empty() ? entry : before + "; " + entry;
  }
  return contents;
}

void require_colour_backgrounds(const DataOptions& o) {
  if (!o.colour_backgrounds) return;
  if (!(*o.colour_backgrounds >= 0.0 && *o.colour_backgrounds <= 1.0)) {
    throw InvalidArgument("colour-backgrounds", "must be in [0, 1] (the chance that a training image takes its class's colour)");
  }
  if (!o.cifar.empty()) throw InvalidArgument("colour-backgrounds", "needs grey images; CIFAR's are in colour already");
}

LabelledSplit load_split(const DataOptions& o, bool train_split, int64_t limit, std::uint64_t seed,
                         const std::string& limit_argument) {
  require_at_least(limit_argument.c_str(), limit, 0);
  require_colour_backgrounds(o);
  const bool coloured = o.colour_backgrounds.has_value();
  if (o.images.empty() != o.labels.empty()) throw InvalidArgument(o.images.empty() ? "images" : "labels", "needs --images and --labels together");
  if (!o.cifar.empty() && (!o.images.empty() || !o.data.empty())) throw InvalidArgument("cifar", "cannot be combined with --images or --data");
  const std::string hierarchy = data_hierarchy(o);
  const train::LabelHierarchy h = train::resolve_hierarchy(hierarchy);
  train::LabelledImages data;
  std::string kind = "fashion-mnist";
  std::size_t begin = 0, end = 0;
  if (!o.cifar.empty()) {
    train::CifarData cifar = train::load_cifar(o.cifar, train_split);
    kind = cifar.kind;
    data = std::move(cifar.data);
    end = data.labels.size();
  } else if (o.images.empty()) {
    data = fashion_mnist_split(data_source(o), train_split);  // a copy of the decoded split
    end = data.labels.size();
  } else {
    kind = "";
    data = train::read_idx_pair(o.images, o.labels, "images", "labels");
    if (data.images.shape.size() != 3) throw InvalidArgument("images", o.images + " must hold N x H x W images");
    const std::size_t half = data.labels.size() / 2;
    begin = train_split ? 0 : half;
    end = train_split ? half : data.labels.size();
  }
  if (!kind.empty() && !h.dataset.empty() && h.dataset != kind) {
    throw InvalidArgument("hierarchy", hierarchy + " is a hierarchy of " + h.dataset + ", not of " + (kind == "fashion-mnist" ? "Fashion-MNIST" : kind == "cifar-10" ? "CIFAR-10" : "CIFAR-100"));
  }
  for (int label : data.labels) {
    if (label < 0 || label >= h.num_fine()) {
      throw InvalidArgument(o.cifar.empty() ? "labels" : "cifar", "must be in 0.." + std::to_string(h.num_fine() - 1) + " for --hierarchy " + hierarchy +
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
  if (idx.empty()) throw InvalidArgument(!o.cifar.empty() ? "cifar" : o.images.empty() ? "data" : "images", "holds no examples to use");
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
  // N x H x W (IDX) or N x C x H x W (CIFAR, channel-major records).
  const auto& shape = data.images.shape;
  const int64_t channels = shape.size() == 4 ? shape[1] : 1;
  const auto height = static_cast<int64_t>(shape[shape.size() - 2]), width = static_cast<int64_t>(shape[shape.size() - 1]);
  s.images = all.index_select(0, torch::tensor(rows)).to(torch::kFloat).div(255.0).view({-1, channels, height, width});
  s.fine = torch::tensor(fine);
  s.coarse = torch::tensor(coarse);
  if (coloured) {
    if (s.images.size(1) != 1) throw InvalidArgument("colour-backgrounds", "needs grey images (one channel)");
    // The test split's colours are independent of the class: an encoder that reads the colour
    // for the class pays for it there.
    train::ColouredImages c = train::colour_backgrounds(s.images, s.fine, h.num_fine(), train_split ? *o.colour_backgrounds : 0.0,
                                                        seed * 2654435761ULL + (train_split ? 1 : 2));
    s.images = c.images;
    s.colours = c.colours;
  }
  return s;
}

}  // namespace geomsim::train_experiments
