#pragma once
// The one reader and writer of training-run checkpoints, shared by train_encoder and
// train_end_model:
//   - written in memory, then through OutputTransaction: a write that fails (a full disk) is an
//     InvalidArgument naming the option, no file is left behind, and the previous checkpoint
//     stays as it was (libtorch's own file writer aborts the process and leaves FILE.partial);
//   - every load runs verify_archive (the zip's CRC-32 checks, archive_integrity.hpp) first, so
//     a file whose bytes changed after it was written is refused, naming it;
//   - loads map every tensor to the CPU; the trainer then moves what it needs to the run's
//     device, so a checkpoint written on one device resumes on another;
//   - the options a run was trained with (a JSON object keyed by the CLI's option names, with
//     the device) are recorded, and a resume with other options is refused naming the option
//     and both values; a resume on another kind of device only when the caller says the device
//     was chosen explicitly;
//   - the state of every generator the run draws from (the CPU's, and the CUDA device's when
//     the run is on one) is saved and restored, so a resume continues the same random draws.
#include <nlohmann/json.hpp>
#include <string>
#include <torch/serialize.h>
#include <torch/optim/optimizer.h>

namespace geomsim::train {

// The archive key of the options record (a JSON object text).
inline constexpr const char* kOptionsRecordKey = "training";
// The key, in a run's description and so in its options record, of the contents of its input files:
// an object from each option that names files (data, images, labels, cifar, hierarchy) to their
// fingerprint (train_experiments::input_contents).
inline constexpr const char* kInputContentsKey = "inputs";

// Serialises `archive` in memory and writes it to `path` atomically (OutputTransaction). Throws
// InvalidArgument(argument) naming the file when it cannot be written.
void save_run_checkpoint(torch::serialize::OutputArchive& archive, const std::string& path, const std::string& argument = "checkpoint");

// Opens `path` for a resume: verify_archive first, then libtorch's reader with every tensor
// mapped to the CPU. Throws InvalidArgument(argument) naming the file when it cannot be read,
// is a corrupt archive ("... fails its CRC-32 check") or is not a torch archive at all ("is not
// a readable <what>").
torch::serialize::InputArchive open_run_checkpoint(const std::string& path, const std::string& what,
                                                   const std::string& argument = "checkpoint");

// Writes the options record: `options` (a JSON object text) with "device" set to the run's device
// and "world-size" to the number of data-parallel ranks that trained it.
void write_options_record(torch::serialize::OutputArchive& archive, const std::string& options, const c10::Device& device,
                          int world_size = 1);

// Refuses (InvalidArgument(option, "is X but FILE was trained with Y; ...")) a resume whose
// options differ from the record in `archive`, option by option (options the record lacks
// count as null; options only the record names, which records name off their defaults only,
// are refused too; the input files' contents as require_same_inputs says), and (InvalidArgument("device")) one on another kind of device (cpu, cuda)
// than the record's unless device_explicit. A checkpoint without a record is refused too (it
// cannot be checked); one whose record has no device (written before devices were recorded)
// is not checked for it. A resume with another number of data-parallel ranks is refused too
// (InvalidArgument("nproc-per-node")): each rank's share of a batch, and so the run, would change
// (a record without "world-size" was written by one process). A finished run (`finished`:
// nothing left to train, see finished_run) is checked for its options only: the ranks and the
// device decide how a run goes on, and it does not (its weights are read, e.g. to be measured).
void require_same_options(torch::serialize::InputArchive& archive, const std::string& options, const c10::Device& device,
                          bool device_explicit, const std::string& path, int world_size = 1, bool finished = false);
// Refuses (InvalidArgument(option, "holds other contents than those FILE was trained on (...)"))
// a resume whose input files differ from those the checkpoint's run read, option by option:
// `stored` and `current` are the two runs' records or descriptions (JSON objects), compared on
// their kInputContentsKey objects. A record without one (written before contents were recorded)
// is not checked; an option the record lacks counts as other contents. require_same_options and
// the robustness stages' description check call it; the paths themselves are options like any other.
void require_same_inputs(const nlohmann::json& stored, const nlohmann::json& current, const std::string& path);

// Whether the run checkpointed in `archive` has all `epochs` epochs in its history.
bool finished_run(torch::serialize::InputArchive& archive, int64_t epochs);

// The generators' states: "rng" (the CPU's) always, "rng_cuda" when `device` is a CUDA device.
void write_generator_states(torch::serialize::OutputArchive& archive, const c10::Device& device);
// Restores the states write_generator_states wrote for `device`; a CUDA state is restored only
// to a CUDA run (a resume from another kind of device keeps the seeded CUDA generator).
void restore_generator_states(torch::serialize::InputArchive& archive, const c10::Device& device);

// Moves an optimiser's state tensors (AdamW's and Adam's moments, SGD's momentum buffers) to
// `device`, after a load mapped them to the CPU.
void move_optimizer_state(torch::optim::Optimizer& optimizer, const c10::Device& device);

}  // namespace geomsim::train
