// The one epoch loop: callbacks and their stop reasons, read-backs of the step losses every
// sync_every steps, the non-finite policy; the device resolver; augmentations drawn on the
// images' device; and whole training runs on PyTorch's meta device, which has no data and
// refuses host reads, so that a tensor made on a fixed device or an .item() in the step fails.
#include "train/catch_with_torch.hpp"

#include <cmath>
#include <limits>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/augmentations.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/training/epoch_loop.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "train/tiny_models.hpp"
#include "train/scoped_torch_threads.hpp"

using namespace geomsim;
using namespace geomsim::train;

namespace {

// A task without a model: step s of epoch e has the loss values[e][s]; counts updates.
struct ScriptedTask : EpochTask {
  std::vector<std::vector<double>> values;
  int64_t updates = 0;
  int64_t begin_epoch(int64_t epoch) override { return static_cast<int64_t>(values[static_cast<std::size_t>(epoch)].size()); }
  torch::Tensor loss(int64_t epoch, int64_t step) override {
    return torch::tensor(values[static_cast<std::size_t>(epoch)][static_cast<std::size_t>(step)], torch::kDouble);
  }
  void update(const torch::Tensor&) override { ++updates; }
};

struct Recorder : TrainingCallback {
  std::vector<StepReport> steps;
  std::vector<EpochSummary> epochs;
  std::vector<std::size_t> steps_seen_at_epoch_end;
  void on_step(const StepReport& r) override { steps.push_back(r); }
  LoopControl on_epoch_end(const EpochSummary& s) override {
    epochs.push_back(s);
    steps_seen_at_epoch_end.push_back(steps.size());
    return LoopControl::proceed();
  }
};

torch::Tensor tiny_images(int64_t n) {
  torch::manual_seed(11);
  return torch::rand({n, 1, 28, 28});
}

}  // namespace

TEST_CASE("The epoch loop reports every step in order at its read-backs and means the losses in step order", "[train][engine]") {
  ScriptedTask task;
  task.values = {{1, 2, 3, 4, 5, 6, 7}, {0.5, 0.25, 0.125, 1, 1, 1, 1}};
  EpochLoopOptions o;
  o.epochs = 2;
  o.sync_every = 3;
  o.batch_size = 8;
  Recorder recorder;
  const LoopSummary summary = run_epoch_loop(task, o, {&recorder});
  CHECK(summary.stop_reason == "finished");
  CHECK(summary.brief_report() == "finished 2 epochs");
  CHECK(task.updates == 14);
  REQUIRE(recorder.steps.size() == 14);
  for (std::size_t k = 0; k < 14; ++k) {
    CHECK(recorder.steps[k].epoch == static_cast<int64_t>(k / 7 + 1));
    CHECK(recorder.steps[k].step == static_cast<int64_t>(k % 7 + 1));
    CHECK(recorder.steps[k].steps_per_epoch == 7);
    CHECK(recorder.steps[k].batch_size == 8);
    CHECK(recorder.steps[k].loss == task.values[k / 7][k % 7]);
  }
  CHECK(recorder.steps_seen_at_epoch_end == std::vector<std::size_t>{7, 14});  // the epoch's tail is read before its end
  REQUIRE(recorder.epochs.size() == 2);
  CHECK(recorder.epochs[0].loss == 4.0);
  CHECK(recorder.epochs[1].loss == (((((0.5 + 0.25) + 0.125) + 1) + 1) + 1 + 1) / 7.0);
  o.sync_every = 0;
  CHECK_THROWS_WITH(run_epoch_loop(task, o, {}), Catch::Contains("sync-every must be >= 1"));
}

