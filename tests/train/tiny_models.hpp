#pragma once
// Networks small enough to build and train in a test's time budget.
#include <string>
#include <vector>

#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/models/encoders.hpp"
#include "geomsim/train/training/trainer.hpp"

namespace geomsim::train::testing {

inline EncoderOptions tiny_encoder(const std::string& kind, int64_t embedding_dim, int64_t width) {
  EncoderOptions o;
  o.kind = kind;
  o.embedding_dim = embedding_dim;
  o.width = width;
  return o;
}

// A linear classifier's encoder on 2 features given as 2 x 1 x 1 images: the robustness tests' end model.
inline EncoderOptions linear_model() {
  EncoderOptions o;
  o.kind = "linear";
  o.channels = 2;
  o.image_size = 1;
  return o;
}

inline AutoencoderOptions tiny_autoencoder(int64_t width) {
  AutoencoderOptions o;
  o.latent_dim = 4;
  o.width = width;
  return o;
}

// A module's weights, copied to the CPU.
inline std::vector<torch::Tensor> weights(torch::nn::Module& module) {
  std::vector<torch::Tensor> out;
  for (const auto& p : module.parameters()) out.push_back(p.detach().to(torch::kCPU).clone());
  return out;
}
inline std::vector<torch::Tensor> weights(Encoder& encoder) { return weights(*encoder); }

// The same tensors, bit for bit.
inline bool identical(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!torch::equal(a[k], b[k])) return false;
  }
  return true;
}

// A resume check's two calls of run(TrainOptions): `options` stopped after its first epoch with
// `checkpoint`, then the same options resumed from it to the end; returns the second call's result.
template <class Run>
auto resumed_after_first_epoch(const TrainOptions& options, const std::string& checkpoint, Run&& run) {
  TrainOptions first = options;
  first.stop_after = 1;
  first.checkpoint = checkpoint;
  run(first);
  TrainOptions rest = options;
  rest.checkpoint = checkpoint;
  return run(rest);
}

}  // namespace geomsim::train::testing
