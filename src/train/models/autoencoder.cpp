#include "geomsim/train/models/autoencoder.hpp"

#include <algorithm>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

const std::vector<std::string>& autoencoder_modes() {
  static const std::vector<std::string> modes = {"joint", "per-class", "general"};
  return modes;
}

void validate(const AutoencoderOptions& o) {
  const auto& modes = autoencoder_modes();
  if (std::find(modes.begin(), modes.end(), o.mode) == modes.end()) {
    throw InvalidArgument("autoencoder", "must be joint, per-class or general; got '" + o.mode + "'");
  }
  require_at_least("classes", o.classes, 1);
  require_at_least("latent_dim", o.latent_dim, 1);
  require_at_least("width", o.width, 1);
  require_in_closed_range("autoencoder-dropout", o.dropout, 0.0, 0.9);
  require_in_closed_range("label-smoothing", o.label_smoothing, 0.0, 0.9);
}

AutoencoderImpl::AutoencoderImpl(const AutoencoderOptions& o) : options_(o) {
  validate(o);
  namespace nn = torch::nn;
  const int64_t pixels = o.channels * o.image_size * o.image_size;
  encoder_ = register_module("encoder", nn::Sequential(nn::Flatten(), nn::Linear(pixels, o.width), nn::ReLU(),
                                                       nn::Dropout(o.dropout), nn::Linear(o.width, o.latent_dim)));
  decoders_ = register_module("decoders", nn::ModuleList());
  for (int64_t y = 0; y < (o.mode == "per-class" ? o.classes : 1); ++y) {
    decoders_->push_back(nn::Sequential(nn::Linear(o.latent_dim, o.width), nn::ReLU(), nn::Linear(o.width, pixels), nn::Sigmoid()));
  }
  if (o.mode == "joint") head_ = register_module("head", nn::Linear(o.latent_dim, o.classes));
}

torch::Tensor AutoencoderImpl::encode(const torch::Tensor& images) { return encoder_->forward(images); }

namespace {
torch::Tensor checked_labels(const torch::Tensor& images, const torch::Tensor& labels, int64_t classes, const torch::Device& device,
                             bool range_checked = false) {
  if (labels.dim() != 1 || labels.size(0) != images.size(0)) throw InvalidArgument("labels", "must hold one label per image");
  const auto l = labels.to(device);
  if (!range_checked && l.numel() > 0 && (l.min().item<int64_t>() < 0 || l.max().item<int64_t>() >= classes)) {
    throw InvalidArgument("labels", "must be in [0, " + std::to_string(classes) + ") for the autoencoder");
  }
  return l;
}
}  // namespace

torch::Tensor AutoencoderImpl::decode(const torch::Tensor& latent, const torch::Tensor& labels, at::IntArrayRef shape) {
  if (options_.mode != "per-class") return decoders_[0]->as<torch::nn::Sequential>()->forward(latent).view(shape);
  int64_t pixels = 1;
  for (std::size_t i = 1; i < shape.size(); ++i) pixels *= shape[i];
  torch::Tensor out = torch::empty({latent.size(0), pixels}, latent.options());
  for (int64_t y = 0; y < static_cast<int64_t>(decoders_->size()); ++y) {
    const auto rows = labels.eq(y).nonzero().squeeze(1);
    if (rows.numel() == 0) continue;
    out.index_copy_(0, rows, decoders_[static_cast<std::size_t>(y)]->as<torch::nn::Sequential>()->forward(latent.index_select(0, rows)));
  }
  return out.view(shape);
}

torch::Tensor AutoencoderImpl::reconstruct(const torch::Tensor& images, const torch::Tensor& labels) {
  const auto latent = encode(images);
  return decode(latent, checked_labels(images, labels, options_.classes, latent.device()), images.sizes());
}

torch::Tensor AutoencoderImpl::training_loss(const torch::Tensor& images, const torch::Tensor& labels, bool labels_checked) {
  const auto latent = encode(images);
  const auto l = checked_labels(images, labels, options_.classes, latent.device(), labels_checked);
  auto loss = reconstruction_loss(decode(latent, l, images.sizes()), images);
  if (options_.mode == "joint") {
    const auto logits = head_->forward(torch::dropout(latent, options_.dropout, is_training()));
    loss = loss + torch::nn::functional::cross_entropy(
                      logits, l, torch::nn::functional::CrossEntropyFuncOptions().label_smoothing(options_.label_smoothing));
  }
  return loss;
}

torch::Tensor reconstruction_loss(const torch::Tensor& reconstruction, const torch::Tensor& images) {
  if (!reconstruction.sizes().equals(images.sizes())) throw InvalidArgument("reconstruction", "must have the images' shape");
  return (reconstruction - images).pow(2).flatten(1).sum(1).mean();
}

}  // namespace geomsim::train
