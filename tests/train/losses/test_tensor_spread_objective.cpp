// The simulator's objective on tensors (train/losses/tensor_spread_objective.hpp) against the
// core's SpreadLoss, an independent implementation (stored Gram matrix or its own streamed
// tiles, Eigen), on the CPU in float64. The claim: the loss and the gradient agree to 1e-12,
// relative to the loss and to the gradient's largest entry, for N up to 4096. The two differ
// only in rounding: the tensor path forms its exponents from a product of augmented points and
// sums in another order; both are within a few hundred ulps of the exact values here (tau >= 0.1,
// points on the unit sphere), so 1e-12 leaves a margin of about 30 without being loose.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "geomsim/objectives/gradient_check.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/losses/tensor_spread_objective.hpp"

using geomsim::Index;
using geomsim::Matrix;
using geomsim::PairEvaluation;
using geomsim::SpreadLoss;
using geomsim::train::TensorSpreadObjective;
using geomsim::train::TensorSpreadTiles;

namespace {

// Labels 0..K-1 with the given sizes, shuffled (so that class order is not the input order).
std::vector<int> shuffled_labels(const std::vector<int>& sizes, std::uint64_t seed) {
  std::vector<int> labels;
  for (std::size_t y = 0; y < sizes.size(); ++y) labels.insert(labels.end(), static_cast<std::size_t>(sizes[y]), static_cast<int>(y));
  geomsim::Rng rng(seed);
  rng.shuffle(labels);
  return labels;
}

double max_abs(const Matrix& m) { return m.cwiseAbs().maxCoeff(); }

void require_agreement(const std::vector<int>& labels, int d, double alpha, double tau, TensorSpreadTiles tiles,
                       PairEvaluation core_path, std::uint64_t seed) {
  const Index N = static_cast<Index>(labels.size());
  const Matrix U = geomsim::random_uniform_sphere(d, N, seed);
  const SpreadLoss core(labels, alpha, tau, core_path);
  const TensorSpreadObjective tensors(labels, alpha, tau, torch::Device(torch::kCPU), tiles);
  Matrix g_core(d, N), g_tensor(d, N);
  const double f_core = core.evaluate_with_gradient(U, g_core);
  const double f_tensor = tensors.evaluate_with_gradient(U, g_tensor);
  INFO("N = " << N << ", d = " << d << ", alpha = " << alpha << ", tau = " << tau << ", tiles " << tiles.rows << " x "
              << tiles.columns << ", core " << (core_path == PairEvaluation::kStored ? "stored" : "streamed"));
  CHECK(std::abs(f_tensor - f_core) <= 1e-12 * std::max(1.0, std::abs(f_core)));
  CHECK(tensors.evaluate(U) == f_tensor);  // the loss alone is the same computation
  const auto parts_core = core.components(U), parts_tensor = tensors.components(U);
  CHECK(std::abs(parts_tensor.different_class - parts_core.different_class) <= 1e-12 * std::max(1.0, std::abs(f_core)));
  CHECK(std::abs(parts_tensor.same_class - parts_core.same_class) <= 1e-12 * std::max(1.0, std::abs(f_core)));
  CHECK(std::abs(parts_tensor.alignment - parts_core.alignment) <= 1e-12 * std::max(1.0, std::abs(f_core)));
  CHECK(max_abs(g_tensor - g_core) <= 1e-12 * max_abs(g_core));
}

}  // namespace

TEST_CASE("The tensor objective equals the core's spread loss and gradient to 1e-12 on balanced classes") {
  const TensorSpreadTiles by_default{};
  for (const double alpha : {0.0, 0.5, 0.85, 1.0}) {
    require_agreement(shuffled_labels({8, 8, 8}, 1), 3, alpha, 0.5, by_default, PairEvaluation::kStored, 2);
  }
  require_agreement(shuffled_labels(std::vector<int>(10, 30), 3), 16, 0.64, 0.1, by_default, PairEvaluation::kStored, 4);
}

TEST_CASE("The tensor objective agrees when tiles cut classes and do not divide N") {
  // Row blocks of 37 and column tiles of 53 over classes of 40, 9, 61 and 1 points: positives
  // split across tiles, a class inside one tile, a class of a single point.
  const std::vector<int> labels = shuffled_labels({40, 9, 61, 1}, 5);
  require_agreement(labels, 5, 0.7, 0.25, TensorSpreadTiles{37, 53}, PairEvaluation::kStored, 6);
  require_agreement(labels, 5, 0.7, 0.25, TensorSpreadTiles{1, 111}, PairEvaluation::kStored, 7);
  require_agreement(labels, 5, 0.3, 0.25, TensorSpreadTiles{111, 1}, PairEvaluation::kStreamed, 8);
}

