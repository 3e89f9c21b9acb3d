#include "geomsim/train/models/encoders.hpp"

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

void validate(const EncoderOptions& o) {
  if (o.kind != "mlp" && o.kind != "cnn" && o.kind != "vit") {
    throw InvalidArgument("model", "must be mlp, cnn or vit; got '" + o.kind + "'");
  }
  require_at_least("channels", o.channels, 1);
  require_at_least("image_size", o.image_size, 4);
  if (o.image_size % 4 != 0) throw InvalidArgument("image_size", "must be a multiple of 4 (pooling and 4 x 4 patches)");
  require_at_least("embedding_dim", o.embedding_dim, 2);
  require_at_least("width", o.width, 4);
  require_at_least("vit_layers", o.vit_layers, 1);
  require_at_least("vit_heads", o.vit_heads, 1);
  if (o.kind == "vit" && o.width % o.vit_heads != 0) {
    throw InvalidArgument("width", "must be a multiple of the attention heads (" + std::to_string(o.vit_heads) + ") for vit");
  }
}

double parameter_count(const EncoderOptions& o) {
  const double c = static_cast<double>(o.channels), s = static_cast<double>(o.image_size), w = static_cast<double>(o.width),
               d = static_cast<double>(o.embedding_dim);
  const double head = w * d + d;
  if (o.kind == "mlp") return (c * s * s * w + w) + (w * w + w) + head;
  if (o.kind == "cnn") return (c * 32 * 9 + 32) + (32 * 64 * 9 + 64) + (64 * (s / 4) * (s / 4) * w + w) + head;
  const double tokens = (s / 4) * (s / 4);
  const double layer = (3 * w * w + 3 * w) + (w * w + w) + (w * 2 * w + 2 * w) + (2 * w * w + w) + 4 * w;  // attention, MLP, 2 norms
  return (c * 16 * w + w) + tokens * w + static_cast<double>(o.vit_layers) * layer + 2 * w + head;
}

double training_memory_bytes(const EncoderOptions& o, int64_t batch_size) {
  const double c = static_cast<double>(o.channels), s = static_cast<double>(o.image_size), w = static_cast<double>(o.width),
               d = static_cast<double>(o.embedding_dim);
  double per_view = 0;  // activations of one view, in floats
  if (o.kind == "mlp") per_view = c * s * s + 4 * w + 2 * d;
  else if (o.kind == "cnn") per_view = c * s * s + 3 * 32 * s * s / 1 + 3 * 64 * s * s / 4 + 2 * w + 2 * d;
  else {  // per layer and token: about 6 width-sized activations and one attention row per head
    const double tokens = (s / 4) * (s / 4);
    per_view = c * s * s + tokens * static_cast<double>(o.vit_layers) * (6 * w + static_cast<double>(o.vit_heads) * tokens) + 2 * d;
  }
  const double views = 2.0 * static_cast<double>(batch_size);
  return 4.0 * (4.0 * parameter_count(o) + 2.0 * views * per_view);
}

EncoderImpl::EncoderImpl(const EncoderOptions& o) : options_(o) {
  validate(o);
  namespace nn = torch::nn;
  const int64_t pixels = o.channels * o.image_size * o.image_size;
  if (o.kind == "mlp") {
    body_ = register_module("body", nn::Sequential(nn::Flatten(), nn::Linear(pixels, o.width), nn::ReLU(),
                                                   nn::Linear(o.width, o.width), nn::ReLU(),
                                                   nn::Linear(o.width, o.embedding_dim)));
  } else if (o.kind == "cnn") {
    const int64_t side = o.image_size / 4;
    // Each pooling comes before its ReLU: max over a window commutes with max(., 0), so the
    // function and its gradient are those of conv - ReLU - pool, with the ReLU on a quarter of
    // the elements. The layers keep their indices (the convolutions are body.0 and body.3).
    nn::Conv2d first(nn::Conv2dOptions(o.channels, 32, 3).padding(1)), second(nn::Conv2dOptions(32, 64, 3).padding(1));
    // Channels-last weights make oneDNN run both convolutions, the poolings and the ReLUs on
    // N x H x W x C activations, without reordering them for each call (1.7x on this block,
    // forward and backward, with the pool-first order); Flatten still reads them in C x H x W order.
    // (A copy with explicit channels-last strides: with one input channel the weight already
    // counts as channels-last contiguous, and contiguous() would keep its N x C x H x W strides.)
    for (const nn::Conv2d& conv : {first, second}) {
      conv->weight.set_data(conv->weight.to(conv->weight.options(), false, /*copy=*/true, torch::MemoryFormat::ChannelsLast));
    }
    body_ = register_module(
        "body", nn::Sequential(first, nn::MaxPool2d(2), nn::ReLU(), second, nn::MaxPool2d(2), nn::ReLU(), nn::Flatten(),
                               nn::Linear(64 * side * side, o.width), nn::ReLU(), nn::Linear(o.width, o.embedding_dim)));
  } else {
    const int64_t tokens = (o.image_size / 4) * (o.image_size / 4);
    patch_ = register_module("patch", nn::Conv2d(nn::Conv2dOptions(o.channels, o.width, 4).stride(4)));
    position_ = register_parameter("position", 0.02 * torch::randn({1, tokens, o.width}));
    auto layer = nn::TransformerEncoderLayerOptions(o.width, o.vit_heads).dim_feedforward(2 * o.width).dropout(0.0);
    transformer_ = register_module("transformer", nn::TransformerEncoder(nn::TransformerEncoderOptions(layer, o.vit_layers)));
    norm_ = register_module("norm", nn::LayerNorm(nn::LayerNormOptions({o.width})));
    head_ = register_module("head", nn::Linear(o.width, o.embedding_dim));
  }
}

torch::Tensor EncoderImpl::features(const torch::Tensor& x) {
  if (x.dim() != 4 || x.size(1) != options_.channels || x.size(2) != options_.image_size || x.size(3) != options_.image_size) {
    throw InvalidArgument("images", "must be B x " + std::to_string(options_.channels) + " x " +
                                        std::to_string(options_.image_size) + " x " + std::to_string(options_.image_size));
  }
  if (body_) return body_->forward(x);
  auto tokens = patch_->forward(x).flatten(2).transpose(1, 2) + position_;  // B x T x width
  tokens = transformer_->forward(tokens.transpose(0, 1)).transpose(0, 1);   // the layer wants T x B x width
  return head_->forward(norm_->forward(tokens.mean(1)));
}

torch::Tensor EncoderImpl::forward(const torch::Tensor& x) {
  return torch::nn::functional::normalize(features(x), torch::nn::functional::NormalizeFuncOptions().dim(1));
}

}  // namespace geomsim::train
