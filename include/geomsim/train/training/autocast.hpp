#pragma once
// Mixed precision for the encoder: within an EncoderAutocast, libtorch's autocast runs the
// eligible operations (matrix products, convolutions) of `device` in bfloat16; the caller casts
// the embeddings back to float32, so the losses stay in float32. The same source compiles
// against libtorch 1.13 (at::autocast::set_enabled for CUDA, set_cpu_enabled) and 2.x
// (set_autocast_enabled(device type, ...)).
#include <c10/core/Device.h>
#include <string>

namespace geomsim::train {

// "float32" (no autocast) or "bf16"; throws InvalidArgument("precision") for anything else.
bool uses_bf16(const std::string& precision);

class EncoderAutocast {
 public:
  // Does nothing unless `enabled`. Nests: the state before is restored on destruction.
  EncoderAutocast(const c10::Device& device, bool enabled);
  ~EncoderAutocast();
  EncoderAutocast(const EncoderAutocast&) = delete;
  EncoderAutocast& operator=(const EncoderAutocast&) = delete;

 private:
  c10::DeviceType type_;
  bool enabled_ = false, was_enabled_ = false;
};

}  // namespace geomsim::train
