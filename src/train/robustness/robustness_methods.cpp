#include "geomsim/train/robustness/robustness_methods.hpp"

#include <algorithm>
#include <filesystem>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/robustness/just_train_twice.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train/distributed/data_parallel.hpp"

namespace geomsim::train {
namespace {

using Progress = std::function<void(const std::string&)>;

Progress prefixed(const Progress& progress, const std::string& stage) {
  if (!progress) return {};
  return [progress, stage](const std::string& line) { progress(stage + ": " + line); };
}

// The end model's training data with the method's groups (or none) and selection groups.
EndModelData end_model_data(const GroupedData& d) {
  EndModelData e;
  e.images = d.train.images;
  e.labels = d.train.labels;
  e.validation_images = d.validation.images;
  e.validation_labels = d.validation.labels;
  e.validation_groups = torch::zeros({d.validation.labels.size(0)}, torch::kLong);  // one group: plain accuracy
  return e;
}

EndModelOptions stage_options(const RobustnessOptions& o, const std::string& objective, const std::string& checkpoint,
                              int64_t epochs, int64_t stop_after) {
  EndModelOptions e = o.end;
  e.objective = objective;
  e.epochs = epochs;
  e.seed = o.seed;
  e.checkpoint = checkpoint;
  e.stop_after = stop_after;
  e.run_description = o.run_description;
  e.device = o.device;
  e.device_explicit = o.device_explicit;
  e.sync_every = o.sync_every;
  e.distributed = o.distributed;
  return e;
}

// The ERM model of the erm method (and GEORGE's first stage).
Classifier erm_model(const GroupedData& d, const RobustnessOptions& o, const std::string& checkpoint, int64_t stop_after,
                     EndModelResult& result, const Progress& progress) {
  Classifier model = make_classifier(o.model, d.num_classes(), o.seed);
  result = train_end_model(model, d.num_classes(), end_model_data(d), stage_options(o, "erm", checkpoint, o.end.epochs, stop_after),
                           progress);
  return model;
}

torch::Tensor pseudo_group_tensor(const std::vector<int>& groups) {
  return torch::tensor(std::vector<int64_t>(groups.begin(), groups.end()), torch::kLong);
}

// Rank 0's clusters on every rank. Every rank clusters the same gathered embeddings with the
// same seed, which on a CPU gives the same clusters; this makes it so wherever the clustering's
// arithmetic could differ between processes, so that the ranks' Group DRO steps line up.
void use_rank0_clusters(const DistributedContext& job, RobustnessResult& r) {
  std::vector<int64_t> values(r.train_pseudo_groups.begin(), r.train_pseudo_groups.end());
  values.insert(values.end(), r.validation_pseudo_groups.begin(), r.validation_pseudo_groups.end());
  values.push_back(r.clusters->total);
  values = values_of_rank0(job, values, "broadcast of the pseudo-groups");
  const auto n = static_cast<std::ptrdiff_t>(r.train_pseudo_groups.size());
  const auto m = static_cast<std::ptrdiff_t>(r.validation_pseudo_groups.size());
  std::copy(values.begin(), values.begin() + n, r.train_pseudo_groups.begin());
  std::copy(values.begin() + n, values.begin() + n + m, r.validation_pseudo_groups.begin());
  r.clusters->total = static_cast<int>(values.back());
}

}  // namespace

const std::vector<RobustnessMethod>& robustness_methods() {
  static const std::vector<RobustnessMethod> methods = [] {
    const std::string classes = "class labels (training)";
    const std::string clusters_end = "class labels and its clusters as groups (training)";
    const std::string clusters_selection = "class labels and the clusters' pseudo-groups (validation)";
    const LabelsSeen clustered = {classes, clusters_end, clusters_selection};
    using G = RobustnessGroups;
    return std::vector<RobustnessMethod>{
        {"erm", "ERM", G::none, "", false, {"", classes, "class labels (validation): plain accuracy"}},
        {"jtt", "JTT [34]", G::first_model_errors, "", false,
         {classes, "class labels, with the first model's errors upsampled (training)",
          "class labels and pseudo-groups class x first-model error (validation)"}},
        {"george", "GEORGE-style (Sohoni et al.)", G::clusters, "", false, clustered},
        {"supcon", "SupCon", G::clusters, "supcon", false, clustered},
        {"spread", "L_spread alone (seed 000 Table 3)", G::clusters, "spread", false, clustered},
        {"thanos", "THANOS", G::clusters, "thanos", false, clustered},
        {"groupdro-oracle", "GroupDRO, true groups (oracle)", G::true_groups, "", false,
         {"", "class labels and true groups (training)", "class labels and true groups (validation)"}},
        {"cclk-fair", "CCL-K Fair (background), seed 002", G::clusters, "cclk-fair", true,
         {"background attribute, no class labels (training)", clusters_end, clusters_selection}},
    };
  }();
  return methods;
}

std::vector<std::string> robustness_method_names() {
  std::vector<std::string> names;
  for (const auto& method : robustness_methods()) names.push_back(method.name);
  return names;
}

const RobustnessMethod& robustness_method(const std::string& name) {
  const auto& methods = robustness_methods();
  const auto found = std::find_if(methods.begin(), methods.end(), [&](const RobustnessMethod& m) { return m.name == name; });
  if (found != methods.end()) return *found;
  std::string known;
  for (const auto& method : methods) known += (known.empty() ? "" : ", ") + method.name;
  throw InvalidArgument("method", "must be one of " + known + "; got '" + name + "'");
}

std::string first_stage_checkpoint(const std::string& checkpoint) { return checkpoint.empty() ? "" : checkpoint + ".stage1"; }

void require_encoder_batch_divides(const std::string& method, int64_t encoder_batch_size, int world_size) {
  if (!robustness_method(method).trains_encoder() || encoder_batch_size % world_size == 0) return;
  throw InvalidArgument("encoder-batch-size", "must divide among the " + std::to_string(world_size) +
                                                  " data-parallel ranks (each takes an equal share of every encoder batch), got " +
                                                  std::to_string(encoder_batch_size));
}

void validate(const RobustnessOptions& o, bool data_has_attribute) {
  const RobustnessMethod& method = robustness_method(o.method);
  if (method.conditions_on_attribute && !data_has_attribute) {
    throw InvalidArgument("method", o.method + " conditions on the background attribute, which only the spurious data set has");
  }
  require_at_least("jtt-epochs", o.jtt_epochs, 1);
  require_at_least("jtt-upweight", o.jtt_upweight, 1);
  require_at_least("stop-after", o.stop_after, 0);
  require_at_least("sync-every", o.sync_every, 1);
  require_encoder_batch_divides(o.method, o.encoder.batch_size, o.distributed.world_size());
  EndModelOptions end = o.end;
  end.run_description = o.run_description;
  validate(end);
  validate(o.clustering);
  validate(o.augmentation);
  TrainOptions encoder = o.encoder;
  if (method.trains_encoder()) encoder.loss = method.encoder_loss;  // else its default: the options are checked for every method
  encoder.run_description = o.run_description;
  validate(encoder);
}

RobustnessResult run_robustness(const GroupedData& d, const RobustnessOptions& o, const Progress& progress) {
  validate(o, d.has_attribute());
  const RobustnessMethod& method = robustness_method(o.method);
  if (method.trains_encoder() && d.train.images.size(0) < o.encoder.batch_size) {
    throw InvalidArgument("encoder-batch-size", "must be at most the number of training images (" +
                                                    std::to_string(d.train.images.size(0)) + ")");
  }
  RobustnessOptions options = o;
  options.model.channels = d.train.images.size(1);
  options.model.image_size = d.train.images.size(3);
  validate(options.model);
  RobustnessResult r;
  const std::string first_checkpoint = first_stage_checkpoint(o.checkpoint);
  // stop_after counts both stages' epochs, the first stage's first.
  int64_t first_epochs = 0;
  if (method.groups == RobustnessGroups::first_model_errors) first_epochs = o.jtt_epochs;  // JTT's first model
  if (method.uses_clusters()) first_epochs = method.trains_encoder() ? o.encoder.epochs : o.end.epochs;  // the encoder, or an ERM model
  const int64_t first_stop = o.stop_after > 0 ? std::min(o.stop_after, first_epochs) : 0;
  const int64_t end_stop = o.stop_after > 0 ? o.stop_after - first_epochs : 0;

  EndModelData end_data = end_model_data(d);
  const std::vector<int> train_labels = to_ints(d.train.labels), validation_labels = to_ints(d.validation.labels);
  std::string objective = "groupdro";

  if (method.groups == RobustnessGroups::none) {
    objective = "erm";
  } else if (method.groups == RobustnessGroups::true_groups) {
    end_data.groups = d.train.groups;
    end_data.num_groups = d.num_groups();
    end_data.validation_groups = d.validation.groups;
    end_data.validation_num_groups = d.num_groups();
  } else if (method.groups == RobustnessGroups::first_model_errors) {
    objective = "erm";
    Classifier first = make_classifier(options.model, d.num_classes(), o.seed);
    EndModelOptions first_options = stage_options(options, "erm", first_checkpoint, o.jtt_epochs, first_stop);
    first_options.keep_last = true;
    r.first_model = train_end_model(first, d.num_classes(), end_model_data(d), first_options, prefixed(progress, "JTT first model"));
    if (!r.first_model->finished) return r;
    const std::vector<int64_t> errors = error_set(first, d.train.images, d.train.labels, o.distributed);
    r.error_set_size = static_cast<int64_t>(errors.size());
    end_data.repeats = upsampling_repeats(d.train.images.size(0), errors, o.jtt_upweight);
    // Pseudo-groups: 2 class + (the first model errs).
    std::vector<int> train_wrong(train_labels.size(), 0);
    for (const int64_t i : errors) train_wrong[static_cast<std::size_t>(i)] = 1;
    const auto validation_wrong = to_ints(predict(first, d.validation.images, o.distributed).ne(d.validation.labels));
    for (std::size_t i = 0; i < train_labels.size(); ++i) r.train_pseudo_groups.push_back(2 * train_labels[i] + train_wrong[i]);
    for (std::size_t i = 0; i < validation_labels.size(); ++i) {
      r.validation_pseudo_groups.push_back(2 * validation_labels[i] + validation_wrong[i]);
    }
    end_data.validation_groups = pseudo_group_tensor(r.validation_pseudo_groups);
    end_data.validation_num_groups = 2 * d.num_classes();
  } else {  // the clustering methods
    torch::Tensor train_z, validation_z;
    if (!method.trains_encoder()) {  // GEORGE: the ERM model's embeddings
      EndModelResult first_result;
      Classifier first = erm_model(d, options, first_checkpoint, first_stop, first_result, prefixed(progress, "ERM model"));
      r.first_model = first_result;
      if (!first_result.finished) return r;
      train_z = embed(first->encoder, d.train.images, o.distributed);
      validation_z = embed(first->encoder, d.validation.images, o.distributed);
    } else {
      TrainOptions t = options.encoder;
      t.loss = method.encoder_loss;
      t.seed = o.seed;
      t.checkpoint = first_checkpoint;
      t.stop_after = first_stop;
      t.run_description = o.run_description;
      t.device = o.device;
      t.device_explicit = o.device_explicit;
      t.sync_every = o.sync_every;
      t.distributed = o.distributed;
      if (!first_checkpoint.empty() && std::filesystem::exists(first_checkpoint)) {
        require_same_run(load_checkpoint_model(first_checkpoint).description.run, o.run_description, first_checkpoint);
      }
      torch::manual_seed(o.seed);
      Encoder encoder(options.model);
      Autoencoder autoencoder{nullptr};
      if (loss_entry(t.loss).needs.autoencoder) {  // THANOS: L_spread with the class-conditional autoencoder
        AutoencoderOptions a;
        a.classes = d.num_classes();
        a.channels = options.model.channels;
        a.image_size = options.model.image_size;
        autoencoder = Autoencoder(a);
      }
      const bool fair = method.conditions_on_attribute;
      const auto& conditioning = fair ? d.train.attribute : d.train.labels;
      const int64_t values = fair ? conditioning.max().item<int64_t>() + 1 : d.num_classes();
      r.encoder_stage = train_encoder(encoder, d.train.images, conditioning, std::max<int64_t>(values, 2), t, options.augmentation,
                                      prefixed(progress, "encoder (" + t.loss + ")"), autoencoder);
      if (static_cast<int64_t>(r.encoder_stage->epochs.size()) < t.epochs) return r;
      train_z = embed(encoder, d.train.images, o.distributed, autoencoder);
      validation_z = embed(encoder, d.validation.images, o.distributed, autoencoder);
    }
    ClusterSelectionOptions c = o.clustering;
    c.seed = o.seed;
    r.clusters = select_clusters_within_classes(to_points(train_z), train_labels, c);
    r.train_pseudo_groups = r.clusters->clusters;
    r.validation_pseudo_groups = r.clusters->assign(to_points(validation_z), validation_labels);
    use_rank0_clusters(o.distributed, r);
    if (progress) {
      std::string ks;
      for (const auto& s : r.clusters->per_class) ks += (ks.empty() ? "" : ", ") + std::to_string(s.k);
      progress("clusters per class: " + ks);
    }
    end_data.groups = pseudo_group_tensor(r.train_pseudo_groups);
    end_data.num_groups = r.clusters->total;
    end_data.validation_groups = pseudo_group_tensor(r.validation_pseudo_groups);
    end_data.validation_num_groups = r.clusters->total;
  }
  if (!r.train_pseudo_groups.empty()) {
    r.recovery_train = score_subgroup_clusters(train_labels, to_ints(d.train.groups), r.train_pseudo_groups);
    r.recovery_validation = score_subgroup_clusters(validation_labels, to_ints(d.validation.groups), r.validation_pseudo_groups);
  }
  r.selection_groups = end_data.validation_num_groups;
  if (o.stop_after > 0 && end_stop <= 0) return r;

  Classifier model = make_classifier(options.model, d.num_classes(), o.seed);
  r.end_model = train_end_model(model, d.num_classes(), end_data,
                                stage_options(options, objective, o.checkpoint, o.end.epochs, std::max<int64_t>(end_stop, 0)),
                                prefixed(progress, "end model (" + objective + ")"));
  if (!r.end_model->finished) return r;
  const auto test_predicted = to_ints(predict(model, d.test.images, o.distributed));
  const auto validation_predicted = to_ints(predict(model, d.validation.images, o.distributed));
  r.test = group_accuracy(test_predicted, to_ints(d.test.labels), to_ints(d.test.groups), static_cast<int>(d.num_groups()));
  r.validation = group_accuracy(validation_predicted, validation_labels, to_ints(d.validation.groups), static_cast<int>(d.num_groups()));
  r.finished = true;
  return r;
}

}  // namespace geomsim::train
