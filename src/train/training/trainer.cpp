#include "geomsim/train/training/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/data/cuda_runtime.hpp"
#include "geomsim/train/distributed/data_parallel.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/training/autocast.hpp"

namespace geomsim::train {
namespace {

// torch's CosineAnnealingLR (eta_min 0) at `step` of a period of `period_steps` steps.
double cosine_rate(double base, int64_t step, int64_t period_steps) {
  return 0.5 * base * (1.0 + std::cos(M_PI * static_cast<double>(step) / static_cast<double>(std::max<int64_t>(period_steps, 1))));
}

void set_rate(torch::optim::AdamW& optimizer, double rate) {
  for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(rate);
}

// Everything that decides a run's trajectory, keyed by the CLI's option names: a resume must
// repeat all of it. --stop-after is not here: stopping early and resuming is what it is for.
nlohmann::json training_record(const TrainOptions& o, const EncoderOptions& encoder, const Autoencoder& autoencoder) {
  nlohmann::json record = {{"loss", o.loss},
                           {"epochs", o.epochs},
                           {"batch-size", o.batch_size},
                           {"lr", o.learning_rate},
                           {"weight-decay", o.weight_decay},
                           {"seed", o.seed},
                           {"reconstruction-weight", o.reconstruction_weight},
                           {"model", encoder.kind},
                           {"embedding-dim", encoder.embedding_dim},
                           {"width", encoder.width},
                           {"channels", encoder.channels},
                           {"image-size", encoder.image_size},
                           {"cosine-period", o.cosine_period_epochs},
                           {"autoencoder", autoencoder ? autoencoder->options().mode : std::string("none")},
                           {"autoencoder-dropout", autoencoder ? autoencoder->options().dropout : 0.0},
                           {"label-smoothing", autoencoder ? autoencoder->options().label_smoothing : 0.0}};
  const EncoderOptions defaults;  // named only off their defaults: older checkpoints resume unchanged
  if (o.precision != "float32") record["precision"] = o.precision;
  // The loss parameters, from the registry: those the first checkpoints recorded always, the later
  // ones only off their defaults, so that older checkpoints resume unchanged. A flag is a boolean.
  static const std::set<std::string> always = {"alpha",       "tau",          "exclude-partner", "kernel-lambda",
                                               "kernel-bandwidth", "clip-cosine", "positive-weight", "negative-weight"};
  for (const LossParameter& p : loss_parameters()) {
    const double value = p.get(o.loss_options);
    if (always.count(p.name) > 0 || value != p.default_value) {
      record[p.name] = p.flag ? nlohmann::json(value != 0.0) : nlohmann::json(value);
    }
  }
  if (o.loss_options.cond_kernel != LossOptions{}.cond_kernel) record["cond-kernel"] = o.loss_options.cond_kernel;
  if (o.head.enabled()) {  // named only with the head on: runs without one resume as they did
    record["head-weight"] = o.head.weight;
    record["head-label-smoothing"] = o.head.label_smoothing;
    record["head-dropout"] = o.head.dropout;
    record["head-labelled-share"] = o.head.labelled_share;
  }
  if (encoder.vit_layers != defaults.vit_layers) record["vit-layers"] = encoder.vit_layers;
  if (encoder.vit_heads != defaults.vit_heads) record["vit-heads"] = encoder.vit_heads;
  // The caller's run description (the data, the hierarchy, the number of training images).
  const nlohmann::json run = nlohmann::json::parse(o.run_description);
  for (const auto& [key, value] : run.items()) {
    std::string option = key;
    std::replace(option.begin(), option.end(), '_', '-');
    if (!record.contains(option)) record[option] = value;
  }
  return record;
}

}  // namespace

void validate(const TrainOptions& o) {
  loss_entry(o.loss);  // InvalidArgument("loss") for an unknown name
  if (uses_bf16(o.precision) && loss_entry(o.loss).batch == nullptr) {  // ce and autoencoder; InvalidArgument("precision") too
    throw InvalidArgument("precision", "bf16 applies to the encoder of the contrastive losses; " + o.loss +
                                           " trains in float32 (use --precision float32)");
  }
  validate(o.loss_options);
  validate(o.head);
  if (o.head.enabled() && loss_entry(o.loss).batch == nullptr) {
    throw InvalidArgument("head-weight", "adds a cross-entropy head to a contrastive loss; --loss " + o.loss +
                                             (loss_entry(o.loss).needs.linear_head ? " is that head alone" : " trains no encoder with a batch loss") +
                                             " (use --head-weight 0)");
  }
  try {
    if (!nlohmann::json::parse(o.run_description).is_object()) throw InvalidArgument("run_description", "must be a JSON object");
  } catch (const nlohmann::json::exception&) {
    throw InvalidArgument("run_description", "must be a JSON object");
  }
  require_non_negative("reconstruction-weight", o.reconstruction_weight);
  if (o.epochs < 1 || o.epochs > kMaxEpochs) {
    throw InvalidArgument("epochs", "must be in [1, " + std::to_string(kMaxEpochs) + "], got " + std::to_string(o.epochs));
  }
  require_at_least("batch-size", o.batch_size, 2);
  if (!(o.learning_rate > 0 && o.learning_rate <= kMaxLearningRate)) {
    throw InvalidArgument("lr", "must be in (0, " + format_number(kMaxLearningRate) +
                                    "] (AdamW moves every weight by about lr per step), got " + format_number(o.learning_rate));
  }
  require_non_negative("weight-decay", o.weight_decay);
  require_at_least("stop-after", o.stop_after, 0);
  require_at_least("cosine-period", o.cosine_period_epochs, 0);
  require_at_least("sync-every", o.sync_every, 1);
}

const std::array<const char*, kStepPhases>& step_phase_names() {
  static const std::array<const char*, kStepPhases> names = {"augmentation", "forward", "loss", "backward", "optimizer", "other"};
  return names;
}

double StepPhaseTimes::total_ms() const {
  double total = 0.0;
  for (const double t : ms) total += t;
  return total;
}

const std::vector<TrainRecipe>& train_recipes() {
  static const std::vector<TrainRecipe> recipes = {
      {"geomsim", 1e-3, 1e-4, 256, 0}, {"paper", 3e-4, 0.0, 128, 0}, {"paper-transfer", 1e-3, 0.0, 128, 0}};
  return recipes;
}

const TrainRecipe& train_recipe(const std::string& name) {
  for (const auto& recipe : train_recipes()) {
    if (recipe.name == name) return recipe;
  }
  throw InvalidArgument("recipe", "must be geomsim, paper or paper-transfer; got '" + name + "'");
}

void apply_recipe(const TrainRecipe& recipe, TrainOptions& options) {
  options.learning_rate = recipe.learning_rate;
  options.weight_decay = recipe.weight_decay;
  options.batch_size = recipe.batch_size;
  options.cosine_period_epochs = recipe.cosine_period_epochs;
}

namespace {

// Labels in [0, classes), read back once where they live, before any step (`argument` names them
// in the refusal, `reader` is what reads them).
void require_labels_below(const torch::Tensor& labels, int64_t classes, const std::string& argument, const std::string& reader) {
  const auto range = labels.aminmax();
  const int64_t low = std::get<0>(range).item<int64_t>(), high = std::get<1>(range).item<int64_t>();
  if (low < 0 || high >= classes) throw InvalidArgument(argument, "must be in [0, " + std::to_string(classes) + ") for " + reader);
}

// train_encoder's steps for the epoch loop.
class EncoderTask : public EpochTask {
 public:
  EncoderTask(const TrainOptions& o, const AugmentationOptions& augmentation, Encoder& encoder, torch::nn::Linear& classifier,
              Autoencoder& autoencoder, torch::optim::AdamW& optimizer, std::vector<torch::Tensor> parameters,
              const torch::Tensor& images, const torch::Tensor& labels, const torch::Tensor& conditions, int64_t num_classes,
              const torch::Tensor& head_labels, const torch::Tensor& labelled, PhaseTimer* phases)
      : o_(o), augmentation_(augmentation), encoder_(encoder), classifier_(classifier), autoencoder_(autoencoder),
        optimizer_(optimizer), parameters_(std::move(parameters)), images_(images), labels_(labels), conditions_(conditions),
        head_labels_(head_labels), labelled_(labelled), loss_(loss_entry(o.loss)), num_classes_(num_classes),
        local_batch_(local_batch_size(o.distributed, o.batch_size)),
        steps_per_epoch_(images.size(0) / o.batch_size),
        period_((o.cosine_period_epochs > 0 ? o.cosine_period_epochs : o.epochs) * steps_per_epoch_),
        // The losses check the partner indices on the host and move them to the embeddings'
        // device themselves: kept on the CPU, they are never read back from the device.
        partner_(two_view_partners(o.batch_size)), phases_(phases) {}

