#pragma once
// Seed 004's autoencoders (f_AE an MLP encoder to a latent, g a decoder back to the image).
// Three modes, by how they use the class labels:
//   joint      §5's THANOS autoencoder, the default: "we train a single autoencoder with a joint
//              MSE reconstruction loss and a cross entropy loss"; one decoder, and a linear
//              cross-entropy head on the latent, with label smoothing and dropout ("We train all
//              models with dropout as well as label smoothing on the cross-entropy loss heads").
//   per-class  one decoder g_y per class on a shared f_AE: §4.3.2's class reconstruction loss
//              L_AE(D_y) = 1/n_y sum_{x in D_y} |g(f_AE(x)) - x|^2 with a decoder per class (the
//              paper's "separate class-conditional autoencoders" would also have an f_AE per class).
//   general    one decoder, reconstruction only, no labels: the generic autoencoder of the
//              ablation (gAuto; Appendix C.2: "an autoencoder trained on D instead of D_y").
// The reconstruction term is §4.3.2's squared distance summed over pixels (not averaged), so
// it dominates the cross-entropy term early in training. f_AE is an MLP here; Appendix F.2's
// uses "the same encoder backbone as the main model" and a reversed ResNet18 as decoder.
// THANOS and "SupCon + cAuto" concatenate the unit f_AE embedding with the contrastive one.
#include <string>
#include <vector>
#include <torch/torch.h>

namespace geomsim::train {

struct AutoencoderOptions {
  int64_t classes = 2;
  std::string mode = "joint";  // joint, per-class or general (see above)
  int64_t latent_dim = 32;
  int64_t width = 256;
  int64_t channels = 1, image_size = 28;
  double dropout = 0.05;          // after f_AE's hidden layer, in training (Appendix F.3's rate)
  double label_smoothing = 0.1;   // of the joint mode's cross-entropy head (the paper gives no value)
};

// The modes AutoencoderOptions::mode accepts.
const std::vector<std::string>& autoencoder_modes();
// Throws InvalidArgument naming the field.
void validate(const AutoencoderOptions& options);

class AutoencoderImpl : public torch::nn::Module {
 public:
  explicit AutoencoderImpl(const AutoencoderOptions& options);
  torch::Tensor encode(const torch::Tensor& images);  // N x latent_dim
  // The decoded images, in the images' shape, values in (0, 1): g_{label}(f_AE(x)) per row in
  // per-class mode, g(f_AE(x)) otherwise (the labels are then only checked).
  torch::Tensor reconstruct(const torch::Tensor& images, const torch::Tensor& labels);
  // The training loss: L_AE, plus in joint mode the label-smoothed cross-entropy of the head on
  // the (dropped-out) latent. labels_checked: the caller has checked once that every label is
  // in [0, classes) (train_encoder does, before its epochs), so the step reads nothing back from
  // the device; otherwise they are checked here (InvalidArgument("labels")).
  torch::Tensor training_loss(const torch::Tensor& images, const torch::Tensor& labels, bool labels_checked = false);
  const AutoencoderOptions& options() const { return options_; }

 private:
  torch::Tensor decode(const torch::Tensor& latent, const torch::Tensor& labels, at::IntArrayRef shape);
  AutoencoderOptions options_;
  torch::nn::Sequential encoder_{nullptr};
  torch::nn::ModuleList decoders_{nullptr};
  torch::nn::Linear head_{nullptr};  // joint mode only
};
TORCH_MODULE(Autoencoder);

// L_AE: the mean over images of the squared distance summed over pixels.
torch::Tensor reconstruction_loss(const torch::Tensor& reconstruction, const torch::Tensor& images);

}  // namespace geomsim::train
