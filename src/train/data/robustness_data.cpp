#include "geomsim/train/data/robustness_data.hpp"

#include <algorithm>
#include <cmath>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"

namespace geomsim::train {
namespace {

constexpr int kSubclasses = 10;

bool undersampled(const RobustnessDataOptions& o) { return o.dataset == "undersampled"; }

// The class of each Fashion-MNIST label.
std::vector<int> class_of_subclass(const RobustnessDataOptions& o) {
  if (undersampled(o)) return builtin_hierarchy("fmnist-2").coarse_of_fine;
  return {0, 0, 0, 0, 0, 1, 1, 1, 1, 1};
}

int64_t per_subclass(const RobustnessDataOptions& o, Split split) {
  return split == Split::train ? o.train_per_subclass : split == Split::validation ? o.validation_per_subclass : o.test_per_subclass;
}

int64_t subclass_count(const RobustnessDataOptions& o, Split split, int fine) {
  const int64_t n = per_subclass(o, split);
  if (undersampled(o) && split == Split::train && fine == kUndersampledSubclass) {
    return std::max<int64_t>(1, std::llround(o.rare_fraction * static_cast<double>(n)));
  }
  return n;
}

// spurious: how many images of class y get the background that disagrees with y (training),
// or background 1 (validation, test).
int64_t minority_count(const RobustnessDataOptions& o, Split split, int64_t class_size) {
  if (split == Split::train) return std::llround((1.0 - o.agreement) * static_cast<double>(class_size));
  return class_size / 2;
}

// Draws the frame of `background` over the border of an H x W image.
void draw_frame(float* image, int64_t height, int64_t width, int64_t frame, int64_t background) {
  for (int64_t r = 0; r < height; ++r) {
    for (int64_t c = 0; c < width; ++c) {
      if (r >= frame && r < height - frame && c >= frame && c < width - frame) continue;
      image[r * width + c] = background == 0 ? 1.0f : ((r + c) % 2 == 0 ? 1.0f : 0.0f);
    }
  }
}

std::vector<std::vector<std::size_t>> indices_by_subclass(const LabelledImages& source, const char* argument) {
  std::vector<std::vector<std::size_t>> by(kSubclasses);
  for (std::size_t i = 0; i < source.labels.size(); ++i) {
    const int label = source.labels[i];
    if (label < 0 || label >= kSubclasses) {
      throw InvalidArgument(argument, "must hold labels 0..9, got " + std::to_string(label));
    }
    by[static_cast<std::size_t>(label)].push_back(i);
  }
  return by;
}

GroupedSplit make_split(const RobustnessDataOptions& o, Split split, const LabelledImages& source,
                        const std::vector<std::vector<std::size_t>>& chosen, Rng& rng) {
  const auto height = static_cast<int64_t>(source.images.shape[1]);
  const auto width = static_cast<int64_t>(source.images.shape[2]);
  const std::vector<int> class_of = class_of_subclass(o);
  std::vector<std::size_t> rows;
  std::vector<int64_t> fine, labels;
  for (int f = 0; f < kSubclasses; ++f) {
    for (std::size_t i : chosen[static_cast<std::size_t>(f)]) {
      rows.push_back(i);
      fine.push_back(f);
      labels.push_back(class_of[static_cast<std::size_t>(f)]);
    }
  }
  const auto n = static_cast<int64_t>(rows.size());
  GroupedSplit s;
  s.images = torch::empty({n, 1, height, width}, torch::kFloat);
  float* out = s.images.data_ptr<float>();
  const std::size_t item = source.images.item_size();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const std::uint8_t* in = source.images.data.data() + rows[r] * item;
    for (std::size_t p = 0; p < item; ++p) out[r * item + p] = static_cast<float>(in[p]) / 255.0f;
  }
  s.fine = torch::tensor(fine);
  s.labels = torch::tensor(labels);
  if (undersampled(o)) {
    s.groups = s.fine.clone();
    return s;
  }
  std::vector<int64_t> background(rows.size());
  for (int y = 0; y < 2; ++y) {
    std::vector<std::size_t> members;
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (labels[r] == y) members.push_back(r);
    }
    rng.shuffle(members);
    const int64_t minority = minority_count(o, split, static_cast<int64_t>(members.size()));
    const int64_t minority_background = split == Split::train ? 1 - y : 1;
    for (std::size_t m = 0; m < members.size(); ++m) {
      background[members[m]] = static_cast<int64_t>(m) < minority ? minority_background : 1 - minority_background;
    }
  }
  for (std::size_t r = 0; r < rows.size(); ++r) {
    draw_frame(out + r * item, height, width, o.frame_width, background[r]);
  }
  s.attribute = torch::tensor(background);
  s.groups = 2 * s.labels + s.attribute;
  return s;
}

}  // namespace

const std::vector<std::string>& robustness_dataset_names() {
  static const std::vector<std::string> names = {"undersampled", "spurious"};
  return names;
}

bool robustness_dataset_has_attribute(const std::string& dataset) { return dataset == "spurious"; }

