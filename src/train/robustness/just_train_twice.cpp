#include "geomsim/train/robustness/just_train_twice.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

std::vector<int64_t> error_set(Classifier& model, const torch::Tensor& images, const torch::Tensor& labels,
                               const DistributedContext& job) {
  if (images.size(0) != labels.size(0)) throw InvalidArgument("labels", "need one label per image");
  const auto wrong = predict(model, images, job).ne(labels.to(torch::kCPU).to(torch::kLong)).nonzero().flatten().contiguous();
  return std::vector<int64_t>(wrong.data_ptr<int64_t>(), wrong.data_ptr<int64_t>() + wrong.numel());
}

std::vector<int64_t> upsampling_repeats(int64_t n, const std::vector<int64_t>& errors, int64_t upweight) {
  require_at_least("jtt-upweight", upweight, 1);
  require_at_least("examples", n, 0);
  std::vector<int64_t> repeats(static_cast<std::size_t>(n), 1);
  for (int64_t i : errors) {
    if (i < 0 || i >= n) throw InvalidArgument("errors", "must be indices in 0.." + std::to_string(n - 1) + ", got " + std::to_string(i));
    repeats[static_cast<std::size_t>(i)] = upweight;
  }
  return repeats;
}

}  // namespace geomsim::train
