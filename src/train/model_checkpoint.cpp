#include "geomsim/train/model_checkpoint.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <torch/serialize.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

using nlohmann::json;

// The archive, or nullopt when the file is not a torch archive at all.
std::optional<torch::serialize::InputArchive> open_archive(const std::string& path) {
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    return archive;
  } catch (const c10::Error&) {
    return std::nullopt;
  }
}

std::optional<std::string> stored_description(torch::serialize::InputArchive& archive) {
  c10::IValue value;
  if (!archive.try_read(kModelDescriptionKey, value) || !value.isString()) return std::nullopt;
  return value.toStringRef();
}

}  // namespace

std::string to_json_text(const ModelDescription& d) {
  json out = {{"format", "geomsim-checkpoint-1"},
              {"encoder",
               {{"kind", d.encoder.kind},
                {"channels", d.encoder.channels},
                {"image_size", d.encoder.image_size},
                {"embedding_dim", d.encoder.embedding_dim},
                {"width", d.encoder.width}}},
              {"autoencoder", nullptr},
              {"embedding", d.autoencoder_only ? "autoencoder" : (d.autoencoder ? "concatenated" : "encoder")},
              {"run", json::parse(d.run)}};
  if (d.autoencoder) {
    const AutoencoderOptions& a = *d.autoencoder;
    out["autoencoder"] = {{"classes", a.classes},       {"mode", a.mode},
                          {"latent_dim", a.latent_dim}, {"width", a.width},
                          {"channels", a.channels},     {"image_size", a.image_size},
                          {"dropout", a.dropout},       {"label_smoothing", a.label_smoothing}};
  }
  return out.dump();
}

ModelDescription model_description_from_json(const std::string& text, const std::string& argument) {
  try {
    const json in = json::parse(text);
    if (in.at("format").get<std::string>() != "geomsim-checkpoint-1") {
      throw InvalidArgument(argument, "holds an unknown model description format '" + in.at("format").get<std::string>() + "'");
    }
    ModelDescription d;
    const json& e = in.at("encoder");
    d.encoder.kind = e.at("kind").get<std::string>();
    d.encoder.channels = e.at("channels").get<int64_t>();
    d.encoder.image_size = e.at("image_size").get<int64_t>();
    d.encoder.embedding_dim = e.at("embedding_dim").get<int64_t>();
    d.encoder.width = e.at("width").get<int64_t>();
    validate(d.encoder);
    if (!in.at("autoencoder").is_null()) {
      const json& a = in.at("autoencoder");
      AutoencoderOptions o;
      o.classes = a.at("classes").get<int64_t>();
      // Checkpoints written before the modes had a class_conditional flag: per-class or general decoders.
      o.mode = a.contains("mode") ? a.at("mode").get<std::string>()
                                  : (a.at("class_conditional").get<bool>() ? "per-class" : "general");
      o.dropout = a.value("dropout", 0.0);
      o.label_smoothing = a.value("label_smoothing", 0.0);
      o.latent_dim = a.at("latent_dim").get<int64_t>();
      o.width = a.at("width").get<int64_t>();
      o.channels = a.at("channels").get<int64_t>();
      o.image_size = a.at("image_size").get<int64_t>();
      validate(o);
      d.autoencoder = o;
    }
    d.autoencoder_only = in.value("embedding", std::string("encoder")) == "autoencoder";
    if (d.autoencoder_only && !d.autoencoder) throw InvalidArgument(argument, "describes an autoencoder-only embedding without an autoencoder");
    d.run = in.at("run").dump();
    return d;
  } catch (const json::exception& error) {
    throw InvalidArgument(argument, "holds a malformed model description (" + std::string(error.what()) + ")");
  }
}

void write_model_description(torch::serialize::OutputArchive& archive, const ModelDescription& description) {
  archive.write(kModelDescriptionKey, c10::IValue(to_json_text(description)));
}

bool is_geomsim_checkpoint(const std::string& path) {
  auto archive = open_archive(path);
  return archive && stored_description(*archive).has_value();
}

std::optional<CheckpointModel> try_load_checkpoint_model(const std::string& path, const std::string& argument) {
  if (!std::filesystem::is_regular_file(path)) throw InvalidArgument(argument, "file not found: " + path);
  auto archive = open_archive(path);
  if (!archive) return std::nullopt;
  const auto text = stored_description(*archive);
  if (!text) return std::nullopt;
  CheckpointModel model;
  model.description = model_description_from_json(*text, argument);
  try {
    model.encoder = Encoder(model.description.encoder);
    torch::serialize::InputArchive part;
    archive->read("encoder", part);
    model.encoder->load(part);
    model.encoder->eval();
    if (model.description.autoencoder) {
      model.autoencoder = Autoencoder(*model.description.autoencoder);
      archive->read("autoencoder", part);
      model.autoencoder->load(part);
      model.autoencoder->eval();
    }
    torch::Tensor history;
    if (archive->try_read("history", history)) model.epochs = history.size(0);
  } catch (const c10::Error& error) {
    throw InvalidArgument(argument, path + ": the weights do not match the stored description (" +
                                        std::string(error.what_without_backtrace()) + ")");
  }
  return model;
}

CheckpointModel load_checkpoint_model(const std::string& path, const std::string& argument) {
  if (auto model = try_load_checkpoint_model(path, argument)) return std::move(*model);
  // Not a geomsim checkpoint: say which of the two ways (the archive is reopened only here).
  if (!open_archive(path)) throw InvalidArgument(argument, path + " is not a torch archive (missing, truncated or corrupt)");
  throw InvalidArgument(argument, path + " holds no geomsim model description (not written by geomsim train, or by "
                                         "a version before checkpoints described their model)");
}

}  // namespace geomsim::train