  int64_t begin_epoch(int64_t) override {
    encoder_->train();
    if (o_.head.enabled()) classifier_->train();
    if (autoencoder_) autoencoder_->train();
    // On the data's device, from its generator (the CPU's for a device without one: meta).
    const torch::Device where = default_generator(images_.device()) ? images_.device() : torch::Device(torch::kCPU);
    order_ = torch::randperm(images_.size(0), torch::TensorOptions().dtype(torch::kLong).device(where)).to(images_.device());
    if (phases_ != nullptr) phases_->begin();
    return steps_per_epoch_;
  }

  torch::Tensor loss(int64_t epoch, int64_t step) override {
    set_rate(optimizer_, cosine_rate(o_.learning_rate, epoch * steps_per_epoch_ + step, period_));
    const auto idx = order_.narrow(0, step * o_.batch_size, o_.batch_size);
    // index() gathers as index_select does (the same values), and has a meta kernel.
    const auto batch = batch_to_device(images_.index({idx}), o_.device);
    const auto y = batch_to_device(labels_.index({idx}), o_.device);
    // With several ranks, this rank's share of the global batch (all of it with one): every rank
    // augments the whole global batch from the same generator state, so the views are those of
    // one process, and embeds its share only.
    const auto& job = o_.distributed;
    const auto mine = [&](const torch::Tensor& rows) { return job.distributed() ? shard_rows(job, rows) : rows; };
    mark(StepPhase::other);
    torch::Tensor loss;
    bool local_terms = false;  // a mean over this rank's share, not over the global batch
    if (loss_.needs.linear_head) {  // ce: the head alone
      const auto augmented = augment(batch, augmentation_);
      mark(StepPhase::augmentation);
      const auto logits = classifier_->forward(encoder_->features(mine(augmented)));
      mark(StepPhase::forward);
      loss = torch::nn::functional::cross_entropy(logits, mine(y));
      local_terms = true;
    } else if (loss_.batch != nullptr) {  // a contrastive loss (the autoencoder alone has none)
      const auto views = two_views(batch, augmentation_);  // [view 1 of the B samples; view 2]
      mark(StepPhase::augmentation);
      const bool head = o_.head.enabled();
      torch::Tensor z, features;  // features: this rank's views' (the joint head's input), with the head only
      if (job.distributed()) {
        const int64_t b = local_batch_, B = o_.batch_size, first = job.rank() * b;
        const auto local = torch::cat({views.narrow(0, first, b), views.narrow(0, B + first, b)});
        if (head) features = embed_features(local);
        z = gather_views_with_grad(job, head ? unit_rows(features) : embed(local), 2);  // [2B x d], one process's rows
      } else {
        if (head) features = embed_features(views);
        z = head ? unit_rows(features) : embed(views);
      }
      mark(StepPhase::forward);
      const auto condition = conditions_.defined() ? batch_to_device(conditions_.index({idx}), o_.device) : torch::Tensor();
      loss = batch_loss(o_.loss, {z, y, partner_, num_classes_, condition}, o_.loss_options);
      if (head) {
        // Each view with its sample's label: rows [view 1 of the B samples; view 2], as the views.
        const auto twice = [](const torch::Tensor& rows) { return torch::cat({rows, rows}); };
        const auto head_y = twice(batch_to_device(head_labels_.index({idx}), o_.device));
        const auto labelled = labelled_.defined() ? twice(batch_to_device(labelled_.index({idx}), o_.device)) : torch::Tensor();
        loss = loss + o_.head.weight * head_loss(features, head_y, labelled);
        local_terms = true;
      }
    }
    if (autoencoder_) {
      // The labels were checked once, before the epochs: no read-back per step.
      const auto ae_loss = o_.reconstruction_weight * autoencoder_->training_loss(mine(batch), mine(y), /*labels_checked=*/true);
      loss = loss.defined() ? loss + ae_loss : ae_loss;
      local_terms = true;
    }
    if (job.distributed() && local_terms) {
      // The loss the loop reports and checks: the mean over ranks, i.e. over the global batch
      // (the gradient stays this rank's; all_reduce_gradients averages it in update()).
      auto total = loss.detach().clone();
      job.all_reduce_(total, ReduceOperation::sum, "all-reduce of the step's loss");
      loss = global_value_local_gradient(total / job.world_size(), loss);
    }
    mark(StepPhase::loss);
    return loss;
  }

