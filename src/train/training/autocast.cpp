#include "geomsim/train/training/autocast.hpp"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

#if TORCH_VERSION_MAJOR >= 2
bool autocast_enabled(c10::DeviceType type) { return at::autocast::is_autocast_enabled(type); }
void set_autocast(c10::DeviceType type, bool on) {
  at::autocast::set_autocast_dtype(type, at::kBFloat16);
  at::autocast::set_autocast_enabled(type, on);
}
#else
bool autocast_enabled(c10::DeviceType type) {
  return type == c10::kCUDA ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
}
void set_autocast(c10::DeviceType type, bool on) {
  if (type == c10::kCUDA) {
    at::autocast::set_autocast_gpu_dtype(at::kBFloat16);
    at::autocast::set_enabled(on);
  } else {
    at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
    at::autocast::set_cpu_enabled(on);
  }
}
#endif

}  // namespace

bool uses_bf16(const std::string& precision) {
  if (precision == "float32") return false;
  if (precision == "bf16") return true;
  throw InvalidArgument("precision", "must be float32 or bf16 (the encoder under autocast, the losses in float32); got '" +
                                         precision + "'");
}

EncoderAutocast::EncoderAutocast(const c10::Device& device, bool enabled)
    : type_(device.type()), enabled_(enabled && (device.is_cuda() || device.is_cpu())) {
  if (!enabled_) return;
  was_enabled_ = autocast_enabled(type_);
  at::autocast::increment_nesting();
  set_autocast(type_, true);
}

EncoderAutocast::~EncoderAutocast() {
  if (!enabled_) return;
  set_autocast(type_, was_enabled_);
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
}

}  // namespace geomsim::train
