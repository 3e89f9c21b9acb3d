#include "geomsim/train/data/tensor_points.hpp"

namespace geomsim::train {

Matrix to_points(const torch::Tensor& embeddings) {
  // N x d row-major is d x N column-major: the core's layout.
  const auto e = embeddings.to(torch::kCPU).to(torch::kDouble).contiguous();
  return Eigen::Map<const Matrix>(e.data_ptr<double>(), e.size(1), e.size(0));
}

std::vector<int> to_ints(const torch::Tensor& values) {
  const auto c = values.to(torch::kCPU).to(torch::kLong).contiguous();
  return std::vector<int>(c.data_ptr<int64_t>(), c.data_ptr<int64_t>() + c.numel());
}

std::vector<double> to_doubles(const torch::Tensor& values) {
  const auto c = values.to(torch::kCPU, torch::kDouble).contiguous();
  return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace geomsim::train
