#pragma once
// Lipschitz constants of a trained model on pairs of real data (seed 004: Table 1, Figure 3,
// Appendix G.5), with two bounds the paper does not give.
//
// The paper's estimates plot an output distance against an input distance for pairs of
// images; the constant is the slope of the tangent from the origin, i.e. the largest ratio:
//   K_L    |f(x) - f(x')| / |x - x'|                                the encoder
//   K_g    |f_AE(x) - f_AE(x')| / |g_y(f_AE(x)) - g_y(f_AE(x'))|    the decoder, reversed (x, x' in class y)
//   K_aug  |f(a(x)) - f(a(x'))| / |a(x) - a(x')|                    over random augmentations a, the same a
//          for both images of a pair. Appendix G.5 keeps each pair's smallest ratio over the
//          augmentations, Figure 3's caption its largest; both are computed (min_variant, max_variant).
// Every ratio is a lower bound on the global constant of its map, so each estimate is one too.
//
// Beyond the paper:
//   jacobian_lower_bound  sigma_max of the Jacobian of f at data points, by power iteration on
//                         J^T J with autograd (double backward): a local, hence lower, bound;
//   layer_product_bound   the product over a chain's layers of bounds on their operator norms and
//                         of the nonlinear layers' constants (ReLU 1, max pooling sqrt(windows per
//                         input)): an upper bound. A Linear layer's norm is its largest singular
//                         value (SVD). A Conv2d's is bounded by the circular convolution it is a
//                         restriction of: on an M1 x M2 grid with M = H + (k - 1) dilation there is no
//                         wrap-around, and the circular operator's norm is the largest singular value
//                         of the C_out x C_in transfer matrix over the 2-D DFT frequencies (Sedghi et
//                         al., 2019); striding only drops outputs. Other affine layers (BatchNorm,
//                         AvgPool, grouped convolutions) fall back to power iteration, an estimate
//                         from below, which the layer's method says.
// So every ratio estimate and the Jacobian bound are <= the true constant <= the product bound
// (the ratios and the Jacobian bound are not ordered between themselves).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/train/data/augmentations.hpp"
#include "geomsim/train/analysis/embedding_model.hpp"

namespace geomsim::train {

// `count` random pairs (i, j), i != j, with labels[i] == labels[j] (Lemmas 1-3 compare points of
// one subclass); labels with a single member are never drawn. Two index vectors.
std::pair<torch::Tensor, torch::Tensor> same_label_pairs(const torch::Tensor& labels, int64_t count, uint64_t seed);

struct PairScatter {
  std::vector<double> input_distance, output_distance;  // one point per pair (pairs at distance 0 are dropped)
  double constant = 0.0;                                // the largest output/input ratio
};

// K_L on the pairs (rows of a, rows of b).
PairScatter encoder_ratio_estimate(EmbeddingModel& model, const torch::Tensor& a, const torch::Tensor& b);

// K_g of a class-conditional autoencoder on pairs of the same class (labels: the class of each pair).
PairScatter decoder_reverse_estimate(Autoencoder autoencoder, const torch::Tensor& a, const torch::Tensor& b,
                                     const torch::Tensor& labels);

struct AugmentationScatter {
  PairScatter min_variant;  // per pair the smallest ratio over the augmentations (Appendix G.5)
  PairScatter max_variant;  // per pair the largest (Figure 3's caption)
};
AugmentationScatter augmentation_estimate(EmbeddingModel& model, const torch::Tensor& a, const torch::Tensor& b,
                                          const AugmentationOptions& options, int augmentations, uint64_t seed);

struct JacobianBound {
  double max = 0.0;   // the largest sigma_max(J(x)) over the points
  double mean = 0.0;
  int64_t points = 0;
  int iterations = 0;  // power iterations run (all points together)
};
// Power iteration on all rows of x at once (f maps rows independently in evaluation mode),
// until every row's estimate changes by less than `tolerance` (relative) or max_iterations.
JacobianBound jacobian_lower_bound(EmbeddingModel& model, const torch::Tensor& x, int max_iterations = 200,
                                   double tolerance = 1e-9, uint64_t seed = 0);

struct LayerConstant {
  std::string name;
  double constant = 0.0;
  // "svd", "fft", "known", or "power iteration (n iterations, estimate)"; for "fft" also the
  // power-iteration estimate of the true norm, to show how tight the bound is.
  std::string method;
  std::optional<double> estimate;
};
struct UpperBound {
  std::optional<double> value;  // empty when the model is not a known chain
  bool certified = true;        // false when a layer's norm is only a power-iteration estimate
  std::vector<LayerConstant> layers;
  std::string unsupported;
};
// `example`: one input (1 x ...), which fixes the shape each layer sees.
UpperBound layer_product_bound(EmbeddingModel& model, const torch::Tensor& example, int max_iterations = 2000,
                               double tolerance = 1e-12);

// The norm of the circular convolution on an M1 x M2 grid, M = input size + (k - 1) dilation,
// which bounds the norm of the zero-padded convolution (any padding and stride) on H x W inputs.
double circular_convolution_bound(const torch::Tensor& kernel, int64_t height, int64_t width, int64_t dilation = 1);

// The operator norm of the linear part of an affine map on inputs shaped like `example`, by
// power iteration on A^T A (A v = map(v) - map(0), A^T by autograd). Returns the norm and the
// iterations used.
std::pair<double, int> affine_operator_norm(const std::function<torch::Tensor(const torch::Tensor&)>& map,
                                            const torch::Tensor& example, int max_iterations = 2000,
                                            double tolerance = 1e-12, uint64_t seed = 0);

}  // namespace geomsim::train