  // The joint head's CE term on the global batch's labels and labelled mask (2B rows, as the
  // views). One process: joint_head_loss. Several ranks: each draws the global batch's dropout
  // scale (what one process draws, so the generators stay in step with a one-process run) and
  // keeps its rows, and divides the sum of its rows' terms by the global count of labelled rows
  // times the world size, so that the ranks' mean (the all-reduce of the step's loss and of the
  // gradients) is one process's mean over the labelled rows of the global batch.
  torch::Tensor head_loss(const torch::Tensor& features, const torch::Tensor& labels, const torch::Tensor& labelled) {
    const auto& job = o_.distributed;
    if (!job.distributed()) return joint_head_loss(o_.head, classifier_, features, labels, labelled, /*training=*/true);
    const int64_t b = local_batch_, B = o_.batch_size, first = job.rank() * b;
    const auto local_rows = [&](const torch::Tensor& rows) { return torch::cat({rows.narrow(0, first, b), rows.narrow(0, B + first, b)}); };
    const torch::Tensor scale =
        o_.head.dropout > 0.0 ? local_rows(joint_head_dropout_scale(2 * B, features.size(1), o_.head.dropout, features.options()))
                              : torch::Tensor();
    const auto rows = joint_head_row_losses(classifier_, features, local_rows(labels), o_.head.label_smoothing, scale);
    const double world = static_cast<double>(job.world_size());
    if (!labelled.defined()) return rows.sum() * (world / static_cast<double>(2 * B));
    const auto weight = labelled.to(rows.dtype());
    return (rows * local_rows(weight)).sum() * world / weight.sum().clamp_min(1.0);
  }

