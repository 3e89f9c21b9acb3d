#pragma once
// geomsim's training checkpoints as loadable models. Beside the weights, the trainer stores a
// description of the networks (the encoder's options and, for THANOS, the autoencoder's) and
// of the run (JSON the caller supplies: the data, the hierarchy, the loss), so that a
// checkpoint can be evaluated or measured without knowing how it was trained.
#include <optional>
#include <string>

#include "geomsim/train/models/autoencoder.hpp"
#include "geomsim/train/models/encoders.hpp"

namespace torch::serialize {
class InputArchive;
class OutputArchive;
}

namespace geomsim::train {

struct ModelDescription {
  EncoderOptions encoder;
  std::optional<AutoencoderOptions> autoencoder;  // runs with an autoencoder (THANOS, cAuto, ...)
  // The embedding is the autoencoder's alone (cAuto, gAuto: the encoder was not trained).
  bool autoencoder_only = false;
  std::string run = "{}";                         // JSON object: how the model was trained
};

// The archive key under which the description is stored (a JSON string).
inline constexpr const char* kModelDescriptionKey = "model";

std::string to_json_text(const ModelDescription& description);
// Throws InvalidArgument(argument) when the text is not a description geomsim wrote.
ModelDescription model_description_from_json(const std::string& text, const std::string& argument);

// Loads `module` from the part `key` of `archive`, refusing (InvalidArgument(argument), naming
// the file and the tensor) any tensor whose shape is not the module's: libtorch's Module::load
// would take a tensor of any shape, so 8-wide weights would run as a 9-wide model.
void load_module(torch::nn::Module& module, torch::serialize::InputArchive& archive, const std::string& key,
                 const std::string& path, const std::string& argument);

// Writes the description into a checkpoint archive.
void write_model_description(torch::serialize::OutputArchive& archive, const ModelDescription& description);

struct CheckpointModel {
  ModelDescription description;
  Encoder encoder{nullptr};          // in evaluation mode, on the CPU
  Autoencoder autoencoder{nullptr};  // null unless the run was THANOS
  int64_t epochs = 0;                // finished epochs recorded in the checkpoint
};

// Loads a checkpoint written by train_encoder. Throws InvalidArgument(argument) naming the file
// when it is missing, unreadable, corrupt (a CRC-32 that fails, see archive_integrity.hpp), not a
// geomsim checkpoint, written without a description, or with weights its description does not fit.
CheckpointModel load_checkpoint_model(const std::string& path, const std::string& argument = "checkpoint");

// The same, or nullopt when the file is not a geomsim checkpoint (not a torch archive, or one
// without a description); still throws for a missing file or weights that do not match.
std::optional<CheckpointModel> try_load_checkpoint_model(const std::string& path, const std::string& argument = "checkpoint");

// True when `path` can be read as a torch archive that holds a geomsim model description.
bool is_geomsim_checkpoint(const std::string& path);

}  // namespace geomsim::train
