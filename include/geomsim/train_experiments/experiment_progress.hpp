#pragma once
// Progress of an experiment's training runs on stderr, one line rewritten in place, only when
// stderr is a terminal (CI and redirected runs stay quiet):
//   geomsim experiment table-3: run 5/24 (thanos fmnist-2 cnn seed 1) epoch 2/3 step 12/31
//     loss 3.412, 1043 samples/s, ETA run 0:21, all 6:40
// The ETA of the remaining runs is their planned samples (epochs x training images) over the
// samples per second measured so far in this invocation.
#include <chrono>
#include <cstdint>
#include <string>

namespace geomsim::train_experiments {

class ExperimentProgress {
 public:
  // `planned_samples`: the training samples of all runs this invocation will train.
  // shown: this process reports (rank 0 of a data-parallel job).
  ExperimentProgress(std::string name, std::size_t runs_to_train, double planned_samples, bool shown = true);
  // Whether lines are shown (shown, and stderr is a terminal).
  bool enabled() const { return enabled_; }
  void start_run(const std::string& label, double samples);
  // After an optimisation step of the current run.
  void step(int64_t epoch, int64_t epochs, int64_t step, int64_t steps, int64_t batch_size, double loss);
  // After the run's evaluation.
  void finish_run();
  // Ends the line (before other output, and at the end).
  void close();

 private:
  void show(const std::string& line);
  std::string name_;
  bool enabled_ = false;
  std::size_t runs_ = 0, run_ = 0;
  double planned_samples_ = 0.0, done_samples_ = 0.0, run_samples_ = 0.0, run_done_ = 0.0;
  std::string label_;
  std::chrono::steady_clock::time_point start_, last_shown_;
  double trained_seconds_ = 0.0;  // wall time of finished runs
  std::chrono::steady_clock::time_point run_start_;
  bool open_line_ = false;
};

// "1:05:09" or "4:07" for a number of seconds.
std::string clock_text(double seconds);

}  // namespace geomsim::train_experiments
