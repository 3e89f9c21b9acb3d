#include "geomsim/train/robustness/robust_training.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "geomsim/metrics/group_accuracy.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train/distributed/data_parallel.hpp"
#include "geomsim/train/training/epoch_loop.hpp"

namespace geomsim::train {
namespace {

constexpr const char* kOptionsKey = "run_options";

void check_rows(const torch::Tensor& images, const torch::Tensor& labels, const char* what) {
  if (!images.defined() || !labels.defined() || images.dim() != 4 || labels.dim() != 1 || images.size(0) != labels.size(0) ||
      images.size(0) == 0) {
    throw InvalidArgument(what, "needs N >= 1 images (N x C x H x W) and N labels");
  }
}

GroupAccuracy validation_accuracy(Classifier& model, const EndModelData& d, const DistributedContext& job) {
  return group_accuracy(to_ints(predict(model, d.validation_images, job)), to_ints(d.validation_labels), to_ints(d.validation_groups),
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

torch::Tensor erm_epoch_order(const std::vector<int64_t>& repeats, int64_t n, const torch::Device& on) {
  // A device without a generator (meta) gets an order drawn on the CPU.
  const torch::Device device = default_generator(on) ? on : torch::Device(torch::kCPU);
  const auto options = torch::TensorOptions().dtype(torch::kLong).device(device);
  if (repeats.empty()) return torch::randperm(n, options);
  std::vector<int64_t> expanded;
  for (std::size_t i = 0; i < repeats.size(); ++i) expanded.insert(expanded.end(), static_cast<std::size_t>(repeats[i]), static_cast<int64_t>(i));
  const auto list = torch::tensor(expanded, torch::kLong).to(device);
  return list.index_select(0, torch::randperm(list.size(0), options));
}

namespace {

// The cross-entropy of each example: what every end-model objective is made of.
torch::Tensor example_losses(Classifier& model, const torch::Tensor& images, const torch::Tensor& labels) {
  return torch::nn::functional::cross_entropy(model->forward(images), labels,
                                              torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
}

}  // namespace

torch::Tensor end_model_loss(Classifier& model, const torch::Tensor& images, const torch::Tensor& labels, const torch::Tensor& groups,
                             GroupDro* group_dro) {
  const auto losses = example_losses(model, images, labels);
  return group_dro ? group_dro->robust_loss(losses, groups, /*groups_checked=*/true) : losses.mean();
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

torch::Tensor predict(Classifier& model, const torch::Tensor& images, const DistributedContext& job) {
  if (!job.distributed() || images.size(0) == 0) return predict(model, images);
  return gather_row_shards(job, images.size(0), [&](int64_t first, int64_t count) {
           return predict(model, images.narrow(0, first, count));
         }).to(torch::kCPU);
}

void validate(const EndModelOptions& o) {
  if (o.objective != "erm" && o.objective != "groupdro") {
    throw InvalidArgument("objective", "must be erm or groupdro; got '" + o.objective + "'");
  }
  require_at_least("epochs", o.epochs, 1);
  require_at_least("batch-size", o.batch_size, 1);
  // The weights are float32: a larger step cannot even be applied (libtorch throws on the conversion).
  if (!(o.learning_rate > 0 && o.learning_rate <= static_cast<double>(std::numeric_limits<float>::max()))) {
    throw InvalidArgument("lr", "must be in (0, 3.4e38] (the largest float32: the weights' type), got " + format_number(o.learning_rate));
  }
  require_in_closed_range("momentum", o.momentum, 0.0, 0.999);
  require_non_negative("l2", o.l2);
  validate(o.dro);
  require_at_least("stop-after", o.stop_after, 0);
  require_at_least("sync-every", o.sync_every, 1);
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
    // The stored description is the checkpoint's (a user's file): its depth bounded, its values
    // shown as excerpts.
    const auto a = parse_json_input(stored, "checkpoint", path + " holds a run description that"), b = nlohmann::json::parse(current);
    require_same_inputs(a, b, path);  // the inputs' contents, refused by the option that names them
    for (const auto& [key, value] : b.items()) {
      if (key == kInputContentsKey) continue;
      const bool same = a.contains(key) && a.at(key).dump() == value.dump();
      if (!same) {
        differences += (differences.empty() ? "" : ", ") + key + " " + (a.contains(key) ? json_excerpt(a.at(key)) : "absent") + " (now " +
                       json_excerpt(value) + ")";
      }
    }
    for (const auto& [key, value] : a.items()) {
      if (!b.contains(key) && key != kInputContentsKey) differences += (differences.empty() ? "" : ", ") + key + " " + json_excerpt(value) + " (now absent)";
    }
  } catch (const nlohmann::json::exception&) {
    differences = "an unreadable description";
  }
  if (differences.empty()) return;  // e.g. a description from before the inputs' contents were recorded
  throw InvalidArgument("checkpoint", path + " was written by a run with other options (" + differences +
                                          "); resume with the same options, or give another --checkpoint");
}

namespace {

// The options that decide an end model's trajectory, keyed by the CLI's option names (the
// objective has none: the method sets it). The run's description (every option of the command)
// is checked beside it.
std::string end_model_record(const EndModelOptions& o) {
  return nlohmann::json({{"objective", o.objective},
                         {"epochs", o.epochs},
                         {"batch-size", o.batch_size},
                         {"lr", o.learning_rate},
                         {"momentum", o.momentum},
                         {"l2", o.l2},
                         {"dro-eta", o.dro.step_size},
                         {"dro-adjustment", o.dro.adjustment},
                         {"seed", o.seed}})
      .dump();
}

// train_end_model's steps for the epoch loop.
class EndModelTask : public EpochTask {
 public:
  EndModelTask(const EndModelOptions& o, Classifier& model, torch::optim::SGD& optimizer, GroupDro* group_dro, torch::Tensor images,
               torch::Tensor labels, torch::Tensor groups, torch::Tensor draw_weights, const std::vector<int64_t>& repeats)
      : o_(o), model_(model), optimizer_(optimizer), group_dro_(group_dro), images_(std::move(images)), labels_(std::move(labels)),
        groups_(std::move(groups)), draw_weights_(std::move(draw_weights)), repeats_(repeats) {}

  int64_t begin_epoch(int64_t) override {
    model_->train();
    // One epoch's visiting order, on the data's device: the examples drawn (groupdro) or each
    // repeated and shuffled (erm).
    const int64_t n = images_.size(0);
    order_ = group_dro_ ? torch::multinomial(draw_weights_, n, true) : erm_epoch_order(repeats_, n, images_.device());
    order_ = order_.to(images_.device());
    return (order_.size(0) + o_.batch_size - 1) / o_.batch_size;
  }

  torch::Tensor loss(int64_t, int64_t step) override {
    const int64_t first = step * o_.batch_size;
    auto idx = order_.narrow(0, first, std::min(o_.batch_size, order_.size(0) - first));
    const auto& job = o_.distributed;
    const int64_t rows = idx.size(0);  // the global batch's
    if (job.distributed()) {
      const RowRange mine = uneven_shard(job, rows);
      idx = idx.narrow(0, mine.first, mine.count);
    }
    // index() gathers as index_select does (the same values), and has a meta kernel.
    const auto x = batch_to_device(images_.index({idx}), o_.device);
    const auto y = batch_to_device(labels_.index({idx}), o_.device);
    const auto g = group_dro_ ? batch_to_device(groups_.index({idx}), o_.device) : torch::Tensor();
    if (!job.distributed()) return end_model_loss(model_, x, y, g, group_dro_);
    // This rank's share of the global batch's loss (its gradients are summed over the ranks in
    // update()), valued as the global batch's loss on every rank.
    const auto losses = example_losses(model_, x, y);
    if (!group_dro_) {
      const auto local = losses.sum() / static_cast<double>(rows);
      auto global = local.detach().clone();
      job.all_reduce_(global, ReduceOperation::sum, "all-reduce of the step's loss");
      return global_value_local_gradient(global, local);
    }
    // Group DRO: the global batch's group sums and counts, so that q moves as in one process.
    const int64_t groups = group_dro_->num_groups();
    const GroupTotals mine = group_totals(losses, g, groups);
    auto totals = torch::cat({mine.sums.detach(), mine.counts});
    job.all_reduce_(totals, ReduceOperation::sum, "all-reduce of Group DRO's group losses");
    const auto counts = totals.narrow(0, groups, groups).clamp_min(1);
    const auto means = totals.narrow(0, 0, groups) / counts;
    const auto q = group_dro_->update_weights(means);
    return global_value_local_gradient((q * means).sum(), (q * (mine.sums / counts)).sum());
  }

  void update(const torch::Tensor& loss) override {
    optimizer_.zero_grad();
    loss.backward();
    // Each rank's gradient is its share of the global batch's: their sum (nothing with one rank).
    all_reduce_gradients(o_.distributed, *model_, {GradientReduction::sum});
    optimizer_.step();
  }

 private:
  const EndModelOptions& o_;
  Classifier& model_;
  torch::optim::SGD& optimizer_;
  GroupDro* group_dro_;
  torch::Tensor images_, labels_, groups_, draw_weights_, order_;
  const std::vector<int64_t>& repeats_;
};

}  // namespace

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
  const torch::Device device = o.device;
  std::vector<int64_t> counts;
  torch::Tensor draw_weights, groups;
  if (dro) {
    if (!d.groups.defined() || d.groups.dim() != 1 || d.groups.size(0) != n) throw InvalidArgument("groups", "need one group per training image");
    const auto g = d.groups.to(torch::kLong).to(torch::kCPU);
    if (g.min().item<int64_t>() < 0 || g.max().item<int64_t>() >= d.num_groups) {
      throw InvalidArgument("groups", "must be in 0.." + std::to_string(d.num_groups - 1));
    }
    const auto bins = torch::bincount(g, {}, d.num_groups);
    counts.assign(bins.data_ptr<int64_t>(), bins.data_ptr<int64_t>() + d.num_groups);
    draw_weights = (1.0 / bins.to(torch::kDouble).clamp_min(1)).index_select(0, g);
    groups = g;
  }
  GroupDro group_dro(dro ? counts : std::vector<int64_t>{1}, o.dro);

  // The model moves to the run's device after a resume has loaded it (on the CPU).
  torch::optim::SGD optimizer(model->parameters(),
                              torch::optim::SGDOptions(o.learning_rate).momentum(o.momentum).weight_decay(o.l2));
  EndModelResult result;
  result.device = device_name(device);
  std::vector<torch::Tensor> best = copy_parameters(model);
  double best_worst = -1.0;
  torch::manual_seed(o.seed);
  const std::string record = end_model_record(o);

  if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
    auto archive = open_run_checkpoint(o.checkpoint, "robustness checkpoint for this model");
    c10::IValue stored;
    if (!archive.try_read(kOptionsKey, stored) || !stored.isString()) {
      throw InvalidArgument("checkpoint", o.checkpoint + " is not a checkpoint of a robustness end model");
    }
    require_same_run(stored.toStringRef(), o.run_description, o.checkpoint);
    require_same_options(archive, record, device, o.device_explicit, o.checkpoint, o.distributed.world_size(),
                         finished_run(archive, o.epochs));
    try {
      torch::serialize::InputArchive part;
      archive.read("model", part);
      model->load(part);
      archive.read("optimizer", part);
      optimizer.load(part);
      torch::Tensor history, best_epoch, log_weights;
      archive.read("history", history);
      archive.read("best_epoch", best_epoch);
      archive.read("dro_log_weights", log_weights);
      for (std::size_t i = 0; i < best.size(); ++i) archive.read("best_" + std::to_string(i), best[i]);
      if (dro) group_dro.set_log_weights(log_weights);
      restore_generator_states(archive, device);
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
  // Loaded on the CPU (a checkpoint is portable across devices): now all to the run's device.
  move_module(*model, device);
  move_optimizer_state(optimizer, device);
  for (auto& b : best) b = b.to(device);
  // Every rank built the model from the same seed (or loaded the same checkpoint): rank 0's
  // weights everywhere all the same, so that the ranks cannot start apart.
  broadcast_parameters(o.distributed, *model);

  // The training data once on the device when it fits (data/device.hpp), else on the CPU.
  const auto data = place_training_data({d.images, d.labels.to(torch::kLong), groups, draw_weights}, device);
  EndModelTask task(o, model, optimizer, dro ? &group_dro : nullptr, data[0], data[1], data[2], data[3], d.repeats);
  EpochLoopOptions loop;
  loop.first_epoch = result.resumed_epochs;
  loop.epochs = o.epochs;
  loop.stop_after = o.stop_after;
  loop.sync_every = o.sync_every;
  loop.batch_size = o.batch_size;
  loop.device = device;
  loop.checkpoint = o.checkpoint;
  loop.divergence_advice = "; a smaller --lr (this run: " + format_number(o.learning_rate) + ")" +
                           (dro ? std::string(" or --dro-eta (this run: ") + format_number(o.dro.step_size) + ")" : std::string()) +
                           " usually helps";

  // Model selection: the epoch with the best worst-group validation accuracy, the earliest on ties.
  FunctionCallback selection([&](const EpochSummary& e) {
    const GroupAccuracy validation = validation_accuracy(model, d, o.distributed);  // the same on every rank
    if (validation.worst > best_worst) {
      best_worst = validation.worst;
      best = copy_parameters(model);
      result.best_epoch = e.epoch;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - e.start).count();
    result.epochs.push_back({e.epoch, e.loss, validation.worst, validation.average, seconds});
    return LoopControl::proceed();
  });
  FunctionCallback report([&](const EpochSummary& e) {
    if (progress) {
      std::ostringstream line;
      line << "epoch " << e.epoch << "/" << o.epochs << ": loss " << result.epochs.back().loss << ", validation worst-group "
           << result.epochs.back().validation_worst << ", average " << result.epochs.back().validation_average;
      progress(line.str());
    }
    return LoopControl::proceed();
  });
  FunctionCallback checkpoint([&](const EpochSummary&) {
    if (o.checkpoint.empty() || !o.distributed.is_main()) return LoopControl::proceed();  // rank 0 writes
    torch::serialize::OutputArchive archive, model_part, optimizer_part;
    model->save(model_part);
    optimizer.save(optimizer_part);
    archive.write("model", model_part);
    archive.write("optimizer", optimizer_part);
    auto table = torch::zeros({static_cast<int64_t>(result.epochs.size()), 4}, torch::kDouble);
    for (std::size_t e = 0; e < result.epochs.size(); ++e) {
      const auto i = static_cast<int64_t>(e);
      table[i][0] = result.epochs[e].loss;
      table[i][1] = result.epochs[e].validation_worst;
      table[i][2] = result.epochs[e].validation_average;
      table[i][3] = result.epochs[e].seconds;
    }
    archive.write("history", table);
    archive.write("best_epoch", torch::tensor(result.best_epoch));
    archive.write("dro_log_weights", group_dro.log_weights());
    for (std::size_t i = 0; i < best.size(); ++i) archive.write("best_" + std::to_string(i), best[i]);
    write_generator_states(archive, device);
    archive.write(kOptionsKey, c10::IValue(o.run_description));
    write_options_record(archive, record, device, o.distributed.world_size());
    save_run_checkpoint(archive, o.checkpoint);
    return LoopControl::proceed();
  });
  const LoopSummary summary = run_epoch_loop(task, loop, {&selection, &report, &checkpoint});
  result.stop_reason = summary.stop_reason;
  result.finished = static_cast<int64_t>(result.epochs.size()) == o.epochs;
  if (dro) {
    const auto q = group_dro.weights().to(torch::kCPU).contiguous();
    result.group_weights.assign(q.data_ptr<double>(), q.data_ptr<double>() + q.numel());
  }
  require_identical_weights(o.distributed, *model, "end model");
  if (!o.keep_last) load_parameters(model, best);
  model->eval();
  return result;
}

}  // namespace geomsim::train