TEST_CASE("A callback stops the epoch loop with a named reason, and stop-after and early stopping are reasons too", "[train][engine]") {
  ScriptedTask task;
  task.values.assign(6, {1.0, 1.0});
  EpochLoopOptions o;
  o.epochs = 6;
  int64_t later_calls = 0;
  FunctionCallback stopper([](const EpochSummary& s) { return s.epoch == 2 ? LoopControl::stop_with("enough at 2") : LoopControl::proceed(); });
  FunctionCallback later([&](const EpochSummary&) {
    ++later_calls;  // still runs for the epoch that stopped (its checkpoint is written)
    return LoopControl::proceed();
  });
  LoopSummary summary = run_epoch_loop(task, o, {&stopper, &later});
  CHECK(summary.stop_reason == "enough at 2");
  CHECK(summary.finished_epochs == 2);
  CHECK(later_calls == 2);
  CHECK(summary.brief_report() == "stopped after epoch 2 (enough at 2)");

  o.first_epoch = 1;  // resumed after epoch 1
  o.stop_after = 3;
  summary = run_epoch_loop(task, o, {});
  CHECK(summary.epochs_run == 2);
  CHECK(summary.stop_reason == "stop-after");

  o.first_epoch = 0;
  o.stop_after = 0;
  const std::vector<double> metric = {0.5, 0.7, 0.6, 0.7, 0.65, 0.9};
  std::size_t at = 0;
  EarlyStopping early("validation accuracy", [&] { return metric[at++]; }, 2);
  summary = run_epoch_loop(task, o, {&early});
  CHECK(summary.finished_epochs == 4);  // best 0.7 at epoch 2; epochs 3 and 4 do not beat it
  CHECK(summary.stop_reason == "early stopping: validation accuracy has not improved for 2 epochs (best 0.7 at epoch 2)");
}

TEST_CASE("A non-finite step loss is ComputationFailed naming the first such epoch and step, whatever the read-back interval",
          "[train][engine][diverged]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  const int64_t sync_every = GENERATE(1, 2, 50);
  CAPTURE(sync_every);
  ScriptedTask task;
  task.values = {{1, 1, 1}, {1, 1, 1, inf, nan, 1}};
  EpochLoopOptions o;
  o.epochs = 2;
  o.sync_every = sync_every;
  o.checkpoint = "run.pt";
  o.divergence_advice = "; try again";
  int64_t epoch_ends = 0;
  FunctionCallback counter([&](const EpochSummary&) {
    ++epoch_ends;
    return LoopControl::proceed();
  });
  try {
    run_epoch_loop(task, o, {&counter});
    FAIL("a non-finite loss did not stop the loop");
  } catch (const ComputationFailed& error) {
    CHECK(std::string(error.what()) ==
          "training diverged: the loss is inf at epoch 2, step 4 of 6; run.pt keeps epoch 1 and no new checkpoint was written; try again");
  }
  CHECK(epoch_ends == 1);  // epoch 2's end (its checkpoint) never ran
  // The read-back comes before the update of the step it ends on: with 1, no update saw inf.
  if (sync_every == 1) CHECK(task.updates == 3 + 3);
}

TEST_CASE("resolve_device takes auto, cpu, cuda and cuda:N, and refuses the rest by name", "[train][device]") {
  CHECK(resolve_device("cpu") == torch::Device(torch::kCPU));
  if (!torch::cuda::is_available()) {
    CHECK(resolve_device("auto") == torch::Device(torch::kCPU));
    CHECK_THROWS_WITH(resolve_device("cuda"), Catch::Contains("is cuda but this machine has no CUDA device"));
    CHECK_THROWS_WITH(resolve_device("cuda:1"), Catch::Contains("no CUDA device"));
    try {
      resolve_device("cuda");
    } catch (const InvalidArgument& error) {
      CHECK(error.argument() == "device");
    }
  } else {
    CHECK(resolve_device("auto") == torch::Device(torch::kCUDA, 0));
    CHECK_THROWS_WITH(resolve_device("cuda:" + std::to_string(torch::cuda::device_count())), Catch::Contains("CUDA device"));
  }
  for (const std::string bad : {"gpu", "", "CPU", "cuda:", "cuda:x", "cuda:-1", "cuda:0:1", " cpu", "meta"}) {
    CAPTURE(bad);
    try {
      resolve_device(bad);
      FAIL("accepted");
    } catch (const InvalidArgument& error) {
      CHECK(error.argument() == "device");
      CHECK_THAT(error.requirement(), Catch::Contains("must be auto, cpu, cuda or cuda:N"));
    }
  }
  CHECK(device_name(torch::Device(torch::kCUDA)) == "cuda:0");
  CHECK(device_name(torch::Device(torch::kCUDA, 1)) == "cuda:1");
  CHECK(device_name(torch::kCPU) == "cpu");
  CHECK(device_kind(torch::Device(torch::kCUDA, 1)) == "cuda");
  CHECK(default_generator(torch::kMeta) == std::nullopt);
  CHECK(training_data_device(torch::kCPU, 1e12) == torch::Device(torch::kCPU));
  CHECK(training_data_device(torch::Device(torch::kCUDA, 0), 1e6) == torch::Device(torch::kCUDA, 0));
  CHECK(training_data_device(torch::Device(torch::kCUDA, 0), 2 * kMaxDeviceDataBytes) == torch::Device(torch::kCPU));
}

