#include "geomsim/train/checkpoints/run_checkpoint.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/sgd.h>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/train/data/archive_integrity.hpp"
#include "geomsim/train/data/device.hpp"

namespace geomsim::train {
namespace {

constexpr const char* kCpuGeneratorKey = "rng";
constexpr const char* kCudaGeneratorKey = "rng_cuda";

torch::Tensor moved(const torch::Tensor& tensor, const c10::Device& device) {
  return tensor.defined() ? tensor.to(device) : tensor;
}

}  // namespace

void save_run_checkpoint(torch::serialize::OutputArchive& archive, const std::string& path, const std::string& argument) {
  // Serialised in memory, then written as a whole: libtorch's file writer aborts the process
  // when a write fails (a full disk) and leaves its partial file; OutputTransaction reports the
  // failure as an error naming the file and removes its temporary. The rename is atomic: a stop
  // leaves the previous epoch's file.
  std::ostringstream bytes;
  archive.save_to(bytes);
  OutputTransaction output;
  output.stage(path, bytes.str(), argument);
  output.commit();
}

torch::serialize::InputArchive open_run_checkpoint(const std::string& path, const std::string& what, const std::string& argument) {
  if (verify_archive(path, argument) == ArchiveCheck::not_a_zip) {
    throw InvalidArgument(argument, path + " is not a readable " + what + " (not a torch archive)");
  }
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path, c10::Device(c10::kCPU));
  } catch (const c10::Error& e) {
    throw InvalidArgument(argument, path + " is not a readable " + what + " (" + std::string(e.what_without_backtrace()) + ")");
  } catch (const std::exception& e) {  // TorchScript code that does not compile: torch::jit's own errors
    const std::string message = e.what();
    const auto start = std::min(message.find_first_not_of('\n'), message.size());  // its first line may be empty
    throw InvalidArgument(argument, path + " holds TorchScript code that does not compile (" + message.substr(start, message.find('\n', start) - start) + ")");
  }
  return archive;
}

void write_options_record(torch::serialize::OutputArchive& archive, const std::string& options, const c10::Device& device,
                          int world_size) {
  nlohmann::json record = nlohmann::json::parse(options);
  record["device"] = device_name(device);
  record["world-size"] = world_size;
  archive.write(kOptionsRecordKey, c10::IValue(record.dump()));
}

void require_same_inputs(const nlohmann::json& stored, const nlohmann::json& current, const std::string& path) {
  if (!stored.is_object() || !stored.contains(kInputContentsKey) || !current.is_object() || !current.contains(kInputContentsKey)) return;
  const nlohmann::json& was = stored.at(kInputContentsKey);
  for (const auto& [option, contents] : current.at(kInputContentsKey).items()) {
    const nlohmann::json before = was.is_object() && was.contains(option) ? was.at(option) : nlohmann::json(nullptr);
    if (before == contents) continue;
    throw InvalidArgument(option, "holds other contents than those " + path + " was trained on (" + json_excerpt(before) + "; now " +
                                      json_excerpt(contents) + "); resume on the same files, or start another --checkpoint");
  }
}

bool finished_run(torch::serialize::InputArchive& archive, int64_t epochs) {
  torch::Tensor history;
  return archive.try_read("history", history) && history.dim() == 2 && history.size(0) >= epochs;
}