  // The encoder's features (before normalisation), in float32 whatever the precision of its
  // forward pass; unit_rows of them are forward's embeddings (its own normalisation; with bf16
  // normalised here in float32, after the cast).
  torch::Tensor embed_features(const torch::Tensor& views) {
    torch::Tensor f;
    {
      const EncoderAutocast autocast(o_.device, bf16_);
      f = encoder_->features(views);
    }
    return bf16_ ? f.to(torch::kFloat) : f;
  }
  static torch::Tensor unit_rows(const torch::Tensor& features) {
    return torch::nn::functional::normalize(features, torch::nn::functional::NormalizeFuncOptions().dim(1));
  }

  // The encoder's embeddings, in float32 whatever the precision of its forward pass.
  torch::Tensor embed(const torch::Tensor& views) {
    torch::Tensor z;
    {
      const EncoderAutocast autocast(o_.device, bf16_);
      z = encoder_->forward(views);
    }
    return bf16_ ? z.to(torch::kFloat) : z;
  }

  void update(const torch::Tensor& loss) override {
    mark(StepPhase::other);  // the epoch loop's copy of the loss and its read-backs
    optimizer_.zero_grad();
    loss.backward();
    mark(StepPhase::backward);
    all_reduce_gradients(o_.distributed, parameters_);  // the mean over ranks; nothing with one
    optimizer_.step();
    mark(StepPhase::optimizer);
  }

