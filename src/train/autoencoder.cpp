#include "geomsim/train/autoencoder.hpp"

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

AutoencoderImpl::AutoencoderImpl(const AutoencoderOptions& o) : options_(o) {
  require_at_least("classes", o.classes, 1);
  require_at_least("latent_dim", o.latent_dim, 1);
  require_at_least("width", o.width, 1);
  namespace nn = torch::nn;
  const int64_t pixels = o.channels * o.image_size * o.image_size;
  encoder_ = register_module("encoder", nn::Sequential(nn::Flatten(), nn::Linear(pixels, o.width), nn::ReLU(),
                                                       nn::Linear(o.width, o.latent_dim)));
  decoders_ = register_module("decoders", nn::ModuleList());
  for (int64_t y = 0; y < (o.class_conditional ? o.classes : 1); ++y) {
    decoders_->push_back(nn::Sequential(nn::Linear(o.latent_dim, o.width), nn::ReLU(), nn::Linear(o.width, pixels), nn::Sigmoid()));
  }
}

torch::Tensor AutoencoderImpl::encode(const torch::Tensor& images) { return encoder_->forward(images); }

torch::Tensor AutoencoderImpl::reconstruct(const torch::Tensor& images, const torch::Tensor& labels) {
  if (labels.dim() != 1 || labels.size(0) != images.size(0)) throw InvalidArgument("labels", "must hold one label per image");
  const auto latent = encode(images);
  const auto l = labels.to(latent.device());
  if (options_.class_conditional && (l.min().item<int64_t>() < 0 || l.max().item<int64_t>() >= options_.classes)) {
    throw InvalidArgument("labels", "must be in [0, " + std::to_string(options_.classes) + ") for the class-conditional decoders");
  }
  torch::Tensor out = torch::empty({images.size(0), images[0].numel()}, latent.options());
  for (int64_t y = 0; y < static_cast<int64_t>(decoders_->size()); ++y) {
    const auto rows = options_.class_conditional ? l.eq(y).nonzero().squeeze(1) : torch::arange(images.size(0), l.options());
    if (rows.numel() == 0) continue;
    out.index_copy_(0, rows, decoders_[static_cast<std::size_t>(y)]->as<torch::nn::Sequential>()->forward(latent.index_select(0, rows)));
  }
  return out.view(images.sizes());
}

torch::Tensor reconstruction_loss(const torch::Tensor& reconstruction, const torch::Tensor& images) {
  if (!reconstruction.sizes().equals(images.sizes())) throw InvalidArgument("reconstruction", "must have the images' shape");
  return (reconstruction - images).pow(2).flatten(1).sum(1).mean();
}

}  // namespace geomsim::train
