#include "geomsim/train/robustness/robust_training.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "geomsim/metrics/group_accuracy.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/tensor_points.hpp"

namespace geomsim::train {
namespace {

constexpr const char* kOptionsKey = "run_options";

void check_rows(const torch::Tensor& images, const torch::Tensor& labels, const char* what) {
  if (!images.defined() || !labels.defined() || images.dim() != 4 || labels.dim() != 1 || images.size(0) != labels.size(0) ||
      images.size(0) == 0) {
    throw InvalidArgument(what, "needs N >= 1 images (N x C x H x W) and N labels");
  }
}

// One epoch's visiting order: the examples drawn (groupdro) or each repeated and shuffled (erm).
torch::Tensor epoch_order(const EndModelOptions& o, const EndModelData& d, const torch::Tensor& draw_weights) {
  if (o.objective == "groupdro") return torch::multinomial(draw_weights, d.images.size(0), true);
  return erm_epoch_order(d.repeats, d.images.size(0));
}

GroupAccuracy validation_accuracy(Classifier& model, const EndModelData& d) {
  return group_accuracy(to_ints(predict(model, d.validation_images)), to_ints(d.validation_labels), to_ints(d.validation_groups),
                        static_cast<int>(d.validation_num_groups));
}

std::vector<torch::Tensor> copy_parameters(Classifier& model) {
  std::vector<torch::Tensor> out;
  for (const auto& p : model->parameters()) out.push_back(p.detach().clone());
  return out;
}

void load_parameters(Classifier& model, const std::vector<torch::Tensor>& values) {
  torch::NoGradGuard no_grad;
  auto parameters = model->parameters();
  for (std::size_t i = 0; i < parameters.size(); ++i) parameters[i].copy_(values[i]);
}

}  // namespace

ClassifierImpl::ClassifierImpl(const EncoderOptions& options, int64_t num_classes) {
  require_at_least("classes", num_classes, 2);
  if (options.kind == "linear") {
    require_at_least("image_size", options.image_size, 1);
    require_at_least("channels", options.channels, 1);
    head = register_module("head", torch::nn::Linear(options.channels * options.image_size * options.image_size, num_classes));
    return;
  }
  encoder = register_module("encoder", Encoder(options));
  head = register_module("head", torch::nn::Linear(options.embedding_dim, num_classes));
}

torch::Tensor ClassifierImpl::forward(const torch::Tensor& images) {
  return head->forward(encoder ? encoder->features(images) : images.flatten(1));
}

torch::Tensor erm_epoch_order(const std::vector<int64_t>& repeats, int64_t n) {
  if (repeats.empty()) return torch::randperm(n, torch::kLong);
  std::vector<int64_t> expanded;
  for (std::size_t i = 0; i < repeats.size(); ++i) expanded.insert(expanded.end(), static_cast<std::size_t>(repeats[i]), static_cast<int64_t>(i));
  const auto list = torch::tensor(expanded, torch::kLong);
  return list.index_select(0, torch::randperm(list.size(0), torch::kLong));
}

Classifier make_classifier(const EncoderOptions& encoder, int64_t num_classes, uint64_t seed) {
  torch::manual_seed(seed);
  return Classifier(encoder, num_classes);
}

torch::Tensor predict(Classifier& model, const torch::Tensor& images, int64_t batch_size) {
  require_at_least("batch_size", batch_size, 1);
  torch::NoGradGuard no_grad;
  model->eval();
  const auto device = model->parameters().front().device();
  std::vector<torch::Tensor> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    const int64_t count = std::min(batch_size, images.size(0) - start);
    parts.push_back(model->forward(images.narrow(0, start, count).to(device)).argmax(1).to(torch::kCPU));
  }
  return torch::cat(parts);
}

void validate(const EndModelOptions& o) {
  if (o.objective != "erm" && o.objective != "groupdro") {
    throw InvalidArgument("objective", "must be erm or groupdro; got '" + o.objective + "'");
  }
  require_at_least("epochs", o.epochs, 1);
  require_at_least("batch-size", o.batch_size, 1);
  require_positive("lr", o.learning_rate);
  require_in_closed_range("momentum", o.momentum, 0.0, 0.999);
  require_non_negative("l2", o.l2);
  validate(o.dro);
  require_at_least("stop-after", o.stop_after, 0);
  try {
    if (!nlohmann::json::parse(o.run_description).is_object()) throw InvalidArgument("run_description", "must be a JSON object");
  } catch (const nlohmann::json::exception&) {
    throw InvalidArgument("run_description", "must be a JSON object");
  }
}

