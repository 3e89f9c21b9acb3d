#include "geomsim/train_experiments/train_run.hpp"

#include <algorithm>
#include <chrono>

#include "geomsim/metrics/kmeans.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/fnv1a_hash.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/data/device_memory.hpp"
#include "geomsim/train/data/image_attributes.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/data/label_noise.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "geomsim/train_experiments/evaluation_json.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;
namespace {
constexpr int kClusterRestarts = 3;  // --cond-clusters' k-means: the best of this many seeds by inertia

// The rows `rows` of a split (TrainRunOptions::train_subset), each at most once.
LabelledSplit subset_of(const LabelledSplit& split, const std::vector<int64_t>& rows) {
  const int64_t n = split.images.size(0);
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (int64_t r : rows) {
    if (r < 0 || r >= n) throw InvalidArgument("train-subset", "rows must be in 0.." + std::to_string(n - 1) + ", got " + std::to_string(r));
    if (seen[static_cast<std::size_t>(r)]) throw InvalidArgument("train-subset", "lists row " + std::to_string(r) + " twice");
    seen[static_cast<std::size_t>(r)] = true;
  }
  const auto index = torch::tensor(rows, torch::kLong);
  LabelledSplit s;
  s.images = split.images.index_select(0, index);
  s.coarse = split.coarse.index_select(0, index);
  s.fine = split.fine.index_select(0, index);
  if (split.colours.defined()) s.colours = split.colours.index_select(0, index);
  return s;
}

// What names a subset in a checkpoint's description, so that a resume on another is refused:
// its size and a 64-bit FNV-1a hash of its rows.
std::string subset_fingerprint(const std::vector<int64_t>& rows) {
  std::uint64_t hash = kFnv1aOffsetBasis;
  for (int64_t r : rows) {
    char bytes[8];
    for (int byte = 0; byte < 8; ++byte) bytes[byte] = static_cast<char>((static_cast<std::uint64_t>(r) >> (8 * byte)) & 0xffU);
    hash = fnv1a_update(hash, std::string_view(bytes, sizeof bytes));
  }
  return std::to_string(rows.size()) + " rows, fnv1a " + fnv1a_hex(hash);
}
}  // namespace

std::string autoencoder_mode(const TrainRunOptions& o) {
  if (o.general_autoencoder && !o.autoencoder.empty() && o.autoencoder != "general") {
    throw InvalidArgument("general-autoencoder", "contradicts --autoencoder " + o.autoencoder);
  }
  if (o.general_autoencoder) return "general";
  if (!o.autoencoder.empty()) return o.autoencoder;
  return train::loss_entry(o.train.loss).needs.autoencoder ? "joint" : "none";
}

train::LossOptions run_loss_options(const TrainRunOptions& o) {
  train::LossOptions loss = o.train.loss_options;
  if (o.noise_handling == "correct") loss.noise_correction = o.label_noise;
  if (o.noise_handling == "debias") loss.label_accuracy = 1.0 - o.label_noise;
  return loss;
}

void validate(const TrainRunOptions& o) {
  if (o.noise_handling != "" && o.noise_handling != "correct" && o.noise_handling != "debias") {
    throw InvalidArgument("noise-handling", "must be correct, debias or empty, got '" + o.noise_handling + "'");
  }
  if (!(o.label_noise >= 0.0 && o.label_noise <= 1.0)) {
    throw InvalidArgument("label-noise", "must be in [0, 1] (the chance that a training label is replaced), got " +
                                             format_number(o.label_noise));
  }
  train::TrainOptions trainer = o.train;
  trainer.loss_options = run_loss_options(o);
  train::validate(trainer);
  train::require_distributed_timeout(o.distributed_timeout);
  require_colour_backgrounds(o.data);
  const std::string mode = autoencoder_mode(o);
  require_at_least("cond-clusters", o.cond_clusters, 0);
  const bool conditioned = !train::parse_condition_on(o.condition_on).empty();
  const train::LossEntry& loss = train::loss_entry(o.train.loss);
  if (o.cond_clusters > 0) {
    if (!conditioned) throw InvalidArgument("cond-clusters", "needs --condition-on attributes:NAME[,NAME...], the values it clusters");
    if (!loss.needs.labels || loss.needs.condition || loss.needs.num_classes || loss.needs.linear_head || mode != "none") {
      throw InvalidArgument("cond-clusters", "replaces the labels of a contrastive loss that reads labels and no kernel, without an "
                                             "autoencoder (weaksup-infonce, fair-infonce, supcon, ...), not --loss " + o.train.loss);
    }
  } else if (conditioned) {
    train::require_loss_reads_condition(o.train.loss, "condition-on");
  }
  if (mode == "none" && loss.needs.autoencoder) throw InvalidArgument("autoencoder", "cannot be none for --loss " + o.train.loss);
  if (mode != "none" && loss.needs.linear_head) throw InvalidArgument("autoencoder", "must be none for --loss " + o.train.loss);
}

