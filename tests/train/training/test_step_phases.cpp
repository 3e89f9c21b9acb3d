// The phase timer of a training step (TrainOptions::time_phases, data/cuda_runtime.hpp's
// PhaseTimer) on the CPU: every phase timed, the phases within the run's wall time, and not one
// bit of the result changed by timing it. tests/gpu/test_gpu_checks.cpp checks the same on CUDA.
#include "train/catch_with_torch.hpp"

#include <chrono>

#include "geomsim/train/data/cuda_runtime.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim::train;

TEST_CASE("The phase timer counts the time between marks to the phase each mark ends", "[train][phases]") {
  PhaseTimer timer(torch::Device(torch::kCPU), 3);
  const auto spin = [](std::chrono::microseconds how_long) {
    const auto end = std::chrono::steady_clock::now() + how_long;
    while (std::chrono::steady_clock::now() < end) {
    }
  };
  const auto start = std::chrono::steady_clock::now();
  timer.begin();
  spin(std::chrono::microseconds(2000));
  timer.mark(2);
  spin(std::chrono::microseconds(500));
  timer.mark(0);
  spin(std::chrono::microseconds(500));
  timer.mark(2);
  const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  spin(std::chrono::microseconds(1000));
  timer.begin();  // the time since the last mark belongs to no phase
  const std::vector<double> ms = timer.take_ms();
  REQUIRE(ms.size() == 3);
  CHECK(ms[0] >= 0.5);
  CHECK(ms[1] == 0.0);
  CHECK(ms[2] >= 2.5);
  CHECK(ms[0] + ms[1] + ms[2] <= wall_ms + 1e-6);  // + the rounding of three sums
  const std::vector<double> again = timer.take_ms();  // taken: nothing left
  CHECK(again == std::vector<double>(3, 0.0));
}

TEST_CASE("Timing the phases of a training step changes no bit of the run and times each phase", "[train][trainer][phases]") {
  const std::string loss = GENERATE("spread", "ce", "autoencoder");
  CAPTURE(loss);
  torch::manual_seed(5);
  const torch::Tensor images = torch::rand({96, 1, 28, 28});
  const torch::Tensor labels = torch::remainder(torch::arange(96, torch::kLong), 2);
  TrainOptions o;
  o.loss = loss;
  o.epochs = 2;
  o.batch_size = 32;  // 3 steps an epoch
  o.seed = 7;
  o.sync_every = 2;   // a read-back within the epoch as well as at its end
  const auto run = [&](bool time_phases) {
    TrainOptions options = o;
    options.time_phases = time_phases;
    torch::manual_seed(options.seed);
    Encoder e(testing::tiny_encoder("cnn", 8, 16));
    Autoencoder ae(testing::tiny_autoencoder(8));
    const auto start = std::chrono::steady_clock::now();
    const TrainResult r = train_encoder(e, images, labels, 2, options, AugmentationOptions{}, {}, ae);
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    std::vector<torch::Tensor> w = testing::weights(e);
    for (const auto& t : testing::weights(*ae)) w.push_back(t);
    return std::make_tuple(w, r, wall_ms);
  };
  const auto [plain, plain_result, plain_ms] = run(false);
  const auto [timed, timed_result, timed_ms] = run(true);
  CHECK(testing::identical(timed, plain));
  REQUIRE(timed_result.epochs.size() == 2);
  REQUIRE(plain_result.epochs.size() == 2);
  double total_ms = 0.0;
  for (std::size_t k = 0; k < 2; ++k) {
    CHECK(timed_result.epochs[k].loss == plain_result.epochs[k].loss);
    CHECK(plain_result.epochs[k].phases.steps == 0);  // off: nothing measured
    CHECK(plain_result.epochs[k].phases.total_ms() == 0.0);
    const StepPhaseTimes& phases = timed_result.epochs[k].phases;
    CHECK(phases.steps == 3);
    for (int p = 0; p < kStepPhases; ++p) {
      const auto phase = static_cast<StepPhase>(p);
      CAPTURE(step_phase_names()[static_cast<std::size_t>(p)]);
      // The autoencoder alone has no views and no encoder pass: its step is its loss.
      if (loss == "autoencoder" && (phase == StepPhase::augmentation || phase == StepPhase::forward)) {
        CHECK(phases[phase] == 0.0);
      } else {
        CHECK(phases[phase] > 0.0);
      }
    }
    // The phases tile the epoch's steps: within the epoch's time (which adds its shuffle and
    // its last read-back).
    CHECK(phases.total_ms() <= 1e3 * timed_result.epochs[k].seconds + 1e-6);
    total_ms += phases.total_ms();
  }
  CHECK(total_ms <= timed_ms + 1e-6);
}

TEST_CASE("The phases of a step have their names", "[train][phases]") {
  CHECK(std::string(step_phase_names()[static_cast<std::size_t>(StepPhase::augmentation)]) == "augmentation");
  CHECK(std::string(step_phase_names()[static_cast<std::size_t>(StepPhase::optimizer)]) == "optimizer");
  CHECK(std::string(step_phase_names()[static_cast<std::size_t>(StepPhase::other)]) == "other");
}
