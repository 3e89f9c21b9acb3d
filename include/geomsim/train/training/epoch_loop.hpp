#pragma once
// The one epoch loop of geomsim's trainers (train_encoder, train_end_model), written once. A
// trainer supplies an EpochTask (its epoch's order, a step's loss, the update); everything done
// between steps and epochs (progress, checkpoints, validation and model selection, early
// stopping) is a TrainingCallback, as Ceres's IterationCallback: each may stop the loop with a
// named reason.
//
// No host sync in the hot loop: a step's loss stays on the run's device, in a tensor of the
// epoch's step losses, and is read back only every sync_every steps and at the end of the
// epoch. At a read-back:
//   - the losses are checked: a non-finite one ends the run with ComputationFailed naming the
//     epoch and the step of the first one, before the update of the step at the read-back (so
//     with sync_every = 1 before any update sees it; otherwise up to sync_every - 1 updates may
//     have, and the weights in memory are then not to be used). The epoch's end-of-epoch
//     callbacks, and with them its checkpoint, never run: the last checkpoint stays as it was.
//   - on_step callbacks receive one StepReport per step since the last read-back, in order:
//     reports arrive in bursts at read-backs, not after every step.
// The epoch's loss is the mean of its step losses, summed in step order in double precision.
// On the meta device (tests: it has no data and refuses host reads) there is nothing to read
// back: its losses count as 0 and are not checked, so that a whole run's steps can run there.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <torch/torch.h>
#include <vector>

namespace geomsim::train {

// What on_step callbacks receive for every optimisation step (at read-backs, see above).
struct StepReport {
  int64_t epoch = 0, epochs = 0;            // 1-based epoch of `epochs`
  int64_t step = 0, steps_per_epoch = 0;    // 1-based step within the epoch
  int64_t batch_size = 0;                   // samples (not views) per step
  double loss = 0.0;                        // this step's loss
};

// What on_epoch_end callbacks receive after every epoch.
struct EpochSummary {
  int64_t epoch = 0, epochs = 0;  // 1-based epoch of `epochs`
  int64_t steps = 0;
  double loss = 0.0;              // mean of the step losses
  double seconds = 0.0;           // the epoch's steps, from begin_epoch to the last read-back
  std::chrono::steady_clock::time_point start;  // when the epoch began (for callbacks that time more)
};

// A callback's answer after an epoch: go on, or stop the loop with a reason.
struct LoopControl {
  bool stop = false;
  std::string reason;
  static LoopControl proceed() { return {}; }
  static LoopControl stop_with(std::string why) { return {true, std::move(why)}; }
};

class TrainingCallback {
 public:
  virtual ~TrainingCallback() = default;
  virtual void on_step(const StepReport& report) { (void)report; }
  // Called in the order the callbacks were given; the first that stops ends the loop (the later
  // ones still run for this epoch, so that e.g. its checkpoint is written).
  virtual LoopControl on_epoch_end(const EpochSummary& summary) {
    (void)summary;
    return LoopControl::proceed();
  }
};

// A callback made of functions (either may be empty).
class FunctionCallback : public TrainingCallback {
 public:
  explicit FunctionCallback(std::function<LoopControl(const EpochSummary&)> epoch_end,
                            std::function<void(const StepReport&)> step = {})
      : epoch_end_(std::move(epoch_end)), step_(std::move(step)) {}
  void on_step(const StepReport& report) override {
    if (step_) step_(report);
  }
  LoopControl on_epoch_end(const EpochSummary& summary) override {
    return epoch_end_ ? epoch_end_(summary) : LoopControl::proceed();
  }

 private:
  std::function<LoopControl(const EpochSummary&)> epoch_end_;
  std::function<void(const StepReport&)> step_;
};

// Early stopping: stops when `metric` (read after each epoch; higher is better) has not improved
// on its best for `patience` epochs, with the reason "early stopping: <name> has not improved
// for <patience> epochs".
class EarlyStopping : public TrainingCallback {
 public:
  EarlyStopping(std::string name, std::function<double()> metric, int64_t patience);
  LoopControl on_epoch_end(const EpochSummary& summary) override;

 private:
  std::string name_;
  std::function<double()> metric_;
  int64_t patience_;
  double best_ = 0.0;
  int64_t best_epoch_ = 0;
};

// What a trainer does; the loop calls begin_epoch, then loss and update for each step.
class EpochTask {
 public:
  virtual ~EpochTask() = default;
  // Prepares epoch `epoch` (0-based: its order of examples) and returns its number of steps (>= 1).
  virtual int64_t begin_epoch(int64_t epoch) = 0;
  // The forward pass of step `step` (0-based): a scalar loss on the run's device, with its graph.
  virtual torch::Tensor loss(int64_t epoch, int64_t step) = 0;
  // The backward pass and the optimiser's step on that loss.
  virtual void update(const torch::Tensor& loss) = 0;
};

struct EpochLoopOptions {
  int64_t first_epoch = 0;   // epochs already finished (restored from a checkpoint)
  int64_t epochs = 1;        // of the schedule
  int64_t stop_after = 0;    // stop after this many finished epochs (0: run all)
  int64_t sync_every = 50;   // read the step losses back every this many steps (and at each epoch's end)
  int64_t batch_size = 0;    // samples per step, for the reports
  c10::Device device = c10::Device(c10::kCPU);  // the run's: where the step losses are kept
  // For the divergence message: the checkpoint file written after each epoch (empty: none), and
  // advice appended to it ("a smaller --lr ...").
  std::string checkpoint;
  std::string divergence_advice;
};
// Throws InvalidArgument("sync-every") unless sync_every >= 1.
void validate(const EpochLoopOptions& options);

struct LoopSummary {
  int64_t epochs_run = 0;         // in this call
  int64_t finished_epochs = 0;    // including those finished before (first_epoch)
  std::string stop_reason;        // "finished", "stop-after", or the reason of the callback that stopped
  // "stopped after epoch 3 of 10 (stop-after)", "finished 10 epochs".
  std::string brief_report() const;
};

// Runs epochs first_epoch + 1 .. min(epochs, stop_after): see the top of this file. Throws
// ComputationFailed for a non-finite loss; whatever the task and the callbacks throw passes through.
LoopSummary run_epoch_loop(EpochTask& task, const EpochLoopOptions& options, const std::vector<TrainingCallback*>& callbacks);

}  // namespace geomsim::train
