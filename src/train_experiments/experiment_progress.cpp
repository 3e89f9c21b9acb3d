#include "geomsim/train_experiments/experiment_progress.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

namespace geomsim::train_experiments {

std::string clock_text(double seconds) {
  const auto s = static_cast<long>(std::lround(std::max(0.0, seconds)));
  char buffer[32];
  if (s >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%ld:%02ld", s / 60, s % 60);
  }
  return buffer;
}

ExperimentProgress::ExperimentProgress(std::string name, std::size_t runs_to_train, double planned_samples, bool shown)
    : name_(std::move(name)),
      enabled_(shown && isatty(fileno(stderr)) != 0),
      runs_(runs_to_train),
      planned_samples_(planned_samples),
      start_(std::chrono::steady_clock::now()) {}

void ExperimentProgress::start_run(const std::string& label, double samples) {
  ++run_;
  label_ = label;
  run_samples_ = samples;
  run_done_ = 0.0;
  run_start_ = std::chrono::steady_clock::now();
  last_shown_ = {};
}

void ExperimentProgress::step(int64_t epoch, int64_t epochs, int64_t step, int64_t steps, int64_t batch_size, double loss) {
  if (!enabled_) return;
  run_done_ += static_cast<double>(batch_size);
  const auto now = std::chrono::steady_clock::now();
  if (now - last_shown_ < std::chrono::milliseconds(250) && step != steps) return;
  last_shown_ = now;
  const double run_seconds = std::chrono::duration<double>(now - run_start_).count();
  const double seconds = trained_seconds_ + run_seconds;
  const double rate = seconds > 0 ? (done_samples_ + run_done_) / seconds : 0.0;  // samples per second, wall
  const double run_rate = run_seconds > 0 ? run_done_ / run_seconds : 0.0;
  char text[512];
  const std::string eta_run = rate > 0 ? clock_text((run_samples_ - run_done_) / rate) : "?";
  const std::string eta_all = rate > 0 ? clock_text((planned_samples_ - done_samples_ - run_done_) / rate) : "?";
  std::snprintf(text, sizeof text, "geomsim experiment %s: run %zu/%zu (%s) epoch %lld/%lld step %lld/%lld, loss %.4g, %.0f samples/s, ETA run %s, all %s",
                name_.c_str(), run_, runs_, label_.c_str(), static_cast<long long>(epoch), static_cast<long long>(epochs),
                static_cast<long long>(step), static_cast<long long>(steps), loss, run_rate, eta_run.c_str(), eta_all.c_str());
  show(text);
}

void ExperimentProgress::finish_run() {
  // The run's wall time includes its evaluation, so the ETA counts evaluations too.
  trained_seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start_).count();
  done_samples_ += run_samples_;
}

void ExperimentProgress::show(const std::string& line) {
  std::cerr << "\r\033[K" << line << std::flush;
  open_line_ = true;
}

void ExperimentProgress::close() {
  if (enabled_ && open_line_) std::cerr << "\n" << std::flush;
  open_line_ = false;
}

}  // namespace geomsim::train_experiments