TEST_CASE("The tensor objective equals the core's streamed path to 1e-12 up to N = 4096") {
  require_agreement(shuffled_labels(std::vector<int>(8, 256), 9), 32, 0.64, 0.5, TensorSpreadTiles{},
                    PairEvaluation::kStreamed, 10);
  require_agreement(shuffled_labels(std::vector<int>(10, 410), 11), 16, 0.9, 0.2, TensorSpreadTiles{700, 1500},
                    PairEvaluation::kStreamed, 12);
}

TEST_CASE("The tensor objective's gradient matches finite differences") {
  const std::vector<int> labels = shuffled_labels({6, 7, 5}, 13);
  const TensorSpreadObjective objective(labels, 0.6, 0.3, torch::Device(torch::kCPU), TensorSpreadTiles{5, 7});
  const auto report = geomsim::check_gradient(objective, geomsim::random_uniform_sphere(4, 18, 14), 15);
  INFO(report.table());
  CHECK(report.relative_error < 1e-8);
}

TEST_CASE("The tensor objective evaluates points on its device, off the sphere too, without the N x N matrix") {
  const std::vector<int> labels = shuffled_labels({12, 20}, 16);
  const TensorSpreadObjective objective(labels, 0.5, 0.5, torch::Device(torch::kCPU), TensorSpreadTiles{8, 8});
  Matrix U = geomsim::random_uniform_sphere(3, 32, 17) * 1.3;  // infeasible iterates are evaluated too
  const SpreadLoss core(labels, 0.5, 0.5);
  const torch::Tensor points = torch::from_blob(U.data(), {32, 3}, torch::kFloat64).clone();
  torch::Tensor gradient;
  const double f = objective.evaluate_points(points, &gradient).total();
  Matrix g_core(3, 32);
  const double f_core = core.evaluate_with_gradient(U, g_core);
  CHECK(std::abs(f - f_core) <= 1e-12 * std::abs(f_core));
  const torch::Tensor g_tensor = gradient.contiguous();
  const Matrix g = Eigen::Map<const Matrix>(g_tensor.data_ptr<double>(), 3, 32);
  CHECK(max_abs(g - g_core) <= 1e-12 * max_abs(g_core));
}

TEST_CASE("The tensor objective refuses bad arguments by name") {
  const torch::Device cpu(torch::kCPU);
  const auto argument_of = [](auto&& make) {
    try {
      make();
    } catch (const geomsim::InvalidArgument& e) {
      return e.argument();
    }
    return std::string("(nothing thrown)");
  };
  CHECK(argument_of([&] { TensorSpreadObjective({0, 1}, 1.5, 0.5, cpu); }) == "alpha");
  CHECK(argument_of([&] { TensorSpreadObjective({0, 1}, 0.5, 0.0, cpu); }) == "tau");
  CHECK(argument_of([&] { TensorSpreadObjective({0, 0}, 0.5, 0.5, cpu); }) == "K");
  CHECK(argument_of([&] { TensorSpreadObjective({0, 2}, 0.5, 0.5, cpu); }) == "labels");
  CHECK(argument_of([&] { TensorSpreadObjective({0, 1}, 0.5, 0.5, cpu, TensorSpreadTiles{-1, 4}); }) == "tile-rows");
  // The fused CUDA kernels: off CUDA, or in a build without them.
  CHECK(argument_of([&] { TensorSpreadObjective({0, 1}, 0.5, 0.5, cpu, {}, /*cuda_kernels=*/true); }) == "cuda_kernels");
  const TensorSpreadObjective objective({0, 1, 1}, 0.5, 0.5, cpu);
  CHECK(argument_of([&] { objective.evaluate(Matrix::Ones(2, 4)); }) == "points");
  CHECK(argument_of([&] { objective.evaluate_points(torch::ones({3, 2}, torch::kFloat32), nullptr); }) == "points");
  CHECK(argument_of([&] { objective.evaluate_points(torch::ones({4, 2}, torch::kFloat64), nullptr); }) == "points");
  CHECK(argument_of([&] { objective.evaluate_points(torch::ones({3, 2}, torch::kFloat64).to(torch::kMeta), nullptr); }) ==
        "points");
}
