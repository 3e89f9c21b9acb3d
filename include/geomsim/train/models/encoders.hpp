#pragma once
// Encoders with an L2-normalised embedding head, for 1 x 28 x 28 (or C x S x S) images:
//   mlp   flatten, two hidden layers of `width` with ReLU, linear to the embedding
//   cnn   conv(32) - pool - ReLU - conv(64) - pool - ReLU - linear(width) - ReLU - linear
//         (channels-last convolution weights; see encoders.cpp)
//   vit   4 x 4 patches (as seed 004's encoder, scaled down): patch embedding of `width`,
//         learned positions, two pre-norm transformer layers with 4 heads, mean pooling
// forward() returns unit rows (N x embedding_dim); features() the same before normalisation.
#include <string>
#include <torch/torch.h>

namespace geomsim::train {

struct EncoderOptions {
  std::string kind = "cnn";   // mlp, cnn or vit
  int64_t channels = 1;
  int64_t image_size = 28;    // a multiple of 4
  int64_t embedding_dim = 128;
  int64_t width = 128;
  // vit only: transformer layers and attention heads (width must be a multiple of heads). The
  // defaults are geomsim's small ViT. Seed 004 Appendix F.2: "4 x 4 patch size, 7 multi-head
  // attention layers with 8 attention heads and hidden MLP size of 256, final embedding size of
  // 128": vit_layers 7, vit_heads 8, width 128 (the MLP is 2 x width), embedding_dim 128.
  // Checkpoints and run records name them only when they differ from the defaults, so that
  // those written before they existed read and resume as they did.
  int64_t vit_layers = 2;
  int64_t vit_heads = 4;
};

class EncoderImpl : public torch::nn::Module {
 public:
  explicit EncoderImpl(const EncoderOptions& options);
  torch::Tensor features(const torch::Tensor& x);
  torch::Tensor forward(const torch::Tensor& x);
  const EncoderOptions& options() const { return options_; }
  // features() as one chain of layers for mlp and cnn; null for vit.
  torch::nn::Sequential body() const { return body_; }

 private:
  EncoderOptions options_;
  torch::nn::Sequential body_{nullptr};  // mlp and cnn
  torch::nn::Conv2d patch_{nullptr};     // vit
  torch::Tensor position_;
  torch::nn::TransformerEncoder transformer_{nullptr};
  torch::nn::LayerNorm norm_{nullptr};
  torch::nn::Linear head_{nullptr};
};
TORCH_MODULE(Encoder);

// Throws InvalidArgument naming the field.
void validate(const EncoderOptions& options);

// The number of weights the encoder has (exactly: the sum of its parameters' sizes).
double parameter_count(const EncoderOptions& options);
// What training it with `batch_size` samples (two views each) needs at least, in bytes: the
// weights, their gradients and AdamW's two moments (4 float32 copies), and one step's
// activations with their gradients. A double, so absurd sizes do not overflow before they are
// refused (require_memory).
double training_memory_bytes(const EncoderOptions& options, int64_t batch_size);

}  // namespace geomsim::train
