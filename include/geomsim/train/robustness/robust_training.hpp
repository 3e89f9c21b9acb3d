#pragma once
// The end models of the robustness experiments (seed 004 §5): an encoder (encoders.hpp) with a
// linear head on its features, trained by SGD with momentum and an L2 penalty (coupled weight
// decay, the "strong L2" of Group DRO), at a constant learning rate, without augmentation:
//   erm       the mean cross-entropy; each epoch visits every example repeats[i] times in a
//             seeded random order (repeats: JTT's upsampling of its error set; 1 by default);
//   groupdro  Group DRO's robust loss (group_dro.hpp) on the training groups; each epoch draws N
//             examples with replacement, example i with probability proportional to 1/n_g(i),
//             so every group is drawn equally often.
// After every epoch the model is scored on validation: the accuracy of each selection group
// (true groups, pseudo-groups, or one group for the plain accuracy) and the worst of them. The
// model returned is the epoch with the highest worst-group validation accuracy (the earliest on
// ties): model selection (keep_last turns it off).
//
// The epochs run through the one epoch loop (epoch_loop.hpp; validation and model selection,
// progress and the checkpoint are its callbacks), on the device the caller gives
// (EndModelOptions::device). With a checkpoint path, the state (model, best model, optimizer,
// Group DRO weights, the random generators, history) is written atomically after every epoch
// with the run's description and options (run_checkpoint.hpp); a run started with the same path
// resumes after the last finished epoch and ends with the same weights as an uninterrupted one
// on the same kind of device, and a checkpoint written with another description or other
// options is refused, as is one that fails its CRC-32 checks. A non-finite loss ends the run with
// ComputationFailed naming the epoch and step; the last checkpoint stays as it was.
#include <cstdint>
#include <functional>
#include <string>
#include <torch/torch.h>
#include <vector>

#include "geomsim/train/distributed/distributed_context.hpp"
#include "geomsim/train/models/encoders.hpp"
#include "geomsim/train/robustness/group_dro.hpp"

namespace geomsim::train {

// An encoder's features followed by a linear head. With encoder.kind "linear" (the library's
// only; no encoder) the head acts on the flattened images: a linear model.
class ClassifierImpl : public torch::nn::Module {
 public:
  ClassifierImpl(const EncoderOptions& encoder, int64_t num_classes);
  torch::Tensor forward(const torch::Tensor& images);  // logits, N x num_classes
  Encoder encoder{nullptr};  // null for "linear"
  torch::nn::Linear head{nullptr};
};
TORCH_MODULE(Classifier);

// A classifier initialised from torch's generator seeded with `seed`: the same seed, the same
// initial weights.
Classifier make_classifier(const EncoderOptions& encoder, int64_t num_classes, uint64_t seed);

// Predicted classes (int64, on the CPU), in evaluation mode without gradients, in batches.
// With a data-parallel job, each rank predicts its shard of the images and every rank gets all
// the predictions (gather_row_shards: a collective, every rank must call it).
torch::Tensor predict(Classifier& model, const torch::Tensor& images, int64_t batch_size = 1024);
torch::Tensor predict(Classifier& model, const torch::Tensor& images, const DistributedContext& job);

struct EndModelOptions {
  std::string objective = "erm";  // "erm" or "groupdro"
  int64_t epochs = 20;
  int64_t batch_size = 64;
  double learning_rate = 0.01;
  double momentum = 0.9;
  double l2 = 0.01;  // SGD weight decay: the penalty (l2 / 2) |theta|^2
  GroupDroOptions dro;
  uint64_t seed = 0;  // the epochs' random order
  bool keep_last = false;  // return the last epoch's weights instead of the selected ones (JTT's first model)
  std::string checkpoint;             // file; empty: none
  int64_t stop_after = 0;             // stop after this many finished epochs (0: all)
  std::string run_description = "{}";  // JSON object stored in the checkpoint
  // The run's device (resolve_device), never chosen here: the model, the data (when it fits,
  // else each batch), the epoch's order and Group DRO's weights are there. Recorded in the
  // checkpoint; a resume on another kind of device is refused unless device_explicit.
  torch::Device device = torch::kCPU;
  bool device_explicit = false;
  // Read the step losses back every this many steps and at the end of each epoch (epoch_loop.hpp).
  int64_t sync_every = 50;
  // The data-parallel job this process is a rank of (distributed_context.hpp); one process by
  // default. Every rank draws the same epoch order and takes its rows of each global batch of
  // batch_size (uneven_shard: the last batch need not divide); the loss is the global batch's
  // (Group DRO's group means and q from the group sums and counts all-reduced over the ranks),
  // so W ranks train as one process would, up to the order of the sums. Validation is sharded
  // (predict), model selection agrees on every rank, rank 0 writes the checkpoint (which
  // records the world size: a resume with another is refused), and the run ends by checking
  // that every rank holds the same weights.
  DistributedContext distributed;
};
// Throws InvalidArgument naming the option.
void validate(const EndModelOptions& options);

struct EndModelData {
  torch::Tensor images, labels;   // training: N x C x H x W, N class labels
  torch::Tensor groups;           // training groups for groupdro (0..num_groups-1); unused by erm
  int64_t num_groups = 1;
  std::vector<int64_t> repeats;   // erm: copies of each example per epoch (empty: one each)
  torch::Tensor validation_images, validation_labels;
  torch::Tensor validation_groups;  // the selection groups, 0..validation_num_groups-1
  int64_t validation_num_groups = 1;
};

struct EndModelEpoch {
  int64_t epoch = 0;
  double loss = 0.0;  // mean over the epoch's steps of the objective
  double validation_worst = 0.0, validation_average = 0.0;
  double seconds = 0.0;
};

struct EndModelResult {
  std::vector<EndModelEpoch> epochs;  // including those restored from a checkpoint
  int64_t resumed_epochs = 0;
  int64_t best_epoch = 0;             // 1-based
  bool finished = false;              // all epochs ran (not stopped by stop_after)
  std::vector<double> group_weights;  // groupdro: q after the last epoch
  std::string device;                 // the run's device: "cpu", "cuda:0", ...
  std::string stop_reason;            // "finished", "stop-after" (epoch_loop.hpp)
};

// One erm epoch's visiting order: example i repeats[i] times, shuffled on `device` with its
// generator (empty repeats: each of the n examples once).
torch::Tensor erm_epoch_order(const std::vector<int64_t>& repeats, int64_t n, const torch::Device& device = torch::kCPU);

// The loss of one step of train_end_model on a batch on the model's device: the mean
// cross-entropy (group_dro null: erm), or Group DRO's robust loss on the batch's groups, which
// also updates its q (the groups checked by the caller). It reads nothing back from the device,
// so that it runs on the meta device too.
torch::Tensor end_model_loss(Classifier& model, const torch::Tensor& images, const torch::Tensor& labels,
                             const torch::Tensor& groups = {}, GroupDro* group_dro = nullptr);

EndModelResult train_end_model(Classifier& model, int64_t num_classes, const EndModelData& data, const EndModelOptions& options,
                               const std::function<void(const std::string&)>& progress = {});

// Throws InvalidArgument("checkpoint") naming the options that differ when `stored` (the JSON
// object a checkpoint holds) is not `current`: a resume must use the same options. Their input
// files' contents are compared by require_same_inputs (run_checkpoint.hpp), which names the option.
void require_same_run(const std::string& stored, const std::string& current, const std::string& path);

}  // namespace geomsim::train
