#pragma once
// Seed 004's class-conditional autoencoder (Section 4.3.2): one encoder f_AE and one decoder
// g_y per class, trained on the reconstruction loss L_AE = E |g_y(f_AE(x)) - x|^2 of each class.
// With class_conditional = false it is the single general autoencoder of the ablation (one
// decoder for all classes). THANOS concatenates f_AE's embedding with the L_spread encoder's.
#include <torch/torch.h>

namespace geomsim::train {

struct AutoencoderOptions {
  int64_t classes = 2;
  bool class_conditional = true;
  int64_t latent_dim = 32;
  int64_t width = 256;
  int64_t channels = 1, image_size = 28;
};

class AutoencoderImpl : public torch::nn::Module {
 public:
  explicit AutoencoderImpl(const AutoencoderOptions& options);
  torch::Tensor encode(const torch::Tensor& images);  // N x latent_dim
  // g_{label}(f_AE(x)) for each row, in the images' shape, values in (0, 1).
  torch::Tensor reconstruct(const torch::Tensor& images, const torch::Tensor& labels);
  const AutoencoderOptions& options() const { return options_; }

 private:
  AutoencoderOptions options_;
  torch::nn::Sequential encoder_{nullptr};
  torch::nn::ModuleList decoders_{nullptr};
};
TORCH_MODULE(Autoencoder);

// L_AE: the mean over images of the squared distance summed over pixels.
torch::Tensor reconstruction_loss(const torch::Tensor& reconstruction, const torch::Tensor& images);

}  // namespace geomsim::train
