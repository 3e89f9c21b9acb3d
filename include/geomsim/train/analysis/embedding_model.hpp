#pragma once
// A trained model to measure: a checkpoint of `geomsim train` or a TorchScript module saved by
// PyTorch (torch.jit.save) whose forward maps N x C x H x W images to N x d embeddings.
//
// Two maps are exposed:
//   forward()  the encoder f whose Lipschitz constant is estimated: a geomsim encoder's unit
//              embedding (or, with Map::features, its output before the L2 normalisation);
//              a TorchScript module's forward output. Differentiable.
//   embed()    the embedding whose Section 4 geometry is measured: forward() without gradients,
//              in batches; for a THANOS checkpoint the encoder's and the autoencoder's unit
//              embeddings concatenated and scaled by 1/sqrt(2), as `geomsim eval` does.
// layer_chain() lists forward()'s layers when forward() is a chain of layers geomsim knows,
// for the product-of-spectral-norms upper bound.
#include <functional>
#include <optional>
#include <string>
#include <torch/script.h>
#include <torch/torch.h>
#include <vector>

#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/models/encoders.hpp"

namespace geomsim::train {

// One layer of a chain. An affine layer's constant is its operator norm (computed by the
// bound); any other layer carries its global Lipschitz constant.
struct ChainLayer {
  std::string name;  // e.g. "body.3 (Linear)"
  bool affine = false;
  std::function<torch::Tensor(const torch::Tensor&)> apply;
  std::optional<torch::Tensor> weight;  // a Linear layer's matrix: its norm is taken exactly (SVD)
  // A Conv2d layer's kernel (C_out x C_in x kh x kw), groups 1: its norm is bounded by the FFT.
  std::optional<torch::Tensor> conv_kernel;
  int64_t conv_dilation = 1;
  double lipschitz = 1.0;               // non-affine layers
};

struct LayerChain {
  std::vector<ChainLayer> layers;
  std::string unsupported;  // why there is no chain (empty when there is one)
};

class EmbeddingModel {
 public:
  enum class Map { embedding, features };

  // Loads a geomsim checkpoint or a TorchScript module; InvalidArgument(argument) naming the
  // file when it is missing, corrupt, or neither, or when a TorchScript module has no forward.
  static EmbeddingModel load(const std::string& path, const std::string& argument = "checkpoint");
  static EmbeddingModel from_encoder(Encoder encoder, Autoencoder autoencoder = nullptr);
  static EmbeddingModel from_script(torch::jit::Module module);

  std::string format() const { return script_ ? "torchscript" : "geomsim"; }
  std::string description() const;  // e.g. "geomsim cnn encoder, d = 128" or "TorchScript module __torch__...Sequential"

  // Which map forward() is; Map::features only for geomsim encoders (InvalidArgument("map") else).
  void set_map(Map map);
  Map map() const { return map_; }

  // Give the model N x (C H W) rows instead of N x C x H x W images (for TorchScript modules
  // that take flat inputs). Distances are unchanged: the flattening happens inside forward().
  void set_flatten_input(bool flatten) { flatten_ = flatten; }
  // The images as forward() hands them to the network: on the model's device, in its dtype,
  // flattened if asked.
  torch::Tensor prepare(const torch::Tensor& images) const;

  // Moves the model (and its autoencoder) to `device` (a checkpoint loads to the CPU): forward()
  // and embed() then compute there; embed() returns its embeddings on the CPU.
  void to(const c10::Device& device);
  c10::Device device() const { return device_; }

  // Moves the model (and its autoencoder) to float64, for the Lipschitz estimates.
  void to_double();
  torch::ScalarType dtype() const;

  // Throws InvalidArgument("images") with the model's message when it rejects the input, and
  // InvalidArgument("checkpoint") when its output is not N x d (d >= 1) real floating-point
  // numbers, or not finite.
  torch::Tensor forward(const torch::Tensor& images);
  torch::Tensor embed(const torch::Tensor& images, int64_t batch_size = 1024);

  Autoencoder autoencoder() const { return autoencoder_; }
  // A geomsim checkpoint's run description (JSON object text: data, hierarchy, loss); "{}" otherwise.
  const std::string& run_description() const { return run_; }
  LayerChain layer_chain() const;

 private:
  EmbeddingModel() = default;
  torch::Tensor raw_forward(const torch::Tensor& images);  // forward() before the finiteness check
  static void require_finite(const torch::Tensor& z);
  Encoder encoder_{nullptr};
  Autoencoder autoencoder_{nullptr};
  std::optional<torch::jit::Module> script_;
  Map map_ = Map::embedding;
  bool flatten_ = false;
  std::string run_ = "{}";
  c10::Device device_ = c10::Device(c10::kCPU);
};

}  // namespace geomsim::train