 private:
  const TrainOptions& o_;
  const AugmentationOptions& augmentation_;
  Encoder& encoder_;
  torch::nn::Linear& classifier_;
  Autoencoder& autoencoder_;
  torch::optim::AdamW& optimizer_;
  std::vector<torch::Tensor> parameters_;  // the optimised ones, whose gradients the ranks average
  torch::Tensor images_, labels_, conditions_;  // conditions_: undefined without them
  // The joint head's labels (on the data's device) and which samples are labelled (undefined: all).
  torch::Tensor head_labels_, labelled_;
  const LossEntry& loss_;
  int64_t num_classes_, local_batch_, steps_per_epoch_, period_;
  torch::Tensor partner_, order_;
  bool bf16_ = uses_bf16(o_.precision);
  PhaseTimer* phases_ = nullptr;  // TrainOptions::time_phases; null: off

  // The end of a phase of the step, with the phase timer on; nothing otherwise.
  void mark(StepPhase phase) {
    if (phases_ != nullptr) phases_->mark(static_cast<int>(phase));
  }
};

}  // namespace

TrainResult train_encoder(Encoder& encoder, const torch::Tensor& images, const torch::Tensor& labels, int64_t num_classes,
                          const TrainOptions& o, const AugmentationOptions& augmentation,
                          const std::function<void(const std::string&)>& progress, Autoencoder autoencoder,
                          const torch::Tensor& conditions, const HeadTargets& head_targets) {
  validate(o);
  validate(augmentation);
  require_at_least("classes", num_classes, 2);
  const int64_t n = images.size(0);
  if (labels.dim() != 1 || labels.size(0) != n) throw InvalidArgument("labels", "must hold one label per image");
  if (conditions.defined()) {
    require_loss_reads_condition(o.loss, "condition-on");
    if (conditions.dim() != 2 || conditions.size(0) != n || conditions.size(1) < 1) {
      throw InvalidArgument("condition-on", "must give one row of conditioning values per image");
    }
  }
  if (n < o.batch_size) throw InvalidArgument("batch-size", "must be at most the number of training images (" + std::to_string(n) + ")");
  if (loss_entry(o.loss).needs.autoencoder && !autoencoder) throw InvalidArgument("loss", o.loss + " needs an autoencoder");
  // Once here, so that the steps need not read the labels back.
  if (autoencoder && n > 0) require_labels_below(labels, autoencoder->options().classes, "labels", "the autoencoder");

  // The joint head's labels and classes: the given targets, or the loss's labels.
  const bool head = o.head.enabled();
  const torch::Tensor head_labels = head_targets.labels.defined() ? head_targets.labels : labels;
  const int64_t head_classes = head_targets.labels.defined() ? head_targets.classes : num_classes;
  if (head && n > 0) {  // once here, so that the steps need not read the labels back
    if (head_labels.dim() != 1 || head_labels.size(0) != n) throw InvalidArgument("head-labels", "must hold one label per image");
    require_at_least("head-classes", head_classes, 2);
    require_labels_below(head_labels, head_classes, "head-labels", "the cross-entropy head");
  }
  // The samples whose labels the head sees: a fixed subset from the seed (undefined: all).
  const torch::Tensor labelled =
      head && o.head.labelled_share < 1.0 ? labelled_samples(n, o.head.labelled_share, o.seed) : torch::Tensor();

  const torch::Device device = o.device;
  use_deterministic_cuda_libraries(device);  // a resume on CUDA repeats the run's arithmetic
  torch::manual_seed(o.seed);
  // The networks move to the run's device after a resume has loaded them (on the CPU).
  // Used by "ce" and by the joint head (TrainOptions::head) only.
  torch::nn::Linear classifier(encoder->options().embedding_dim, head ? head_classes : num_classes);
  const bool autoencoder_only = !loss_entry(o.loss).needs.trains_encoder;
  std::vector<torch::Tensor> parameters;
  if (!autoencoder_only) parameters = encoder->parameters();
  const bool linear_head = loss_entry(o.loss).needs.linear_head || head;  // the loss's own head (ce) or the joint one
  if (linear_head) {
    for (const auto& p : classifier->parameters()) parameters.push_back(p);
  }
  const bool with_autoencoder = static_cast<bool>(autoencoder);
  if (with_autoencoder) {
    for (const auto& p : autoencoder->parameters()) parameters.push_back(p);
  }
  torch::optim::AdamW optimizer(parameters, torch::optim::AdamWOptions(o.learning_rate).weight_decay(o.weight_decay));

  TrainResult result;
  result.device = device_name(device);
  const std::string record = training_record(o, encoder->options(), with_autoencoder ? autoencoder : Autoencoder(nullptr)).dump();
  if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
    auto archive = open_run_checkpoint(o.checkpoint, "geomsim checkpoint for this model");
    require_same_options(archive, record, device, o.device_explicit, o.checkpoint, o.distributed.world_size(),
                         finished_run(archive, o.epochs));
    try {
      load_module(*encoder, archive, "encoder", o.checkpoint, "checkpoint");
      load_module(*classifier, archive, "classifier", o.checkpoint, "checkpoint");
      torch::serialize::InputArchive part;
      archive.read("optimizer", part);
      optimizer.load(part);
      if (with_autoencoder) load_module(*autoencoder, archive, "autoencoder", o.checkpoint, "checkpoint");
      torch::Tensor history;
      archive.read("history", history);
      restore_generator_states(archive, device);
      for (int64_t e = 0; e < history.size(0); ++e) {
        result.epochs.push_back({e + 1, history[e][0].item<double>(), history[e][1].item<double>(), history[e][2].item<double>(), {}});
      }
    } catch (const c10::Error& e) {
      throw InvalidArgument("checkpoint", o.checkpoint + " is not a readable geomsim checkpoint for this model (" +
                                              std::string(e.what_without_backtrace()) + ")");
    }
    result.resumed_epochs = static_cast<int64_t>(result.epochs.size());
  }
  // Loaded on the CPU (a checkpoint is portable across devices): now all to the run's device.
  move_module(*encoder, device);
  move_module(*classifier, device);
  if (with_autoencoder) move_module(*autoencoder, device);
  move_optimizer_state(optimizer, device);

