#pragma once
// Networks small enough to build and train in a test's time budget.
#include <string>

#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/models/encoders.hpp"

namespace geomsim::train::testing {

inline EncoderOptions tiny_encoder(const std::string& kind, int64_t embedding_dim, int64_t width) {
  EncoderOptions o;
  o.kind = kind;
  o.embedding_dim = embedding_dim;
  o.width = width;
  return o;
}

inline AutoencoderOptions tiny_autoencoder(int64_t width) {
  AutoencoderOptions o;
  o.latent_dim = 4;
  o.width = width;
  return o;
}

}  // namespace geomsim::train::testing
