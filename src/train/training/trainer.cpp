#include "geomsim/train/training/trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/checkpoints/archive_integrity.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"

namespace geomsim::train {
namespace {

// torch's CosineAnnealingLR (eta_min 0) at `step` of a period of `period_steps` steps.
double cosine_rate(double base, int64_t step, int64_t period_steps) {
  return 0.5 * base * (1.0 + std::cos(M_PI * static_cast<double>(step) / static_cast<double>(std::max<int64_t>(period_steps, 1))));
}

void set_rate(torch::optim::AdamW& optimizer, double rate) {
  for (auto& group : optimizer.param_groups()) static_cast<torch::optim::AdamWOptions&>(group.options()).lr(rate);
}

// The archive key of the options a checkpoint's run was trained with (a JSON object text).
constexpr const char* kTrainingRecordKey = "training";

// Everything that decides a run's trajectory, keyed by the CLI's option names: a resume must
// repeat all of it. --stop-after is not here: stopping early and resuming is what it is for.
nlohmann::json training_record(const TrainOptions& o, const EncoderOptions& encoder, const Autoencoder& autoencoder) {
  nlohmann::json record = {{"loss", o.loss},
                           {"alpha", o.loss_options.alpha},
                           {"tau", o.loss_options.tau},
                           {"exclude-partner", !o.loss_options.include_partner},
                           {"epochs", o.epochs},
                           {"batch-size", o.batch_size},
                           {"lr", o.learning_rate},
                           {"weight-decay", o.weight_decay},
                           {"seed", o.seed},
                           {"reconstruction-weight", o.reconstruction_weight},
                           {"kernel-lambda", o.loss_options.kernel_lambda},
                           {"kernel-bandwidth", o.loss_options.kernel_bandwidth},
                           {"model", encoder.kind},
                           {"embedding-dim", encoder.embedding_dim},
                           {"width", encoder.width},
                           {"channels", encoder.channels},
                           {"image-size", encoder.image_size},
                           {"cosine-period", o.cosine_period_epochs},
                           {"clip-cosine", o.loss_options.clip_cosine},
                           {"positive-weight", o.loss_options.positive_weight},
                           {"negative-weight", o.loss_options.negative_weight},
                           {"autoencoder", autoencoder ? autoencoder->options().mode : std::string("none")},
                           {"autoencoder-dropout", autoencoder ? autoencoder->options().dropout : 0.0},
                           {"label-smoothing", autoencoder ? autoencoder->options().label_smoothing : 0.0}};
  // The caller's run description (the data, the hierarchy, the number of training images).
  const nlohmann::json run = nlohmann::json::parse(o.run_description);
  for (const auto& [key, value] : run.items()) {
    std::string option = key;
    std::replace(option.begin(), option.end(), '_', '-');
    if (!record.contains(option)) record[option] = value;
  }
  return record;
}

// Refuses to resume `path` unless it was trained with exactly `current`: otherwise the run would
// continue weights trained with other options and report the new ones.
void require_same_training(torch::serialize::InputArchive& archive, const nlohmann::json& current, const std::string& path) {
  c10::IValue stored_text;
  if (!archive.try_read(kTrainingRecordKey, stored_text) || !stored_text.isString()) {
    throw InvalidArgument("checkpoint", path + " does not record the options it was trained with (written by an older geomsim), "
                                               "so a resume cannot be checked; start another --checkpoint (eval, measure and "
                                               "lipschitz still read it)");
  }
  nlohmann::json stored;
  try {
    stored = nlohmann::json::parse(stored_text.toStringRef());
  } catch (const nlohmann::json::exception&) {
    throw InvalidArgument("checkpoint", path + " holds a malformed record of its training options");
  }
  for (const auto& [option, value] : current.items()) {
    const nlohmann::json was = stored.contains(option) ? stored.at(option) : nlohmann::json(nullptr);
    if (was != value) {
      throw InvalidArgument(option, "is " + value.dump() + " but " + path + " was trained with " + was.dump() +
                                        "; resume with the options it was trained with, or start another --checkpoint");
    }
  }
}

}  // namespace

void validate(const TrainOptions& o) {
  loss_entry(o.loss);  // InvalidArgument("loss") for an unknown name
  validate(o.loss_options);
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

TrainResult train_encoder(Encoder& encoder, const torch::Tensor& images, const torch::Tensor& labels, int64_t num_classes,
                          const TrainOptions& o, const AugmentationOptions& augmentation,
                          const std::function<void(const std::string&)>& progress, Autoencoder autoencoder) {
  validate(o);
  validate(augmentation);
  require_at_least("classes", num_classes, 2);
  const int64_t n = images.size(0);
  if (labels.dim() != 1 || labels.size(0) != n) throw InvalidArgument("labels", "must hold one label per image");
  if (n < o.batch_size) throw InvalidArgument("batch-size", "must be at most the number of training images (" + std::to_string(n) + ")");

  const torch::Device device = torch::cuda::is_available() ? torch::kCUDA : torch::kCPU;
  torch::manual_seed(o.seed);
  encoder->to(device);
  torch::nn::Linear classifier(encoder->options().embedding_dim, num_classes);  // used by "ce" only
  classifier->to(device);
  const bool autoencoder_only = o.loss == "autoencoder";
  std::vector<torch::Tensor> parameters;
  if (!autoencoder_only) parameters = encoder->parameters();
  if (o.loss == "ce") {
    for (const auto& p : classifier->parameters()) parameters.push_back(p);
  }
  if ((o.loss == "thanos" || autoencoder_only) && !autoencoder) throw InvalidArgument("loss", o.loss + " needs an autoencoder");
  const bool with_autoencoder = static_cast<bool>(autoencoder);
  if (with_autoencoder) {
    autoencoder->to(device);
    for (const auto& p : autoencoder->parameters()) parameters.push_back(p);
  }
  torch::optim::AdamW optimizer(parameters, torch::optim::AdamWOptions(o.learning_rate).weight_decay(o.weight_decay));

  TrainResult result;
  result.device = device.is_cuda() ? "cuda" : "cpu";
  const nlohmann::json record = training_record(o, encoder->options(), with_autoencoder ? autoencoder : Autoencoder(nullptr));
  if (!o.checkpoint.empty() && std::filesystem::exists(o.checkpoint)) {
    if (verify_archive(o.checkpoint, "checkpoint") == ArchiveCheck::not_a_zip) {
      throw InvalidArgument("checkpoint", o.checkpoint + " is not a readable geomsim checkpoint for this model (not a torch archive)");
    }
    try {
      torch::serialize::InputArchive archive;
      archive.load_from(o.checkpoint);
      require_same_training(archive, record, o.checkpoint);
      load_module(*encoder, archive, "encoder", o.checkpoint, "checkpoint");
      load_module(*classifier, archive, "classifier", o.checkpoint, "checkpoint");
      torch::serialize::InputArchive part;
      archive.read("optimizer", part);
      optimizer.load(part);
      if (with_autoencoder) load_module(*autoencoder, archive, "autoencoder", o.checkpoint, "checkpoint");
      torch::Tensor history, rng;
      archive.read("history", history);
      archive.read("rng", rng);
      auto generator = at::detail::getDefaultCPUGenerator();  // a handle to the global generator
      generator.set_state(rng);
      for (int64_t e = 0; e < history.size(0); ++e) {
        result.epochs.push_back({e + 1, history[e][0].item<double>(), history[e][1].item<double>(), history[e][2].item<double>()});
      }
    } catch (const c10::Error& e) {
      throw InvalidArgument("checkpoint", o.checkpoint + " is not a readable geomsim checkpoint for this model (" +
                                              std::string(e.what_without_backtrace()) + ")");
    }
    result.resumed_epochs = static_cast<int64_t>(result.epochs.size());
  }

  const int64_t steps_per_epoch = n / o.batch_size;
  const auto partner = two_view_partners(o.batch_size).to(device);
  const int64_t last = o.stop_after > 0 ? std::min(o.epochs, o.stop_after) : o.epochs;
  const int64_t period = (o.cosine_period_epochs > 0 ? o.cosine_period_epochs : o.epochs) * steps_per_epoch;
  for (int64_t epoch = result.resumed_epochs; epoch < last; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    encoder->train();
    if (with_autoencoder) autoencoder->train();
    const auto order = torch::randperm(n, torch::kLong);
    double total = 0.0;
    for (int64_t step = 0; step < steps_per_epoch; ++step) {
      set_rate(optimizer, cosine_rate(o.learning_rate, epoch * steps_per_epoch + step, period));
      const auto idx = order.narrow(0, step * o.batch_size, o.batch_size);
      const auto batch = images.index_select(0, idx);
      const auto y = labels.index_select(0, idx).to(device);
      torch::Tensor loss;
      if (o.loss == "ce") {
        loss = torch::nn::functional::cross_entropy(classifier->forward(encoder->features(augment(batch, augmentation).to(device))), y);
      } else if (!autoencoder_only) {
        loss = batch_loss(o.loss, {encoder->forward(two_views(batch, augmentation).to(device)), y, partner, num_classes},
                          o.loss_options);
      }
      if (with_autoencoder) {
        const auto ae_loss = o.reconstruction_weight * autoencoder->training_loss(batch.to(device), y);
        loss = loss.defined() ? loss + ae_loss : ae_loss;
      }
      // A non-finite loss (a learning rate too large, a temperature too small) ends the run
      // before the step that would write it into the weights; the last checkpoint, of the
      // last finished epoch, stays as it is.
      const double value = loss.item<double>();
      if (!std::isfinite(value)) {
        throw ComputationFailed(
            "training diverged: the loss is " + format_number(value) + " at epoch " + std::to_string(epoch + 1) + ", step " +
            std::to_string(step + 1) + " of " + std::to_string(steps_per_epoch) +
            (o.checkpoint.empty() ? std::string()
             : epoch == 0         ? "; no checkpoint was written"
                                  : "; " + o.checkpoint + " keeps epoch " + std::to_string(epoch) + " and no new checkpoint was written") +
            "; a smaller --lr (this run: " + format_number(o.learning_rate) + ") or a larger --tau usually helps");
      }
      optimizer.zero_grad();
      loss.backward();
      optimizer.step();
      total += value;
      if (o.on_step) o.on_step(StepReport{epoch + 1, o.epochs, step + 1, steps_per_epoch, o.batch_size, value});
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.epochs.push_back({epoch + 1, total / static_cast<double>(steps_per_epoch), seconds,
                             static_cast<double>(steps_per_epoch * o.batch_size) / seconds});
    if (progress) {
      std::ostringstream line;
      line << "epoch " << epoch + 1 << "/" << o.epochs << ": loss " << result.epochs.back().loss << ", "
           << static_cast<int64_t>(result.epochs.back().samples_per_second) << " samples/s on " << result.device;
      progress(line.str());
    }
    if (!o.checkpoint.empty()) {
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
      auto history = torch::zeros({static_cast<int64_t>(result.epochs.size()), 3}, torch::kDouble);
      for (std::size_t e = 0; e < result.epochs.size(); ++e) {
        const auto i = static_cast<int64_t>(e);
        history[i][0] = result.epochs[e].loss;
        history[i][1] = result.epochs[e].seconds;
        history[i][2] = result.epochs[e].samples_per_second;
      }
      archive.write("history", history);
      ModelDescription description{encoder->options(), std::nullopt, autoencoder_only, o.run_description};
      if (with_autoencoder) description.autoencoder = autoencoder->options();
      write_model_description(archive, description);
      archive.write("rng", at::detail::getDefaultCPUGenerator().get_state());
      archive.write(kTrainingRecordKey, c10::IValue(record.dump()));
      // Serialised in memory, then written as a whole: libtorch's file writer aborts the process
      // when a write fails (a full disk) and leaves its partial file; OutputTransaction reports the
      // failure as an error naming the file, and removes its temporary. The rename is atomic: a
      // stop leaves the previous epoch's file.
      std::ostringstream bytes;
      archive.save_to(bytes);
      OutputTransaction output;
      output.stage(o.checkpoint, bytes.str(), "checkpoint");
      output.commit();
    }
  }
  encoder->eval();
  if (with_autoencoder) autoencoder->eval();
  return result;
}

}  // namespace geomsim::train
