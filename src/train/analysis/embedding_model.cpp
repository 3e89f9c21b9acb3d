#include "geomsim/train/analysis/embedding_model.hpp"

#include <cmath>
#include <sstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"

namespace geomsim::train {
namespace {

std::string shape_text(const torch::Tensor& t) {
  std::ostringstream s;
  s << t.sizes();
  return s.str();
}

// The line of a libtorch or TorchScript error that says what went wrong: a TorchScript
// interpreter error ends with "RuntimeError: <message>" after its traceback; a c10::Error
// starts with its message.
std::string short_message(const std::exception& error) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&error);
  std::istringstream text(c10_error ? c10_error->what_without_backtrace() : error.what());
  std::string line, first, last_error;
  while (std::getline(text, line)) {
    if (first.empty() && !line.empty()) first = line;
    if (line.rfind("RuntimeError: ", 0) == 0) last_error = line.substr(14);
  }
  return last_error.empty() ? first : last_error;
}

// The last component of a TorchScript class name: "Linear" for __torch__.torch.nn.modules.linear.Linear.
std::string short_type(const torch::jit::Module& module) {
  const auto name = module.type()->name();
  if (!name) return "?";
  const std::string full = name->qualifiedName();
  return full.substr(full.rfind('.') + 1);
}

std::vector<int64_t> int_values(const c10::IValue& value) {
  if (value.isInt()) return {value.toInt()};
  std::vector<int64_t> out;
  if (value.isIntList()) {
    for (const auto v : value.toIntVector()) out.push_back(v);
  } else if (value.isTuple()) {
    for (const auto& v : value.toTupleRef().elements()) out.push_back(v.toInt());
  }
  return out;
}

// Max pooling is sqrt(m)-Lipschitz in the 2-norm, m the most windows one input lies in:
// each output moves by at most the largest change in its window.
double max_pool_constant(const std::vector<int64_t>& kernel, std::vector<int64_t> stride) {
  if (stride.empty()) stride = kernel;
  double windows = 1.0;
  for (std::size_t k = 0; k < kernel.size(); ++k) {
    const int64_t s = stride[std::min(k, stride.size() - 1)];
    windows *= std::ceil(static_cast<double>(kernel[k]) / static_cast<double>(std::max<int64_t>(s, 1)));
  }
  if (kernel.size() == 1) windows *= windows;  // one value stands for both spatial sides
  return std::sqrt(windows);
}

constexpr const char* kKnownLayers =
    "Linear, Conv1d/2d/3d, ConvTranspose2d, BatchNorm1d/2d, AvgPool1d/2d, ReLU, LeakyReLU, Tanh, Sigmoid, MaxPool2d, "
    "Flatten, Dropout, Identity and nested Sequential";

void append_script_layers(const torch::jit::Module& module, const std::string& prefix, LayerChain& chain) {
  const std::string type = short_type(module);
  const std::string name = (prefix.empty() ? std::string("(top)") : prefix) + " (" + type + ")";
  const auto apply = [handle = torch::jit::Module(module)](const torch::Tensor& x) mutable {
    return handle.forward({x}).toTensor();
  };
  if (type == "Sequential") {
    for (const auto& child : module.named_children()) {
      append_script_layers(child.value, prefix.empty() ? child.name : prefix + "." + child.name, chain);
      if (!chain.unsupported.empty()) return;
    }
    return;
  }
  ChainLayer layer;
  layer.name = name;
  layer.apply = apply;
  if (type == "Linear") {
    layer.affine = true;
    layer.weight = module.attr("weight").toTensor();
  } else if (type == "Conv2d" && module.attr("groups").toInt() == 1) {
    layer.affine = true;
    const auto dilation = int_values(module.attr("dilation"));
    if (!dilation.empty() && (dilation.size() == 1 || dilation[1] == dilation[0])) {  // the FFT bound's case
      layer.conv_kernel = module.attr("weight").toTensor();
      layer.conv_dilation = dilation.front();
    }
  } else if (type == "Conv1d" || type == "Conv2d" || type == "Conv3d" || type == "ConvTranspose2d" || type == "BatchNorm1d" ||
             type == "BatchNorm2d" || type == "AvgPool1d" || type == "AvgPool2d") {
    layer.affine = true;
  } else if (type == "ReLU" || type == "Tanh" || type == "Flatten" || type == "Dropout" || type == "Identity") {
    layer.lipschitz = 1.0;
  } else if (type == "Sigmoid") {
    layer.lipschitz = 0.25;
  } else if (type == "LeakyReLU") {
    layer.lipschitz = std::max(1.0, std::abs(module.attr("negative_slope").toDouble()));
  } else if (type == "MaxPool2d") {
    layer.lipschitz = max_pool_constant(int_values(module.attr("kernel_size")), int_values(module.attr("stride")));
  } else {
    chain.unsupported = "layer " + name + " is not one geomsim can bound (it knows " + kKnownLayers + ")";
    return;
  }
  chain.layers.push_back(std::move(layer));
}

}  // namespace