TrainedRun train_run(const TrainRunOptions& options, const std::function<void(const train::StepReport&)>& on_step) {
  validate(options);  // bad options refused before the ranks meet
  return train_run(options, join_data_parallel_job(options.distributed_timeout, options.train.device), on_step);
}

TrainedRun train_run(const TrainRunOptions& given, const train::DistributedContext& job,
                     const std::function<void(const train::StepReport&)>& on_step) {
  const auto start = std::chrono::steady_clock::now();
  validate(given);
  TrainRunOptions o = given;
  o.data.hierarchy = data_hierarchy(given.data);  // the data's default when not given
  TrainedRun run;
  run.hierarchy = train::resolve_hierarchy(o.data.hierarchy);
  train::EncoderOptions& model = o.model;
  train::TrainOptions& t = o.train;
  const std::string mode = autoencoder_mode(o);
  const json description = {{"data", data_source(o.data)}, {"hierarchy", o.data.hierarchy}, {"loss", t.loss},
                            {"autoencoder", mode},         {"alpha", t.loss_options.alpha}, {"tau", t.loss_options.tau},
                            {"seed", t.seed},              {"train_samples", o.train_samples},
                            {"augmentation", !o.no_augmentation}};
  json described = description;
  // Named only off the default: the checkpoints of runs conditioned on the labels resume unchanged.
  if (o.condition_on != "labels") described["condition_on"] = o.condition_on;
  if (o.cond_clusters > 0) described["cond_clusters"] = o.cond_clusters;
  if (o.label_noise > 0) described["label_noise"] = o.label_noise;
  if (o.data.colour_backgrounds) described["colour_backgrounds"] = *o.data.colour_backgrounds;
  if (!o.train_subset.empty()) described["train_subset"] = subset_fingerprint(o.train_subset);
  if (o.data_seed && *o.data_seed != t.seed) described["data_seed"] = *o.data_seed;
  t.loss_options = run_loss_options(given);
  t.run_description = described.dump();
  t.on_step = on_step;
  train::require_margin_gamma(o.gamma);
  if (!t.checkpoint.empty()) require_writable_path(t.checkpoint, "checkpoint");
  require_job_device(job, t.device);
  t.distributed = job;
  set_rank_threads(o.threads);
  run.rank = t.distributed.rank();
  run.world_size = t.distributed.world_size();
  const std::uint64_t data_seed = o.data_seed.value_or(t.seed);
  run.training = load_split(o.data, true, o.train_samples, data_seed, "train-samples");
  if (!o.train_subset.empty()) run.training = subset_of(run.training, o.train_subset);
  run.test = load_split(o.data, false, o.test_samples, data_seed + 7, "test-samples");
  // Once the files have been read as data: their contents, so that a resume on others is refused.
  described[train::kInputContentsKey] = input_contents(o.data);
  t.run_description = described.dump();
  model.channels = run.training.images.size(1);  // 3 for CIFAR
  model.image_size = run.training.images.size(3);
  if (run.training.images.size(2) != model.image_size) throw InvalidArgument("images", "must be square");
  train::validate(model);
  // Before building the model: --width or --embedding-dim 10^8 would end in std::bad_alloc.
  require_memory(model.embedding_dim > model.width ? "embedding-dim" : "width",
                 train::training_memory_bytes(model, std::max<int64_t>(t.batch_size, 1024)),
                 "training the " + model.kind + " encoder (weights, gradients, AdamW's state and a batch's activations)");
  // The loss of one batch: the streaming engine's O(N d), or a dense loss's N x N matrices.
  const train::LossEntry& loss = train::loss_entry(t.loss);
  if (loss.batch != nullptr) {
    const int64_t rows = (loss.needs.two_views ? 2 : 1) * t.batch_size;
    train::require_device_memory(t.device,
                                 train::loss_memory_bytes(loss, t.loss_options, rows, model.embedding_dim,
                                                          t.precision == "float64" ? 8 : 4),
                                 "the " + t.loss + " loss of a batch of " + std::to_string(t.batch_size) + " samples",
                                 "batch-size");
  }

  torch::manual_seed(t.seed);
  run.encoder = train::Encoder(model);
  if (mode != "none") {
    train::AutoencoderOptions ae;
    ae.classes = run.hierarchy.num_coarse();
    ae.mode = mode;
    ae.image_size = model.image_size;
    ae.channels = model.channels;
    ae.dropout = o.autoencoder_dropout;
    ae.label_smoothing = o.label_smoothing;
    train::validate(ae);
    run.autoencoder = train::Autoencoder(ae);
  }
  // The attributes of --condition-on, standardised over this run's training images.
  const std::vector<std::string> attributes = train::parse_condition_on(o.condition_on);
  torch::Tensor conditions =
      attributes.empty() ? torch::Tensor()
                         : train::image_attributes(run.training.images, run.training.fine, run.hierarchy.num_fine(), attributes);
  // What the loss reads as labels: the coarse ones, or the clusters of the attributes.
  torch::Tensor labels = run.training.coarse;
  int64_t num_labels = run.hierarchy.num_coarse();
  if (o.cond_clusters > 0) {
    if (o.cond_clusters > run.training.images.size(0)) {
      throw InvalidArgument("cond-clusters", "must be at most the " + std::to_string(run.training.images.size(0)) +
                                                 " training images, got " + std::to_string(o.cond_clusters));
    }
    const std::vector<int> clusters = compact_cluster_ids(
        kmeans_best_of(train::to_points(conditions), static_cast<int>(o.cond_clusters), t.seed, kClusterRestarts));
    labels = torch::tensor(std::vector<int64_t>(clusters.begin(), clusters.end()), torch::kLong);
    num_labels = *std::max_element(clusters.begin(), clusters.end()) + 1;
    conditions = torch::Tensor();  // the loss reads no kernel
  }
  // Seed 000's symmetric noise on the labels the loss sees (the probes below keep the clean ones).
  labels = train::symmetric_label_noise(labels, num_labels, o.label_noise, t.seed * 7919 + 17);
  const train::AugmentationOptions augmentation =
      o.no_augmentation ? train::no_augmentation() : train::default_augmentations(model.channels, model.image_size);
  // One line per epoch, from rank 0; an experiment (on_step) shows its own progress.
  const auto progress = progress_lines("geomsim train", o.quiet || static_cast<bool>(on_step), job);
  const auto train_start = std::chrono::steady_clock::now();
  // The joint head sees the clean coarse labels (seed 000 E.3.2), whatever the loss sees.
  const train::HeadTargets head_targets =
      t.head.enabled() ? train::HeadTargets{run.training.coarse, run.hierarchy.num_coarse()} : train::HeadTargets{};
  run.result = train::train_encoder(run.encoder, run.training.images, labels, num_labels, t, augmentation, progress,
                                    run.autoencoder, conditions, head_targets);
  run.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - train_start).count();
  if (t.distributed.distributed()) run.communication = t.distributed.communication_times();
  if (!loss.needs.trains_encoder) run.encoder = train::Encoder{nullptr};  // the embedding is the autoencoder's alone
  // Every rank embeds its shard and evaluates the weights every rank holds, so that the ranks
  // stay in step for what the caller does next (an experiment's next run); rank 0 reports.
  run.train_embeddings = train::embed(run.encoder, run.training.images, job, run.autoencoder);
  run.test_embeddings = train::embed(run.encoder, run.test.images, job, run.autoencoder);
  run.evaluation = train::evaluate_transfer(run.train_embeddings, run.training.coarse, run.training.fine, run.test_embeddings,
                                            run.test.coarse, run.test.fine, t.seed, o.gamma);
  if (run.result.classifier) {
    const auto predicted = train::classifier_logits(run.encoder, run.result.classifier, run.test.images).argmax(1);
    run.evaluation.head_accuracy = predicted.eq(run.test.coarse).to(torch::kDouble).mean().item<double>();
  }
  if (run.training.colours.defined()) {
    run.evaluation.colour_mse =
        train::background_colour_mse(run.train_embeddings, run.training.colours, run.test_embeddings, run.test.colours);
  }
  if (o.corruptions) {
    run.evaluation.corruption = train::evaluate_corruptions(run.encoder, run.autoencoder, run.train_embeddings, run.training.fine,
                                                            run.test.images, run.test.fine, t.seed, job);
    if (run.result.classifier) {
      run.evaluation.head_corruption =
          train::evaluate_head_corruptions(run.encoder, run.result.classifier, run.test.images, run.test.coarse, t.seed);
    }
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

json train_run_json(const TrainRunOptions& o, const TrainedRun& run) {
  const train::TrainResult& result = run.result;
  const LabelledSplit& training = run.training;
  const LabelledSplit& test = run.test;
  const train::TrainOptions& t = o.train;
  const train::LossOptions loss = run_loss_options(o);
  // Where rank 0's training time went besides computing: each kind of collective, with its
  // waiting for the slower rank.
  json communication = json::array();
  for (const auto& c : run.communication) {
    communication.push_back({{"what", c.what}, {"calls", c.calls}, {"seconds", c.seconds}, {"bytes", c.bytes}});
  }
  json epochs = json::array();
  for (const auto& e : result.epochs) {
    epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}, {"samples_per_second", e.samples_per_second}});
  }
  const bool finished = static_cast<int64_t>(result.epochs.size()) == t.epochs;
  json parameters = {{"data", data_source(o.data)},
                     {"colour_backgrounds", o.data.colour_backgrounds ? json(*o.data.colour_backgrounds) : json(nullptr)},
                     {"hierarchy", data_hierarchy(o.data)}, {"model", o.model.kind}, {"loss", t.loss},
                     {"include_partner", loss.include_partner}, {"cond_kernel", loss.cond_kernel},
                     {"reconstruction_weight", t.reconstruction_weight}, {"autoencoder", autoencoder_mode(o)},
                     {"autoencoder_dropout", o.autoencoder_dropout}, {"label_smoothing", o.label_smoothing},
                     {"augmentation", !o.no_augmentation}, {"recipe", o.recipe.empty() ? "geomsim" : o.recipe},
                     {"cosine_period", t.cosine_period_epochs}, {"label_noise", o.label_noise},
                     {"condition_on", o.condition_on}, {"cond_clusters", o.cond_clusters}, {"epochs", t.epochs},
                     {"batch_size", t.batch_size}, {"lr", t.learning_rate}, {"weight_decay", t.weight_decay},
                     {"embedding_dim", o.model.embedding_dim}, {"width", o.model.width}, {"seed", t.seed},
                     {"threads", torch::get_num_threads()}, {"train_samples", training.images.size(0)},
                     {"test_samples", test.images.size(0)}, {"checkpoint", t.checkpoint}, {"sync_every", t.sync_every},
                     {"precision", t.precision},
                     {"head_weight", t.head.weight}, {"head_label_smoothing", t.head.label_smoothing},
                     {"head_dropout", t.head.dropout}, {"head_labelled_share", t.head.labelled_share}};
  // Every numeric loss parameter, by its key (the flag exclude-partner is include_partner above).
  for (const train::LossParameter& p : train::loss_parameters()) {
    if (!p.flag) parameters[p.key()] = p.get(loss);
  }
  json out = {{"command", "train"},
              {"parameters", parameters},
              {"device", result.device},
              {"world_size", run.world_size},
              {"train_seconds", run.train_seconds},
              {"communication", communication},
              {"resumed_epochs", result.resumed_epochs},
              {"finished", finished},
              {"epochs", epochs},
              {"evaluation", evaluation_json(run.evaluation)},
              {"seconds", run.seconds}};
  return out;
}

}  // namespace geomsim::train_experiments
