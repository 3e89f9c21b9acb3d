#include "geomsim/train/training/epoch_loop.hpp"

#include <algorithm>
#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

EarlyStopping::EarlyStopping(std::string name, std::function<double()> metric, int64_t patience)
    : name_(std::move(name)), metric_(std::move(metric)), patience_(patience) {
  require_at_least("patience", patience, 1);
}

LoopControl EarlyStopping::on_epoch_end(const EpochSummary& summary) {
  const double value = metric_();
  if (best_epoch_ == 0 || value > best_) {
    best_ = value;
    best_epoch_ = summary.epoch;
    return LoopControl::proceed();
  }
  if (summary.epoch - best_epoch_ >= patience_) {
    return LoopControl::stop_with("early stopping: " + name_ + " has not improved for " + std::to_string(patience_) + " epoch" +
                                  (patience_ == 1 ? "" : "s") + " (best " + format_number(best_) + " at epoch " +
                                  std::to_string(best_epoch_) + ")");
  }
  return LoopControl::proceed();
}

void validate(const EpochLoopOptions& o) {
  require_at_least("sync-every", o.sync_every, 1);
  require_at_least("epochs", o.epochs, 1);
  require_at_least("stop-after", o.stop_after, 0);
}

std::string LoopSummary::brief_report() const {
  if (stop_reason == "finished") return "finished " + std::to_string(finished_epochs) + " epochs";
  return "stopped after epoch " + std::to_string(finished_epochs) + " (" + stop_reason + ")";
}

LoopSummary run_epoch_loop(EpochTask& task, const EpochLoopOptions& o, const std::vector<TrainingCallback*>& callbacks) {
  validate(o);
  LoopSummary summary;
  summary.finished_epochs = o.first_epoch;
  const int64_t last = o.stop_after > 0 ? std::min(o.epochs, o.stop_after) : o.epochs;
  const auto loss_options = torch::TensorOptions().dtype(torch::kDouble).device(o.device);
  for (int64_t epoch = o.first_epoch; epoch < last; ++epoch) {
    EpochSummary end;
    end.start = std::chrono::steady_clock::now();
    end.epoch = epoch + 1;
    end.epochs = o.epochs;
    const int64_t steps = task.begin_epoch(epoch);
    end.steps = steps;
    // The epoch's step losses, on the device: written by every step, read at read-backs only.
    const auto losses = torch::empty({std::max<int64_t>(steps, 1)}, loss_options);
    double total = 0.0;
    int64_t read = 0;  // steps read back so far
    // Reads the losses of steps read..upto-1, checks them, and reports them.
    const auto read_back = [&](int64_t upto) {
      // The meta device (tests) holds no data: nothing to read back, its losses count as 0.
      const auto values = o.device.type() == c10::kMeta ? torch::zeros({upto - read}, torch::kDouble)
                                                         : losses.narrow(0, read, upto - read).to(torch::kCPU).contiguous();
      const double* value = values.data_ptr<double>();
      for (int64_t k = 0; k < upto - read; ++k) {
        if (!std::isfinite(value[k])) {
          const int64_t step = read + k;
          throw ComputationFailed(
              "training diverged: the loss is " + format_number(value[k]) + " at epoch " + std::to_string(epoch + 1) + ", step " +
              std::to_string(step + 1) + " of " + std::to_string(steps) +
              (o.checkpoint.empty() ? std::string()
               : epoch == 0         ? "; no checkpoint was written"
                                    : "; " + o.checkpoint + " keeps epoch " + std::to_string(epoch) + " and no new checkpoint was written") +
              o.divergence_advice);
        }
      }
      for (int64_t k = 0; k < upto - read; ++k) {
        total += value[k];
        const StepReport report{epoch + 1, o.epochs, read + k + 1, steps, o.batch_size, value[k]};
        for (auto* callback : callbacks) callback->on_step(report);
      }
      read = upto;
    };
    for (int64_t step = 0; step < steps; ++step) {
      const torch::Tensor loss = task.loss(epoch, step);
      losses[step].copy_(loss.detach());
      // A read-back comes before the update: with sync_every = 1 no update sees a non-finite loss.
      if ((step + 1) % o.sync_every == 0) read_back(step + 1);
      task.update(loss);
    }
    if (read < steps) read_back(steps);
    end.loss = total / static_cast<double>(std::max<int64_t>(steps, 1));
    end.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - end.start).count();
    ++summary.epochs_run;
    summary.finished_epochs = epoch + 1;
    std::string stop;
    for (auto* callback : callbacks) {
      const LoopControl control = callback->on_epoch_end(end);
      if (control.stop && stop.empty()) stop = control.reason.empty() ? std::string("stopped by a callback") : control.reason;
    }
    if (!stop.empty()) {
      summary.stop_reason = stop;
      return summary;
    }
  }
  summary.stop_reason = summary.finished_epochs >= o.epochs ? "finished" : "stop-after";
  return summary;
}

}  // namespace geomsim::train