EmbeddingModel EmbeddingModel::load(const std::string& path, const std::string& argument) {
  if (auto checkpoint = try_load_checkpoint_model(path, argument)) {
    EmbeddingModel model = from_encoder(checkpoint->description.autoencoder_only ? Encoder{nullptr} : checkpoint->encoder,
                                        checkpoint->autoencoder);
    model.run_ = checkpoint->description.run;
    return model;
  }
  torch::jit::Module module;
  try {
    module = torch::jit::load(path, torch::kCPU);
  } catch (const std::exception& error) {
    throw InvalidArgument(argument, path + " is neither a geomsim checkpoint nor a TorchScript module (" + short_message(error) + ")");
  }
  if (!module.find_method("forward")) {
    throw InvalidArgument(argument, path + " is a torch archive without a forward method (not a model saved by torch.jit.save)");
  }
  return from_script(module);
}

EmbeddingModel EmbeddingModel::from_encoder(Encoder encoder, Autoencoder autoencoder) {
  if (!encoder && !autoencoder) throw InvalidArgument("model", "needs an encoder or an autoencoder");
  EmbeddingModel m;
  m.encoder_ = encoder;
  m.autoencoder_ = autoencoder;
  if (m.encoder_) m.encoder_->eval();
  if (m.autoencoder_) m.autoencoder_->eval();
  return m;
}

EmbeddingModel EmbeddingModel::from_script(torch::jit::Module module) {
  EmbeddingModel m;
  module.eval();
  m.script_ = module;
  return m;
}

std::string EmbeddingModel::description() const {
  if (script_) {
    const auto name = script_->type()->name();
    return "TorchScript module " + (name ? name->qualifiedName() : std::string("?"));
  }
  if (!encoder_) return "geomsim autoencoder alone (its f_AE embedding), latent " + std::to_string(autoencoder_->options().latent_dim);
  const EncoderOptions& o = encoder_->options();
  return "geomsim " + o.kind + " encoder, d = " + std::to_string(o.embedding_dim) + (autoencoder_ ? ", with autoencoder" : "");
}

void EmbeddingModel::set_map(Map map) {
  if (map == Map::features && script_) {
    throw InvalidArgument("map", "features is only for geomsim checkpoints; a TorchScript module's map is its forward");
  }
  map_ = map;
}

void EmbeddingModel::to_double() {
  if (script_) {
    script_->to(torch::kDouble);
    return;
  }
  if (encoder_) encoder_->to(torch::kDouble);
  if (autoencoder_) autoencoder_->to(torch::kDouble);
}

torch::ScalarType EmbeddingModel::dtype() const {
  if (script_) {
    for (const auto& p : script_->parameters()) return p.scalar_type();
    return torch::kFloat;
  }
  return (encoder_ ? encoder_->parameters() : autoencoder_->parameters()).front().scalar_type();
}

void EmbeddingModel::to(const c10::Device& device) {
  if (encoder_) encoder_->to(device);
  if (autoencoder_) autoencoder_->to(device);
  if (script_) script_->to(device);
  device_ = device;
}

torch::Tensor EmbeddingModel::prepare(const torch::Tensor& images) const {
  const auto x = images.to(device_, dtype());
  return flatten_ ? x.flatten(1) : x;
}

torch::Tensor EmbeddingModel::forward(const torch::Tensor& images) {
  const auto z = raw_forward(images);
  require_finite(z);
  return z;
}

torch::Tensor EmbeddingModel::raw_forward(const torch::Tensor& images) {
  const auto x = prepare(images);
  if (!script_ && !encoder_) {  // the autoencoder alone: f_AE, normalised unless Map::features
    const auto latent = autoencoder_->encode(x);
    return map_ == Map::features ? latent : torch::nn::functional::normalize(latent, torch::nn::functional::NormalizeFuncOptions().dim(1));
  }
  if (!script_) {
    return map_ == Map::features ? encoder_->features(x) : encoder_->forward(x);
  }
  c10::IValue out;
  try {
    out = script_->forward({x});
  } catch (const std::exception& error) {
    throw InvalidArgument("images", "of shape " + shape_text(x) + " are rejected by the TorchScript module" +
                                        (flatten_ ? "" : " (--flatten gives it N x (H W) rows)") + ": " + short_message(error));
  }
  if (!out.isTensor()) throw InvalidArgument("checkpoint", "the TorchScript module must return one tensor, got " + out.tagKind());
  const auto z = out.toTensor();
  if (z.dim() != 2 || z.size(0) != images.size(0) || z.size(1) == 0) {
    throw InvalidArgument("checkpoint", "the TorchScript module must return N x d embeddings (d >= 1) for N inputs; got shape " +
                                            shape_text(z) + " for " + std::to_string(images.size(0)) + " inputs");
  }
  // Integers, booleans and complex numbers are not points of R^d: casting them would measure
  // something else (a complex output lost its imaginary part).
  if (!at::isFloatingType(z.scalar_type())) {
    throw InvalidArgument("checkpoint", std::string("the TorchScript module must return real floating-point embeddings, got ") +
                                            c10::toString(z.scalar_type()));
  }
  return z;
}