  // Once, on the device when they fit.
  std::vector<torch::Tensor> training_data = {images, labels};
  if (conditions.defined()) training_data.push_back(conditions);
  if (head) training_data.push_back(head_labels);
  if (labelled.defined()) training_data.push_back(labelled);
  const auto data = place_training_data(training_data, device);
  const std::size_t head_at = conditions.defined() ? 3 : 2;  // where head_labels, then labelled, are in `data`
  if (o.distributed.distributed()) {
    // Every rank built the networks from the same seed (or loaded the same checkpoint); rank 0's
    // weights everywhere all the same, so that the ranks cannot start apart.
    broadcast_parameters(o.distributed, *encoder);
    broadcast_parameters(o.distributed, *classifier);
    if (with_autoencoder) broadcast_parameters(o.distributed, *autoencoder);
  }
  const std::unique_ptr<PhaseTimer> phases = o.time_phases ? std::make_unique<PhaseTimer>(device, kStepPhases) : nullptr;
  EncoderTask task(o, augmentation, encoder, classifier, autoencoder, optimizer, parameters, data[0], data[1],
                   conditions.defined() ? data[2] : torch::Tensor(), num_classes, head ? data[head_at] : torch::Tensor(),
                   labelled.defined() ? data[head_at + 1] : torch::Tensor(), phases.get());
  EpochLoopOptions loop;
  loop.first_epoch = result.resumed_epochs;
  loop.epochs = o.epochs;
  loop.stop_after = o.stop_after;
  loop.sync_every = o.sync_every;
  loop.batch_size = o.batch_size;
  loop.device = device;
  loop.checkpoint = o.checkpoint;
  loop.divergence_advice = "; a smaller --lr (this run: " + format_number(o.learning_rate) + ") or a larger --tau usually helps";