void require_same_run(const std::string& stored, const std::string& current, const std::string& path) {
  if (stored == current) return;
  std::string differences;
  try {
    const auto a = nlohmann::json::parse(stored), b = nlohmann::json::parse(current);
    for (const auto& [key, value] : b.items()) {
      const std::string was = a.contains(key) ? a.at(key).dump() : "absent";
      if (was != value.dump()) differences += (differences.empty() ? "" : ", ") + key + " " + was + " (now " + value.dump() + ")";
    }
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key)) differences += (differences.empty() ? "" : ", ") + key + " " + value.dump() + " (now absent)";
    }
  } catch (const nlohmann::json::exception&) {
    differences = "an unreadable description";
  }
  throw InvalidArgument("checkpoint", path + " was written by a run with other options (" + differences +
                                          "); resume with the same options, or give another --checkpoint");
}

EndModelResult train_end_model(Classifier& model, int64_t num_classes, const EndModelData& d, const EndModelOptions& o,
                               const std::function<void(const std::string&)>& progress) {
  validate(o);
  check_rows(d.images, d.labels, "images");
  check_rows(d.validation_images, d.validation_labels, "validation");
  const int64_t n = d.images.size(0);
  if (d.labels.min().item<int64_t>() < 0 || d.labels.max().item<int64_t>() >= num_classes) {
    throw InvalidArgument("labels", "must be in 0.." + std::to_string(num_classes - 1));
  }
  if (!d.validation_groups.defined() || d.validation_groups.size(0) != d.validation_images.size(0)) {
    throw InvalidArgument("validation", "needs one selection group per validation image");
  }
  if (!d.repeats.empty()) {
    if (static_cast<int64_t>(d.repeats.size()) != n) throw InvalidArgument("repeats", "need one count per training image");
    if (*std::min_element(d.repeats.begin(), d.repeats.end()) < 0) throw InvalidArgument("repeats", "must be >= 0");
  }
  const bool dro = o.objective == "groupdro";
  std::vector<int64_t> counts;
  torch::Tensor draw_weights;
  if (dro) {
    if (!d.groups.defined() || d.groups.dim() != 1 || d.groups.size(0) != n) throw InvalidArgument("groups", "need one group per training image");
    const auto g = d.groups.to(torch::kLong);
    if (g.min().item<int64_t>() < 0 || g.max().item<int64_t>() >= d.num_groups) {
      throw InvalidArgument("groups", "must be in 0.." + std::to_string(d.num_groups - 1));
    }
    const auto bins = torch::bincount(g, {}, d.num_groups);
    counts.assign(bins.data_ptr<int64_t>(), bins.data_ptr<int64_t>() + d.num_groups);
    draw_weights = (1.0 / bins.to(torch::kDouble).clamp_min(1)).index_select(0, g);
  }
  GroupDro group_dro(dro ? counts : std::vector<int64_t>{1}, o.dro);

  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  model->to(device);
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(o.learning_rate).momentum(o.momentum).weight_decay(o.l2));
  EndModelResult result;
  result.device = device.is_cuda() ? "cuda" : "cpu";
  std::vector<torch::Tensor> best = copy_parameters(model);
  double best_worst = -1.0;
  torch::manual_seed(o.seed);

  if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
    c10::IValue stored;
    try {
      torch::serialize::InputArchive archive;
      archive.load_from(o.checkpoint);
      if (!archive.try_read(kOptionsKey, stored) || !stored.isString()) {
        throw InvalidArgument("checkpoint", o.checkpoint + " is not a checkpoint of a robustness end model");
      }
      require_same_run(stored.toStringRef(), o.run_description, o.checkpoint);
      torch::serialize::InputArchive part;
      archive.read("model", part);
      model->load(part);
      archive.read("optimizer", part);
      optimizer.load(part);
      torch::Tensor history, rng, best_epoch, log_weights;
      archive.read("history", history);
      archive.read("rng", rng);
      archive.read("best_epoch", best_epoch);
      archive.read("dro_log_weights", log_weights);
      for (std::size_t i = 0; i < best.size(); ++i) archive.read("best_" + std::to_string(i), best[i]);
      if (dro) group_dro.set_log_weights(log_weights);
      auto generator = at::detail::getDefaultCPUGenerator();  // a handle to the global generator
      generator.set_state(rng);
      for (int64_t e = 0; e < history.size(0); ++e) {
        result.epochs.push_back({e + 1, history[e][0].item<double>(), history[e][1].item<double>(), history[e][2].item<double>(),
                                 history[e][3].item<double>()});
      }
      result.best_epoch = best_epoch.item<int64_t>();
      if (result.best_epoch > 0) best_worst = result.epochs[static_cast<std::size_t>(result.best_epoch - 1)].validation_worst;
    } catch (const c10::Error& e) {
      throw InvalidArgument("checkpoint", o.checkpoint + " is not a readable robustness checkpoint for this model (" +
                                              std::string(e.what_without_backtrace()) + ")");
    }
    result.resumed_epochs = static_cast<int64_t>(result.epochs.size());
  }

  const int64_t last = o.stop_after > 0 ? std::min(o.epochs, o.stop_after) : o.epochs;
  for (int64_t epoch = result.resumed_epochs; epoch < last; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    model->train();
    const auto order = epoch_order(o, d, draw_weights);
    double total = 0.0;
    int64_t steps = 0;
    for (int64_t first = 0; first < order.size(0); first += o.batch_size) {
      const auto idx = order.narrow(0, first, std::min(o.batch_size, order.size(0) - first));
      const auto x = d.images.index_select(0, idx).to(device);
      const auto y = d.labels.index_select(0, idx).to(device);
      const auto losses = torch::nn::functional::cross_entropy(
          model->forward(x), y, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
      const auto loss = dro ? group_dro.robust_loss(losses, d.groups.index_select(0, idx).to(device)) : losses.mean();
      const double value = loss.item<double>();
      if (!std::isfinite(value)) {
        throw InvalidArgument("lr", "is too large: the training loss became non-finite in epoch " + std::to_string(epoch + 1) +
                                        " (lower --lr, or --dro-eta for Group DRO)");
      }
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      total += value;
      ++steps;
    }
    const GroupAccuracy validation = validation_accuracy(model, d);
    if (validation.worst > best_worst) {
      best_worst = validation.worst;
      best = copy_parameters(model);
      result.best_epoch = epoch + 1;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.epochs.push_back({epoch + 1, total / static_cast<double>(std::max<int64_t>(steps, 1)), validation.worst,
                             validation.average, seconds});
    if (progress) {
      std::ostringstream line;
      line << "epoch " << epoch + 1 << "/" << o.epochs << ": loss " << result.epochs.back().loss << ", validation worst-group "
           << validation.worst << ", average " << validation.average;
      progress(line.str());
    }
    if (!o.checkpoint.empty()) {
      torch::serialize::OutputArchive archive, model_part, optimizer_part;
      model->save(model_part);
      optimizer.save(optimizer_part);
      archive.write("model", model_part);
      archive.write("optimizer", optimizer_part);
      auto history = torch::zeros({static_cast<int64_t>(result.epochs.size()), 4}, torch::kDouble);
      for (std::size_t e = 0; e < result.epochs.size(); ++e) {
        const auto i = static_cast<int64_t>(e);
        history[i][0] = result.epochs[e].loss;
        history[i][1] = result.epochs[e].validation_worst;
        history[i][2] = result.epochs[e].validation_average;
        history[i][3] = result.epochs[e].seconds;
      }
      archive.write("history", history);
      archive.write("best_epoch", torch::tensor(result.best_epoch));
      archive.write("dro_log_weights", group_dro.log_weights());
      for (std::size_t i = 0; i < best.size(); ++i) archive.write("best_" + std::to_string(i), best[i]);
      archive.write("rng", at::detail::getDefaultCPUGenerator().get_state());
      archive.write(kOptionsKey, c10::IValue(o.run_description));
      const std::string temporary = o.checkpoint + ".partial";
      archive.save_to(temporary);
      std::filesystem::rename(temporary, o.checkpoint);  // atomic: a stop leaves the previous epoch's file
    }
  }
  result.finished = static_cast<int64_t>(result.epochs.size()) == o.epochs;
  if (dro) {
    const auto q = group_dro.weights();
    result.group_weights.assign(q.data_ptr<double>(), q.data_ptr<double>() + q.numel());
  }
  if (!o.keep_last) load_parameters(model, best);
  model->eval();
  return result;
}

}  // namespace geomsim::train