void EmbeddingModel::require_finite(const torch::Tensor& z) {
  const auto finite = torch::isfinite(z.detach()).all(1);
  const int64_t bad = z.size(0) - finite.sum().item<int64_t>();
  if (bad > 0) {
    throw InvalidArgument("checkpoint", "the model's output is not finite (nan or inf) for " + std::to_string(bad) + " of " +
                                            std::to_string(z.size(0)) + " inputs: its weights are not finite, or it overflows");
  }
}

torch::Tensor EmbeddingModel::embed(const torch::Tensor& images, int64_t batch_size) {
  if (!script_) {
    // In batches from the CPU: embed() moves each batch to the model's device.
    const auto x = images.to(dtype());
    auto z = train::embed(encoder_, flatten_ ? x.flatten(1) : x, batch_size, autoencoder_);
    require_finite(z);
    return z;
  }
  require_at_least("batch_size", batch_size, 1);
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    parts.push_back(forward(images.narrow(0, start, std::min(batch_size, images.size(0) - start))).to(torch::kCPU));
  }
  return torch::cat(parts);
}

LayerChain EmbeddingModel::layer_chain() const {
  LayerChain chain;
  if (script_) {
    if (short_type(*script_) != "Sequential") {
      chain.unsupported = "the module is a " + short_type(*script_) + ", not an nn.Sequential, so its forward is not a known chain of layers";
      return chain;
    }
    append_script_layers(*script_, "", chain);
    if (!chain.unsupported.empty()) chain.layers.clear();
    return chain;
  }
  if (map_ == Map::embedding) {
    chain.unsupported = "the embedding ends in the L2 normalisation x/|x|, which has no global Lipschitz constant "
                        "(1/|x| near 0); the bound is for --map features";
    return chain;
  }
  if (!encoder_) {
    chain.unsupported = "the autoencoder's f_AE (with its dropout layer) is not a chain geomsim bounds";
    return chain;
  }
  const auto body = encoder_->body();
  if (!body) {
    chain.unsupported = "the vit encoder's self-attention has no global Lipschitz constant";
    return chain;
  }
  for (const auto& child : body->named_children()) {
    ChainLayer layer;
    const auto& module = child.value();
    layer.name = "body." + child.key() + " (" + module->name() + ")";
    if (auto linear = std::dynamic_pointer_cast<torch::nn::LinearImpl>(module)) {
      layer.affine = true;
      layer.weight = linear->weight;
      layer.apply = [linear](const torch::Tensor& x) { return linear->forward(x); };
    } else if (auto conv = std::dynamic_pointer_cast<torch::nn::Conv2dImpl>(module)) {
      layer.affine = true;
      const auto& o = conv->options;
      if (o.groups() == 1 && o.dilation()->at(0) == o.dilation()->at(1)) {
        layer.conv_kernel = conv->weight;
        layer.conv_dilation = o.dilation()->at(0);
      }
      layer.apply = [conv](const torch::Tensor& x) { return conv->forward(x); };
    } else if (auto relu = std::dynamic_pointer_cast<torch::nn::ReLUImpl>(module)) {
      layer.apply = [relu](const torch::Tensor& x) { return relu->forward(x); };
    } else if (auto flatten = std::dynamic_pointer_cast<torch::nn::FlattenImpl>(module)) {
      layer.apply = [flatten](const torch::Tensor& x) { return flatten->forward(x); };
    } else if (auto pool = std::dynamic_pointer_cast<torch::nn::MaxPool2dImpl>(module)) {
      const auto& o = pool->options;
      layer.lipschitz = max_pool_constant({o.kernel_size()->at(0), o.kernel_size()->at(1)}, {o.stride()->at(0), o.stride()->at(1)});
      layer.apply = [pool](const torch::Tensor& x) { return pool->forward(x); };
    } else {
      chain.unsupported = "layer " + layer.name + " is not one geomsim can bound";
      chain.layers.clear();
      return chain;
    }
    chain.layers.push_back(std::move(layer));
  }
  return chain;
}

}  // namespace geomsim::train