void validate(const RobustnessDataOptions& o) {
  const auto& names = robustness_dataset_names();
  if (std::find(names.begin(), names.end(), o.dataset) == names.end()) {
    throw InvalidArgument("dataset", "must be undersampled or spurious; got '" + o.dataset + "'");
  }
  require_at_least("train-per-subclass", o.train_per_subclass, 1);
  require_at_least("validation-per-subclass", o.validation_per_subclass, 1);
  require_at_least("test-per-subclass", o.test_per_subclass, 1);
  require_in_closed_range("rare-fraction", o.rare_fraction, 0.0, 1.0);
  if (!(o.rare_fraction > 0.0)) throw InvalidArgument("rare-fraction", "must be in (0, 1], got " + format_number(o.rare_fraction));
  require_in_closed_range("agreement", o.agreement, 0.5, 1.0);
  require_at_least("frame-width", o.frame_width, 1);
  if (o.frame_width > 6) throw InvalidArgument("frame-width", "must be in [1, 6], got " + std::to_string(o.frame_width));
}

std::vector<int64_t> robustness_group_counts(const RobustnessDataOptions& o, Split split) {
  validate(o);
  if (undersampled(o)) {
    std::vector<int64_t> counts;
    for (int f = 0; f < kSubclasses; ++f) counts.push_back(subclass_count(o, split, f));
    return counts;
  }
  std::vector<int64_t> counts(4, 0);
  for (int y = 0; y < 2; ++y) {
    const int64_t class_size = 5 * per_subclass(o, split);
    const int64_t minority = minority_count(o, split, class_size);
    const int64_t minority_background = split == Split::train ? 1 - y : 1;
    counts[static_cast<std::size_t>(2 * y + minority_background)] = minority;
    counts[static_cast<std::size_t>(2 * y + 1 - minority_background)] = class_size - minority;
  }
  return counts;
}

GroupedData build_robustness_data(const LabelledImages& train_source, const LabelledImages& test_source,
                                  const RobustnessDataOptions& o) {
  validate(o);
  for (const LabelledImages* source : {&train_source, &test_source}) {
    const auto& shape = source->images.shape;
    if (shape.size() != 3 || shape[1] <= static_cast<std::uint32_t>(2 * o.frame_width) ||
        shape[2] <= static_cast<std::uint32_t>(2 * o.frame_width) || source->labels.size() != source->images.count()) {
      throw InvalidArgument("data", "must hold N x H x W images with one label each, H and W > twice the frame width");
    }
  }
  if (train_source.images.shape[1] != test_source.images.shape[1] || train_source.images.shape[2] != test_source.images.shape[2]) {
    throw InvalidArgument("data", "training and test images must have the same size");
  }
  const double pixels = static_cast<double>(train_source.images.item_size());
  const double examples = 10.0 * static_cast<double>(o.train_per_subclass + o.validation_per_subclass + o.test_per_subclass);
  require_memory("train-per-subclass", 4.0 * pixels * examples, "the robustness data set's images");

  const auto train_by = indices_by_subclass(train_source, "data");
  const auto test_by = indices_by_subclass(test_source, "data");
  Rng rng(o.seed);
  std::vector<std::vector<std::size_t>> train_rows(kSubclasses), validation_rows(kSubclasses), test_rows(kSubclasses);
  for (int f = 0; f < kSubclasses; ++f) {
    auto pool = train_by[static_cast<std::size_t>(f)];
    const int64_t n_train = subclass_count(o, Split::train, f), n_validation = subclass_count(o, Split::validation, f);
    if (static_cast<int64_t>(pool.size()) < n_train + n_validation) {
      throw InvalidArgument("train-per-subclass", "and --validation-per-subclass need " + std::to_string(n_train + n_validation) +
                                                      " training images of label " + std::to_string(f) + ", the data has " +
                                                      std::to_string(pool.size()));
    }
    rng.shuffle(pool);
    train_rows[static_cast<std::size_t>(f)].assign(pool.begin(), pool.begin() + n_train);
    validation_rows[static_cast<std::size_t>(f)].assign(pool.begin() + n_train, pool.begin() + n_train + n_validation);
    auto test_pool = test_by[static_cast<std::size_t>(f)];
    const int64_t n_test = subclass_count(o, Split::test, f);
    if (static_cast<int64_t>(test_pool.size()) < n_test) {
      throw InvalidArgument("test-per-subclass", "needs " + std::to_string(n_test) + " test images of label " + std::to_string(f) +
                                                     ", the data has " + std::to_string(test_pool.size()));
    }
    rng.shuffle(test_pool);
    test_rows[static_cast<std::size_t>(f)].assign(test_pool.begin(), test_pool.begin() + n_test);
  }

  GroupedData d;
  d.dataset = o.dataset;
  const LabelHierarchy h = builtin_hierarchy("fmnist-2");
  if (undersampled(o)) {
    d.class_names = h.coarse_names;
    d.group_names = h.fine_names;
    d.class_of_group = h.coarse_of_fine;
  } else {
    d.class_names = {"labels < 5", "labels >= 5"};
    d.group_names = {"labels < 5, bright frame", "labels < 5, checkered frame", "labels >= 5, bright frame",
                     "labels >= 5, checkered frame"};
    d.class_of_group = {0, 0, 1, 1};
    d.attribute_name = "background";
  }
  d.train = make_split(o, Split::train, train_source, train_rows, rng);
  d.validation = make_split(o, Split::validation, train_source, validation_rows, rng);
  d.test = make_split(o, Split::test, test_source, test_rows, rng);
  return d;
}

}  // namespace geomsim::train