  FunctionCallback history([&](const EpochSummary& e) {
    result.epochs.push_back({e.epoch, e.loss, e.seconds, static_cast<double>(e.steps * o.batch_size) / e.seconds, {}});
    if (phases) {  // the device has finished the epoch's steps: the loop read their losses back
      const std::vector<double> ms = phases->take_ms();
      std::copy(ms.begin(), ms.end(), result.epochs.back().phases.ms.begin());
      result.epochs.back().phases.steps = e.steps;
    }
    return LoopControl::proceed();
  }, o.on_step);
  FunctionCallback report([&](const EpochSummary& e) {
    if (progress) {
      std::ostringstream line;
      line << "epoch " << e.epoch << "/" << o.epochs << ": loss " << result.epochs.back().loss << ", "
           << static_cast<int64_t>(result.epochs.back().samples_per_second) << " samples/s on " << result.device;
      progress(line.str());
    }
    return LoopControl::proceed();
  });
  FunctionCallback checkpoint([&](const EpochSummary&) {
    if (o.checkpoint.empty() || !o.distributed.is_main()) return LoopControl::proceed();  // rank 0 writes
    torch::serialize::OutputArchive archive, enc, cls, opt;
    encoder->save(enc);
    classifier->save(cls);
    optimizer.save(opt);
    archive.write("encoder", enc);
    archive.write("classifier", cls);
    archive.write("optimizer", opt);
    if (with_autoencoder) {
      torch::serialize::OutputArchive ae;
      autoencoder->save(ae);
      archive.write("autoencoder", ae);
    }
    auto table = torch::zeros({static_cast<int64_t>(result.epochs.size()), 3}, torch::kDouble);
    for (std::size_t e = 0; e < result.epochs.size(); ++e) {
      const auto i = static_cast<int64_t>(e);
      table[i][0] = result.epochs[e].loss;
      table[i][1] = result.epochs[e].seconds;
      table[i][2] = result.epochs[e].samples_per_second;
    }
    archive.write("history", table);
    ModelDescription description{encoder->options(), std::nullopt, autoencoder_only, o.run_description};
    if (with_autoencoder) description.autoencoder = autoencoder->options();
    write_model_description(archive, description);
    write_generator_states(archive, device);
    write_options_record(archive, record, device, o.distributed.world_size());
    save_run_checkpoint(archive, o.checkpoint);
    return LoopControl::proceed();
  });
  FunctionCallback watch([&](const EpochSummary& e) {
    if (o.on_epoch_end) o.on_epoch_end(e, encoder, classifier);
    return LoopControl::proceed();
  });
  const LoopSummary summary = run_epoch_loop(task, loop, {&history, &report, &watch, &checkpoint});
  result.stop_reason = summary.stop_reason;
  // The ranks' weights must be the same bits: one collective at the end checks it, so that a
  // broken invariant is an error, not a rank 0 result that the others do not hold.
  require_identical_weights(o.distributed, *encoder, "encoder");
  require_identical_weights(o.distributed, *classifier, "classifier");
  if (with_autoencoder) require_identical_weights(o.distributed, *autoencoder, "autoencoder");
  encoder->eval();
  if (with_autoencoder) autoencoder->eval();
  if (linear_head) {
    classifier->eval();
    result.classifier = classifier;
  }
  return result;
}

}  // namespace geomsim::train
