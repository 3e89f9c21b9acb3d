#pragma once
// The device a training run works on, chosen once by the caller (--device auto|cpu|cuda|cuda:N)
// and passed down as a torch::Device: nothing below chooses one. Also the random generators a
// run draws from on a device, and where its training data lives.
#include <ATen/core/Generator.h>
#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace torch::nn {
class Module;
}

namespace geomsim::train {

// "auto": the first CUDA device when torch::cuda::is_available(), else the CPU; "cpu"; "cuda"
// (cuda:0); "cuda:N". Throws InvalidArgument("device") listing the allowed values for other
// text, for cuda on a machine without CUDA (saying so), and for cuda:N beyond the device count.
c10::Device resolve_device(const std::string& text);

// "cpu", "cuda:0", "meta": how results, JSON and checkpoints name a device (a CUDA device
// without an index is named cuda:0).
std::string device_name(const c10::Device& device);
// "cpu", "cuda", "meta": the kind of device, what a resume must keep unless told otherwise.
std::string device_kind(const c10::Device& device);

// The default generator random draws on `device` come from: the CPU's, or the CUDA device's
// (through at::globalContext(), so without compile-time CUDA); nullopt for a device that has
// none (meta: its kernels draw nothing).
std::optional<at::Generator> default_generator(const c10::Device& device);

// Data sets up to this many bytes are moved to a CUDA device once; larger ones stay on the CPU
// and each batch is copied (non_blocking). libtorch's C++ API cannot ask a CUDA device for its
// free memory without the CUDA headers, so the budget is fixed: a quarter of the smallest GPU
// memory the project runs on (16 GB), leaving the rest to weights and activations.
inline constexpr double kMaxDeviceDataBytes = 4e9;

// Where a run on `device` keeps `bytes` of training data: the device itself for the CPU and
// meta, and for CUDA when the bytes are within kMaxDeviceDataBytes; the CPU otherwise.
c10::Device training_data_device(const c10::Device& device, double bytes);

// The tensors of a training set, moved together to where a run on `device` keeps them
// (training_data_device of their total bytes); when a CUDA device turns out to lack the memory
// (libtorch's out-of-memory error), all stay on the CPU instead.
std::vector<at::Tensor> place_training_data(const std::vector<at::Tensor>& tensors, const c10::Device& device);

// A batch on the run's device: itself when it is there already (the data fitted on the device),
// else a copy that does not wait for the device (from pinned memory when it goes to CUDA).
at::Tensor batch_to_device(const at::Tensor& batch, const c10::Device& device);

// module.to(device), for the meta device too: libtorch 1.13's Module::to cannot move a module
// there (Variable::set_data refuses a meta tensor for a CPU one), so on meta each parameter and
// buffer takes the meta tensor's metadata in place, as set_data does elsewhere: it keeps its
// identity, and optimisers built on it still hold it. Call it before the module's first backward
// pass (it does not reset gradient accumulators).
void move_module(torch::nn::Module& module, const c10::Device& device);

}  // namespace geomsim::train