TEST_CASE("The shift augmentation crops each sample's window exactly, its offsets drawn on the images' device", "[train][augment]") {
  AugmentationOptions shift_only = no_augmentation();
  shift_only.max_shift = 2;
  shift_only.saturation = 0.0;
  const auto x = tiny_images(16);
  torch::manual_seed(4);
  const auto shifted = augment(x, shift_only);
  // The same draw by hand: one offset in [0, 25) per sample, the window of the zero-padded image.
  torch::manual_seed(4);
  const auto offset = torch::randint(0, 25, {16}, torch::kLong);
  const auto padded = torch::constant_pad_nd(x, {2, 2, 2, 2}, 0.0);
  for (int64_t i = 0; i < 16; ++i) {
    const int64_t k = offset[i].item<int64_t>();
    CHECK(torch::equal(shifted[i], padded[i].narrow(1, k / 5, 28).narrow(2, k % 5, 28)));
  }
  // augment_identically replays the generator of the images' device.
  torch::manual_seed(5);
  const auto [a, b] = augment_identically(x, x, AugmentationOptions{});
  CHECK(torch::equal(a, b));
}

TEST_CASE("The read-back interval changes no result: the same weights, losses and divergence step", "[train][engine][trainer][determinism]") {
  // Single-threaded, so that only the read-back interval differs between the runs: torch 2.11's
  // multi-threaded CPU kernels do not repeat their sums bit for bit on a loaded machine (2 of 40
  // runs differed in the last bits with two busy processes beside them, 0 of 40 on one thread).
  const geomsim::train::testing::ScopedTorchThreads one_thread(1);
  const auto images = tiny_images(96);
  const auto labels = torch::arange(96, torch::kLong).remainder(2);
  const auto run = [&](int64_t sync_every, std::vector<StepReport>* reports = nullptr) {
    torch::manual_seed(2);
    Encoder e(geomsim::train::testing::tiny_encoder("mlp", 8, 16));
    TrainOptions o;
    o.epochs = 2;
    o.batch_size = 16;
    o.sync_every = sync_every;
    if (reports) o.on_step = [reports](const StepReport& r) { reports->push_back(r); };
    const TrainResult r = train_encoder(e, images, labels, 2, o, AugmentationOptions{});
    std::vector<torch::Tensor> w;
    for (const auto& p : e->parameters()) w.push_back(p.detach().clone());
    return std::make_pair(w, r);
  };
  std::vector<StepReport> reports;
  const auto [every, every_result] = run(1);
  const auto [batched, batched_result] = run(4, &reports);
  for (std::size_t k = 0; k < every.size(); ++k) CHECK(torch::equal(every[k], batched[k]));
  CHECK(every_result.epochs[1].loss == batched_result.epochs[1].loss);
  CHECK(batched_result.device == "cpu");
  CHECK(batched_result.stop_reason == "finished");
  REQUIRE(reports.size() == 12);  // 6 steps per epoch, 2 epochs: every step reported once, in order
  for (std::size_t k = 0; k < reports.size(); ++k) CHECK(reports[k].step == static_cast<int64_t>(k % 6 + 1));

  // A nan image: the first non-finite step is the same whether read back at once or later.
  auto poisoned = images.clone();
  poisoned[40][0][5][5] = std::numeric_limits<float>::quiet_NaN();
  const auto diverged_at = [&](int64_t sync_every) {
    torch::manual_seed(2);
    Encoder e(geomsim::train::testing::tiny_encoder("mlp", 8, 16));
    TrainOptions o;
    o.batch_size = 16;
    o.sync_every = sync_every;
    try {
      train_encoder(e, poisoned, labels, 2, o, AugmentationOptions{});
    } catch (const ComputationFailed& error) {
      return std::string(error.what());
    }
    return std::string("no divergence");
  };
  const std::string first = diverged_at(1);
  CHECK_THAT(first, Catch::StartsWith("training diverged: the loss is nan at epoch 1, step "));
  CHECK(diverged_at(50) == first);
}

