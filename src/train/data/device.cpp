#include "geomsim/train/data/device.hpp"

#include <ATen/Context.h>
#include <cctype>
#include <torch/cuda.h>
#include <torch/nn/module.h>
#include <torch/utils.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

c10::Device resolve_device(const std::string& text) {
  const std::string allowed = "must be auto, cpu, cuda or cuda:N (N a CUDA device index)";
  if (text == "cpu") return c10::Device(c10::kCPU);
  if (text == "auto") return torch::cuda::is_available() ? c10::Device(c10::kCUDA, 0) : c10::Device(c10::kCPU);
  int64_t index = 0;
  if (text.rfind("cuda:", 0) == 0) {
    const std::string digits = text.substr(5);
    if (digits.empty() || digits.size() > 4) throw InvalidArgument("device", allowed + "; got '" + text + "'");
    for (const char c : digits) {
      if (!std::isdigit(static_cast<unsigned char>(c))) throw InvalidArgument("device", allowed + "; got '" + text + "'");
    }
    index = std::stoll(digits);
  } else if (text != "cuda") {
    throw InvalidArgument("device", allowed + "; got '" + text + "'");
  }
  if (!torch::cuda::is_available()) {
    throw InvalidArgument("device", "is " + text + " but this machine has no CUDA device (libtorch without CUDA, or no GPU visible); it " + allowed +
                                        ": use cpu, or auto (the CPU here)");
  }
  const auto count = static_cast<int64_t>(torch::cuda::device_count());
  if (index >= count) {
    throw InvalidArgument("device", "is " + text + " but this machine has " + std::to_string(count) + " CUDA device" +
                                        (count == 1 ? "" : "s") + " (cuda:0 to cuda:" + std::to_string(count - 1) + ")");
  }
  return c10::Device(c10::kCUDA, static_cast<c10::DeviceIndex>(index));
}

std::string device_name(const c10::Device& device) {
  if (device.is_cuda() && !device.has_index()) return "cuda:0";
  return device.str();
}

std::string device_kind(const c10::Device& device) { return c10::DeviceTypeName(device.type(), /*lower_case=*/true); }

std::optional<at::Generator> default_generator(const c10::Device& device) {
  if (!device.is_cpu() && !device.is_cuda()) return std::nullopt;
  return at::globalContext().defaultGenerator(device);
}

c10::Device training_data_device(const c10::Device& device, double bytes) {
  if (!device.is_cuda()) return device;
  return bytes <= kMaxDeviceDataBytes ? device : c10::Device(c10::kCPU);
}

std::vector<at::Tensor> place_training_data(const std::vector<at::Tensor>& tensors, const c10::Device& device) {
  double bytes = 0;
  for (const auto& t : tensors) bytes += t.defined() ? static_cast<double>(t.numel() * t.element_size()) : 0.0;
  const c10::Device where = training_data_device(device, bytes);
  const auto move_all = [&](const c10::Device& to) {
    std::vector<at::Tensor> out;
    for (const auto& t : tensors) out.push_back(t.defined() ? t.to(to) : t);
    return out;
  };
  try {
    return move_all(where);
  } catch (const c10::Error&) {  // out of device memory: keep them on the CPU, copy each batch
    if (where.is_cpu()) throw;
    return move_all(c10::Device(c10::kCPU));
  }
}

at::Tensor batch_to_device(const at::Tensor& batch, const c10::Device& device) {
  if (batch.device() == device) return batch;
  return (device.is_cuda() && batch.device().is_cpu() ? batch.pin_memory() : batch).to(device, /*non_blocking=*/true);
}

void move_module(torch::nn::Module& module, const c10::Device& device) {
  if (device.type() != c10::kMeta) {
    module.to(device);
    return;
  }
  torch::NoGradGuard no_grad;
  const auto move = [&](const torch::Tensor& tensor) {
    if (!tensor.defined() || tensor.device() == device) return;
    const torch::Tensor moved = tensor.to(device);
    tensor.unsafeGetTensorImpl()->shallow_copy_from(moved.getIntrusivePtr());
  };
  for (const auto& p : module.parameters()) move(p);
  for (const auto& b : module.buffers()) move(b);
}

}  // namespace geomsim::train
