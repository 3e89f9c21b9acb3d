#pragma once
// The methods of seed 004's worst-group robustness experiment (§5, Table 4), on a data set of
// robustness_data.hpp. Every method ends in the same end model (robust_training.hpp: the same
// architecture, initial weights, optimiser and budget); they differ in the labels they use.
//
//   erm              the end model by ERM on the class labels; selected by validation accuracy.
//   jtt              JTT (just_train_twice.hpp): an ERM model for jtt_epochs (its last epoch),
//                    its error set upsampled jtt_upweight times for the end model (ERM).
//   george           GEORGE-style: the erm method's model, its embeddings clustered within each
//                    class (cluster_selection.hpp), the clusters as groups for Group DRO.
//   supcon           the same with an encoder trained by SupCon (seed 001) on the class labels.
//   spread           the same with L_spread alone (seed 004's SupCon + cNCE, no autoencoder) on the
//                    class labels: seed 000's strata recovery (§5, Table 3), where L_spread's
//                    clusters are the pseudo-labels for Group DRO.
//   thanos           the same with THANOS (seed 004: L_spread + the class-conditional autoencoder,
//                    embeddings concatenated) trained on the class labels.
//   cclk-fair        the same with CCL-K Fair (seed 002, eq. 8) conditioned on the background
//                    attribute (spurious data set only): the negatives' score is the kernel
//                    conditional estimate given the background. Its encoder sees no class labels.
//   groupdro-oracle  Group DRO on the true groups.
// Model selection is by worst-group accuracy on validation over the method's own groups: the
// pseudo-groups for the unsupervised methods (clusters of the validation embeddings, assigned
// to the nearest cluster of their class; for JTT, class x whether the first model errs), the
// true groups for the oracle alone, and one group (plain accuracy) for ERM.
//
// Checkpoints: the first stage (JTT's or GEORGE's ERM model, or the contrastive encoder) in
// checkpoint + ".stage1", the end model in checkpoint; a run started again resumes both, and a
// checkpoint written with other options is refused. stop_after counts the epochs of both stages,
// the first stage's first.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "geomsim/metrics/cluster_selection.hpp"
#include "geomsim/metrics/group_accuracy.hpp"
#include "geomsim/metrics/subgroup_recovery.hpp"
#include "geomsim/train/robustness/robust_training.hpp"
#include "geomsim/train/data/robustness_data.hpp"
#include "geomsim/train/training/trainer.hpp"

namespace geomsim::train {

// Which labels a method sees, in words (for the JSON, the README and the report page).
struct LabelsSeen {
  std::string representation;   // the first stage (encoder or first model); empty when there is none
  std::string end_model;        // training the end model
  std::string model_selection;  // choosing the end model's epoch on validation
};

// The groups a method's end model is trained on and its epoch selected by.
enum class RobustnessGroups {
  none,                // ERM on the class labels; selection by plain accuracy
  first_model_errors,  // JTT: class x whether a first ERM model (jtt_epochs) errs; its errors upsampled
  clusters,            // clusters of a first stage's embeddings within each class, as Group DRO's groups
  true_groups,         // Group DRO on the true groups (the oracle)
};

// One method of the table above: what sets it apart is read from here, never from its name.
struct RobustnessMethod {
  std::string name;   // "george"
  std::string title;  // its row on the pages ("GEORGE-style (Sohoni et al.)")
  RobustnessGroups groups = RobustnessGroups::none;
  // The contrastive encoder of the first stage (a loss_registry.hpp name), whose embeddings are
  // clustered; empty: none (with RobustnessGroups::clusters, the ERM model's embeddings are).
  std::string encoder_loss;
  // The encoder conditions on the data set's attribute (the background) in place of the class
  // labels: only on a data set that has one (GroupedData::has_attribute).
  bool conditions_on_attribute = false;
  LabelsSeen labels;

  bool trains_encoder() const { return !encoder_loss.empty(); }
  bool uses_clusters() const { return groups == RobustnessGroups::clusters; }
};

// Every method, in the order of the CLI's help.
const std::vector<RobustnessMethod>& robustness_methods();
// Throws InvalidArgument("method", "must be one of erm, jtt, ...; got 'name'").
const RobustnessMethod& robustness_method(const std::string& name);
// The names, in the table's order.
std::vector<std::string> robustness_method_names();

struct RobustnessOptions {
  std::string method = "erm";
  EncoderOptions model;        // of the end model and of the contrastive encoders (image size from the data)
  EndModelOptions end;         // objective, checkpoint, stop_after and run_description are set per stage
  int64_t jtt_epochs = 2;
  int64_t jtt_upweight = 20;
  TrainOptions encoder;        // supcon, spread, thanos, cclk-fair: epochs, batch size, lr, tau, alpha, ... (loss set by the method)
  AugmentationOptions augmentation;
  ClusterSelectionOptions clustering;
  uint64_t seed = 0;
  std::string checkpoint;      // end model; the first stage in checkpoint + ".stage1"
  int64_t stop_after = 0;
  std::string run_description = "{}";  // every option, stored in the checkpoints
  // Every stage's device, device_explicit and sync_every (those of `end` and `encoder` are
  // replaced by these): see EndModelOptions and TrainOptions.
  torch::Device device = torch::kCPU;
  bool device_explicit = false;
  int64_t sync_every = 50;
  // The data-parallel job every stage runs on (EndModelOptions::distributed and
  // TrainOptions::distributed): the encoders' global batch (encoder.batch_size) divides among
  // the ranks, the end models' batches need not; the embeddings that are clustered and every
  // prediction are computed in shards and gathered, and every rank uses rank 0's pseudo-groups.
  DistributedContext distributed;
};

// Throws InvalidArgument naming the option (method; cclk-fair on a data set without the
// background attribute), before any data is loaded.
void validate(const RobustnessOptions& options, bool data_has_attribute);

// The first stage's checkpoint file for an end-model checkpoint path.
std::string first_stage_checkpoint(const std::string& checkpoint);
// Refuses (InvalidArgument("encoder-batch-size")) an encoder batch that does not divide among
// `world_size` data-parallel ranks, for a method that trains an encoder.
void require_encoder_batch_divides(const std::string& method, int64_t encoder_batch_size, int world_size);

struct RobustnessResult {
  bool finished = false;
  std::optional<TrainResult> encoder_stage;      // supcon, spread, thanos, cclk-fair
  std::optional<EndModelResult> first_model;     // jtt, george
  std::optional<EndModelResult> end_model;       // absent when stopped before it
  std::optional<ClassClusters> clusters;         // george, supcon, spread, thanos, cclk-fair
  int64_t error_set_size = 0;                    // jtt
  int64_t selection_groups = 1;                  // the number of groups model selection used
  std::vector<int> train_pseudo_groups, validation_pseudo_groups;  // jtt and the clustering methods
  std::optional<SubgroupRecovery> recovery_train, recovery_validation;  // pseudo-groups vs true groups
  std::optional<GroupAccuracy> validation, test;  // the end model on the true groups
};

RobustnessResult run_robustness(const GroupedData& data, const RobustnessOptions& options,
                                const std::function<void(const std::string&)>& progress = {});

}  // namespace geomsim::train