void require_same_options(torch::serialize::InputArchive& archive, const std::string& options, const c10::Device& device,
                          bool device_explicit, const std::string& path, int world_size, bool finished) {
  c10::IValue stored_text;
  if (!archive.try_read(kOptionsRecordKey, stored_text) || !stored_text.isString()) {
    throw InvalidArgument("checkpoint", path + " does not record the options it was trained with (written by an older geomsim), "
                                               "so a resume cannot be checked; start another --checkpoint (eval, measure and "
                                               "lipschitz still read it)");
  }
  // A checkpoint is a user's file: its record is parsed with the nesting bounded, and shown in
  // messages only as a bounded excerpt.
  const nlohmann::json stored = parse_json_input(stored_text.toStringRef(), "checkpoint", path + " holds a record of its training options that");
  if (!stored.is_object()) throw InvalidArgument("checkpoint", path + " holds a malformed record of its training options");
  const nlohmann::json current = nlohmann::json::parse(options);
  for (const auto& [option, value] : current.items()) {
    if (option == "device" || option == "world-size" || option == kInputContentsKey) continue;
    const nlohmann::json was = stored.contains(option) ? stored.at(option) : nlohmann::json(nullptr);
    if (was != value) {
      throw InvalidArgument(option, "is " + json_excerpt(value) + " but " + path + " was trained with " + json_excerpt(was) +
                                        "; resume with the options it was trained with, or start another --checkpoint");
    }
  }
  // An option the record names and this run's lacks: records name some options only off their
  // defaults (e.g. the joint head's), so this run has it at its default, the record did not.
  for (const auto& [option, value] : stored.items()) {
    if (option == "device" || option == "world-size" || option == kInputContentsKey || current.contains(option)) continue;
    throw InvalidArgument(option, "is not given (its default) but " + path + " was trained with " + json_excerpt(value) +
                                      "; resume with the options it was trained with, or start another --checkpoint");
  }
  require_same_inputs(stored, current, path);  // a finished run's too: it is evaluated on them
  if (finished) return;  // nothing left to train: the ranks and the device no longer matter
  const nlohmann::json ranks = stored.value("world-size", nlohmann::json(1));
  if (ranks != nlohmann::json(world_size)) {
    throw InvalidArgument("nproc-per-node", "(the number of data-parallel ranks) is " + std::to_string(world_size) + " but " + path +
                                                " was trained by " + json_excerpt(ranks) + "; resume with as many ranks, or start another --checkpoint");
  }
  if (!stored.contains("device") || !stored.at("device").is_string()) return;
  const std::string was = stored.at("device").get<std::string>();
  std::string kind;
  try {
    kind = device_kind(c10::Device(was));
  } catch (const c10::Error&) {
    throw InvalidArgument("checkpoint", path + " records an unknown device '" + was + "'");
  }
  if (kind != device_kind(device) && !device_explicit) {
    throw InvalidArgument("device", "is " + device_name(device) + " but " + path + " was trained on " + was +
                                        "; resume on " + kind + ", or give --device " + device_kind(device) +
                                        " explicitly to continue it there (its random draws then come from another "
                                        "generator, so it will not end as an uninterrupted run would)");
  }
}

void write_generator_states(torch::serialize::OutputArchive& archive, const c10::Device& device) {
  archive.write(kCpuGeneratorKey, default_generator(c10::Device(c10::kCPU))->get_state());
  if (device.is_cuda()) archive.write(kCudaGeneratorKey, default_generator(device)->get_state());
}

void restore_generator_states(torch::serialize::InputArchive& archive, const c10::Device& device) {
  torch::Tensor state;
  archive.read(kCpuGeneratorKey, state);
  auto cpu = default_generator(c10::Device(c10::kCPU));
  cpu->set_state(state);
  torch::Tensor cuda_state;
  if (device.is_cuda() && archive.try_read(kCudaGeneratorKey, cuda_state)) default_generator(device)->set_state(cuda_state);
}

void move_optimizer_state(torch::optim::Optimizer& optimizer, const c10::Device& device) {
  for (auto& entry : optimizer.state()) {
    auto* state = entry.second.get();
    if (auto* adamw = dynamic_cast<torch::optim::AdamWParamState*>(state)) {
      adamw->exp_avg(moved(adamw->exp_avg(), device));
      adamw->exp_avg_sq(moved(adamw->exp_avg_sq(), device));
      adamw->max_exp_avg_sq(moved(adamw->max_exp_avg_sq(), device));
    } else if (auto* adam = dynamic_cast<torch::optim::AdamParamState*>(state)) {
      adam->exp_avg(moved(adam->exp_avg(), device));
      adam->exp_avg_sq(moved(adam->exp_avg_sq(), device));
      adam->max_exp_avg_sq(moved(adam->max_exp_avg_sq(), device));
    } else if (auto* sgd = dynamic_cast<torch::optim::SGDParamState*>(state)) {
      sgd->momentum_buffer(moved(sgd->momentum_buffer(), device));
    }
  }
}

}  // namespace geomsim::train