TEST_CASE("Augmentations run on the meta device: their draws and index arithmetic are made on the images' device",
          "[train][augment][meta]") {
  // A tensor made on a fixed device (the CPU) meeting a meta one throws, as does any read back.
  for (const int64_t channels : {1, 3}) {
    const auto x = torch::empty({6, channels, 12, 12}, torch::TensorOptions().device(torch::kMeta));
    AugmentationOptions o = default_augmentations(channels, 12);
    const auto views = two_views(x, o);
    CHECK(views.device().type() == torch::kMeta);
    CHECK(views.sizes() == torch::IntArrayRef({12, channels, 12, 12}));
    const auto [a, b] = augment_identically(x, x, o);  // meta has no generator to replay: it draws twice
    CHECK(a.device().type() == torch::kMeta);
  }
}

TEST_CASE("Encoder training on the meta device gets through data, permutation, batches and augmentations to the encoder",
          "[train][engine][meta]") {
  // train_encoder on meta: the data placed there, the epoch's order (drawn on the CPU: meta has
  // no generator), the batches, the augmentations and the networks moved there. libtorch 1.13
  // (and 2.11, for relu) has no meta kernel for relu (nor where, flip, index_select, abs, logical_or/not, conv2d and its
  // backward, layer_norm: every encoder and the autoencoder have one of them), so the step stops
  // at the encoder's first ReLU here; a libtorch with those kernels runs the whole epoch. Either
  // way a tensor made on the CPU or a read back to the host before that point fails this test
  // with another message.
  const auto images = tiny_images(64);
  const auto labels = torch::arange(64, torch::kLong).remainder(2);
  const std::string loss = GENERATE("simclr", "ce", "autoencoder", "supcon+head");
  CAPTURE(loss);
  torch::manual_seed(0);
  Encoder e(geomsim::train::testing::tiny_encoder("mlp", 8, 16));
  AutoencoderOptions a = geomsim::train::testing::tiny_autoencoder(8);
  a.label_smoothing = 0.0;  // the label-smoothed cross-entropy needs masked_select, which meta lacks
  Autoencoder ae(a);
  TrainOptions o;
  o.loss = loss;
  if (loss == "supcon+head") {  // the joint head, its labels and its labelled share placed on meta too
    o.loss = "supcon";
    o.head = {1.0, 0.0, 0.1, 0.5};  // no smoothing: masked_select again
  }
  o.epochs = 2;
  o.batch_size = 16;
  o.device = torch::kMeta;
  try {
    const TrainResult r =
        train_encoder(e, images, labels, 2, o, AugmentationOptions{}, {}, loss == "autoencoder" ? ae : Autoencoder(nullptr));
    CHECK(r.device == "meta");
    CHECK(r.epochs.size() == 2);
  } catch (const c10::Error& error) {
    // 1.13: "Could not run 'aten::relu' with arguments from the 'Meta' backend"; 2.11: "aten::relu:
    // attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel".
    CHECK_THAT(error.what_without_backtrace(), Catch::StartsWith("Could not run 'aten::relu' with arguments from the 'Meta' backend") ||
                                                   Catch::StartsWith("aten::relu: attempted to run this operator with Meta tensors"));
  }
  CHECK(e->parameters().front().device().type() == torch::kMeta);
  if (loss == "autoencoder") CHECK(ae->parameters().front().device().type() == torch::kMeta);
}
