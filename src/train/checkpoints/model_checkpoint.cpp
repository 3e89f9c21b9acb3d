#include "geomsim/train/checkpoints/model_checkpoint.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <nlohmann/json.hpp>
#include <torch/serialize.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/train/data/archive_integrity.hpp"

namespace geomsim::train {
namespace {

using nlohmann::json;

// The first line of a compiler's message that says something (TorchScript's start with an empty line).
std::string first_line_of(const std::string& text) {
  const auto start = std::min(text.find_first_not_of('\n'), text.size());
  return text.substr(start, text.find('\n', start) - start);
}

// The archive, or nullopt when the file is not a torch archive at all. An archive whose
// TorchScript code does not compile (one byte of its source changed, its CRCs rewritten) is a bad
// input too: torch::jit's compiler throws its own errors (std::runtime_error, not c10::Error),
// turned here into InvalidArgument naming the file, with the first line of the compiler's message.
std::optional<torch::serialize::InputArchive> open_archive(const std::string& path, const std::string& argument) {
  try {
    torch::serialize::InputArchive archive;
    archive.load_from(path);
    return archive;
  } catch (const c10::Error&) {
    return std::nullopt;
  } catch (const std::exception& error) {
    throw InvalidArgument(argument, path + " holds TorchScript code that does not compile (" + first_line_of(error.what()) + ")");
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
  const EncoderOptions defaults;
  if (d.encoder.vit_layers != defaults.vit_layers) out["encoder"]["vit_layers"] = d.encoder.vit_layers;
  if (d.encoder.vit_heads != defaults.vit_heads) out["encoder"]["vit_heads"] = d.encoder.vit_heads;
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
  const auto malformed = [&](const std::string& why) {
    throw InvalidArgument(argument, "holds a malformed model description (" + why + ")");
  };
  // A size field: a whole number (16.5 or "16" is not 16), positive and small enough to build.
  const auto whole = [&](const json& object, const char* key) {
    const json& v = object.at(key);
    if (!v.is_number_integer()) malformed(std::string(key) + " must be a whole number, got " + json_excerpt(v));
    const auto value = v.get<int64_t>();
    if (value < 1 || value > (int64_t{1} << 24)) malformed(std::string(key) + " must be in [1, 16777216], got " + json_excerpt(v));
    return value;
  };
  const auto text_field = [&](const json& object, const char* key) {
    const json& v = object.at(key);
    if (!v.is_string()) malformed(std::string(key) + " must be a string, got " + json_excerpt(v));
    return v.get<std::string>();
  };
  try {
    // A user's file: its nesting bounded before any of it is walked or dumped.
    const json in = parse_json_input(text, argument, "holds a model description that");
    if (!in.is_object()) malformed("not a JSON object");
    if (text_field(in, "format") != "geomsim-checkpoint-1") {
      throw InvalidArgument(argument, "holds an unknown model description format '" + in.at("format").get<std::string>() + "'");
    }
    ModelDescription d;
    const json& e = in.at("encoder");
    if (!e.is_object()) malformed("encoder must be an object");
    d.encoder.kind = text_field(e, "kind");
    d.encoder.channels = whole(e, "channels");
    d.encoder.image_size = whole(e, "image_size");
    d.encoder.embedding_dim = whole(e, "embedding_dim");
    d.encoder.width = whole(e, "width");
    if (e.contains("vit_layers")) d.encoder.vit_layers = whole(e, "vit_layers");
    if (e.contains("vit_heads")) d.encoder.vit_heads = whole(e, "vit_heads");
    try {
      validate(d.encoder);
    } catch (const InvalidArgument& error) {
      malformed("encoder " + error.argument() + " " + error.requirement());
    }
    if (!in.at("autoencoder").is_null()) {
      const json& a = in.at("autoencoder");
      if (!a.is_object()) malformed("autoencoder must be an object or null");
      AutoencoderOptions o;
      o.classes = whole(a, "classes");
      // Checkpoints written before the modes had a class_conditional flag: per-class or general decoders.
      if (a.contains("mode")) {
        o.mode = text_field(a, "mode");
      } else {
        if (!a.at("class_conditional").is_boolean()) malformed("class_conditional must be true or false");
        o.mode = a.at("class_conditional").get<bool>() ? "per-class" : "general";
      }
      const auto rate = [&](const char* key) {
        if (!a.contains(key)) return 0.0;
        if (!a.at(key).is_number()) malformed(std::string(key) + " must be a number, got " + json_excerpt(a.at(key)));
        return a.at(key).get<double>();
      };
      o.dropout = rate("dropout");
      o.label_smoothing = rate("label_smoothing");
      o.latent_dim = whole(a, "latent_dim");
      o.width = whole(a, "width");
      o.channels = whole(a, "channels");
      o.image_size = whole(a, "image_size");
      try {
        validate(o);
      } catch (const InvalidArgument& error) {
        malformed("autoencoder " + error.argument() + " " + error.requirement());
      }
      d.autoencoder = o;
    }
    d.autoencoder_only = in.value("embedding", std::string("encoder")) == "autoencoder";
    if (d.autoencoder_only && !d.autoencoder) malformed("an autoencoder-only embedding without an autoencoder");
    if (!in.at("run").is_object()) malformed("run must be an object");
    d.run = in.at("run").dump();
    return d;
  } catch (const json::exception& error) {
    malformed(error.what());
  }
  return {};
}

void load_module(torch::nn::Module& module, torch::serialize::InputArchive& archive, const std::string& key,
                 const std::string& path, const std::string& argument) {
  std::map<std::string, std::vector<int64_t>> expected;
  for (const auto& p : module.named_parameters()) expected[p.key()] = p.value().sizes().vec();
  for (const auto& b : module.named_buffers()) expected[b.key()] = b.value().sizes().vec();
  torch::serialize::InputArchive part;
  archive.read(key, part);
  module.load(part);
  const auto check = [&](const std::string& name, const torch::Tensor& tensor) {
    const auto& shape = expected.at(name);
    if (tensor.sizes().vec() != shape) {
      std::ostringstream message;
      message << path << ": the weights do not match the stored description: " << key << "." << name << " is "
              << tensor.sizes() << " where the description needs " << c10::IntArrayRef(shape);
      throw InvalidArgument(argument, message.str());
    }
  };
  for (const auto& p : module.named_parameters()) check(p.key(), p.value());
  for (const auto& b : module.named_buffers()) check(b.key(), b.value());
}

void write_model_description(torch::serialize::OutputArchive& archive, const ModelDescription& description) {
  archive.write(kModelDescriptionKey, c10::IValue(to_json_text(description)));
}

bool is_geomsim_checkpoint(const std::string& path) {
  try {
    auto archive = open_archive(path, "checkpoint");
    return archive && stored_description(*archive).has_value();
  } catch (const InvalidArgument&) {
    return false;
  }
}

std::optional<CheckpointModel> try_load_checkpoint_model(const std::string& path, const std::string& argument) {
  if (!std::filesystem::is_regular_file(path)) throw InvalidArgument(argument, "file not found: " + path);
  if (verify_archive(path, argument) == ArchiveCheck::not_a_zip) return std::nullopt;
  auto archive = open_archive(path, argument);
  if (!archive) return std::nullopt;
  const auto text = stored_description(*archive);
  if (!text) return std::nullopt;
  CheckpointModel model;
  model.description = model_description_from_json(*text, argument);
  try {
    model.encoder = Encoder(model.description.encoder);
    load_module(*model.encoder, *archive, "encoder", path, argument);
    model.encoder->eval();
    if (model.description.autoencoder) {
      model.autoencoder = Autoencoder(*model.description.autoencoder);
      load_module(*model.autoencoder, *archive, "autoencoder", path, argument);
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
  if (!open_archive(path, argument)) throw InvalidArgument(argument, path + " is not a torch archive (missing, truncated or corrupt)");
  throw InvalidArgument(argument, path + " holds no geomsim model description (not written by geomsim train, or by "
                                         "a version before checkpoints described their model)");
}

}  // namespace geomsim::train
