// The end model (every robustness method's, JTT's first stage and Group DRO included) on the one
// engine: its checkpoint refuses changed bytes and survives a full disk, a non-finite loss is
// ComputationFailed naming epoch and step, and its step runs on the meta device.
#include "train/catch_with_torch.hpp"

#include <filesystem>
#include <fstream>
#include <limits>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/data/device.hpp"
#include "geomsim/train/robustness/robust_training.hpp"
#include "file_size_limit.hpp"
#include "scratch_folder.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
using geomsim::train::testing::linear_model;
using geomsim::testing::file_bytes;
using geomsim::testing::FileSizeLimit;

// Two classes on a weak core coordinate and a spurious one, as N x 2 x 1 x 1 "images";
// groups 2 class + attribute (as test_robustness.cpp's toy).
EndModelData toy(int64_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> x;
  std::vector<int64_t> y, g;
  for (int64_t i = 0; i < n; ++i) {
    const int label = static_cast<int>(i % 2);
    const int attribute = rng.uniform() < 0.9 ? label : 1 - label;
    x.push_back(static_cast<float>((2 * label - 1) + rng.normal()));
    x.push_back(static_cast<float>((2 * attribute - 1) + 0.1 * rng.normal()));
    y.push_back(label);
    g.push_back(2 * label + attribute);
  }
  EndModelData d;
  d.images = torch::tensor(x).view({n, 2, 1, 1});
  d.labels = torch::tensor(y);
  d.groups = torch::tensor(g);
  d.num_groups = 4;
  d.validation_images = d.images.narrow(0, 0, n / 2);
  d.validation_labels = d.labels.narrow(0, 0, n / 2);
  d.validation_groups = d.groups.narrow(0, 0, n / 2);
  d.validation_num_groups = 4;
  return d;
}

EndModelOptions quick(const std::string& objective, const std::string& checkpoint) {
  EndModelOptions o;
  o.objective = objective;
  o.epochs = 3;
  o.batch_size = 32;
  o.checkpoint = checkpoint;
  o.run_description = R"({"method":"test"})";
  return o;
}

std::vector<std::string> files_in(const fs::path& root) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(root)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace

TEST_CASE("An end-model checkpoint with flipped weight bytes is refused on resume, naming the file", "[train][robustness][checkpoint]") {
  geomsim::testing::ScratchFolder dir("end-engine");
  const EndModelData d = toy(200, 1);
  const std::string objective = GENERATE("erm", "groupdro");
  CAPTURE(objective);
  EndModelOptions o = quick(objective, dir("end.pt"));
  o.stop_after = 1;
  Classifier model = make_classifier(linear_model(), 2, 3);
  train_end_model(model, 2, d, o);
  const std::string original = file_bytes(dir("end.pt"));
  // The head's weights as stored (the returned model is epoch 1's, the checkpoint's): flip one bit.
  const auto stored = model->head->weight.detach().contiguous();
  const std::string needle(static_cast<const char*>(stored.data_ptr()), 16);
  const auto at = original.find(needle);
  REQUIRE(at != std::string::npos);
  std::string flipped = original;
  flipped[at + 2] = static_cast<char>(flipped[at + 2] ^ 0x04);
  std::ofstream(dir("end.pt"), std::ios::binary | std::ios::trunc) << flipped;
  EndModelOptions resume = o;
  resume.stop_after = 0;
  Classifier again = make_classifier(linear_model(), 2, 3);
  try {
    train_end_model(again, 2, d, resume);
    FAIL("a checkpoint with flipped bytes was resumed");
  } catch (const InvalidArgument& error) {
    CHECK(error.argument() == "checkpoint");
    CHECK_THAT(error.requirement(), Catch::Contains(dir("end.pt") + " is a corrupt archive") && Catch::Contains("fails its CRC-32 check"));
  }
  CHECK(file_bytes(dir("end.pt")) == flipped);  // left as it was
}

TEST_CASE("An end-model checkpoint on a full disk is an InvalidArgument naming the option, leaving no file and the previous one intact",
          "[train][robustness][checkpoint][fulldisk]") {
  geomsim::testing::ScratchFolder dir("end-engine");
  const EndModelData d = toy(200, 2);
  EndModelOptions o = quick("groupdro", dir("end.pt"));
  o.stop_after = 1;
  {
    Classifier model = make_classifier(linear_model(), 2, 3);
    train_end_model(model, 2, d, o);
  }
  const std::string epoch_one = file_bytes(dir("end.pt"));
  REQUIRE(epoch_one.size() > 1024);
  o.stop_after = 0;
  Classifier model = make_classifier(linear_model(), 2, 3);
  std::string refusal;
  {
    const FileSizeLimit full(512);  // a checkpoint is a few kB
    refusal = geomsim::testing::refusal([&] { train_end_model(model, 2, d, o); });
  }
  CHECK_THAT(refusal, Catch::StartsWith("--checkpoint cannot write '" + dir("end.pt") + "'"));
  CHECK(file_bytes(dir("end.pt")) == epoch_one);          // the previous epoch's checkpoint, untouched
  CHECK(files_in(dir.root) == std::vector<std::string>{"end.pt"});  // no temporary, no .partial
  // The same with no checkpoint before: no file at all is left.
  fs::remove(dir("end.pt"));
  {
    const FileSizeLimit full(512);
    refusal = geomsim::testing::refusal([&] { train_end_model(model, 2, d, o); });
  }
  CHECK_THAT(refusal, Catch::StartsWith("--checkpoint cannot write"));
  CHECK(files_in(dir.root).empty());
}

TEST_CASE("A non-finite end-model loss is ComputationFailed naming epoch and step, keeping the last checkpoint",
          "[train][robustness][diverged]") {
  geomsim::testing::ScratchFolder dir("end-engine");
  EndModelData d = toy(200, 3);
  const std::string objective = GENERATE("erm", "groupdro");
  CAPTURE(objective);
  EndModelOptions o = quick(objective, dir("end.pt"));
  o.stop_after = 1;
  Classifier first = make_classifier(linear_model(), 2, 3);
  train_end_model(first, 2, d, o);
  const std::string epoch_one = file_bytes(dir("end.pt"));
  d.images = d.images.clone();
  // 20 examples: erm visits each every epoch; Group DRO draws 200 with replacement, missing all 20 with probability < 1e-4.
  for (int64_t i = 100; i < 200; i += 5) d.images[i][0][0][0] = std::numeric_limits<float>::infinity();
  o.stop_after = 0;
  o.sync_every = 3;
  Classifier model = make_classifier(linear_model(), 2, 3);
  try {
    train_end_model(model, 2, d, o);
    FAIL("a non-finite loss did not stop the end model");
  } catch (const ComputationFailed& error) {
    const std::string what = error.what();
    CHECK_THAT(what, Catch::StartsWith("training diverged: the loss is ") && Catch::Contains(" at epoch 2, step "));
    CHECK_THAT(what, Catch::Contains("end.pt keeps epoch 1 and no new checkpoint was written"));
    CHECK_THAT(what, Catch::Contains("a smaller --lr (this run: 0.01)"));
  }
  CHECK(file_bytes(dir("end.pt")) == epoch_one);
}

TEST_CASE("The end model's step (ERM and Group DRO) runs forward and backward on the meta device", "[train][robustness][meta]") {
  // The step path of train_end_model: the batch gathered by index, end_model_loss (the
  // cross-entropy, Group DRO's group means and its update of q), then backward and SGD's step.
  // On meta any tensor made on a fixed device, or any read back to the host (.item(), a copy to
  // the CPU), throws. With the linear end model: the encoders have a ReLU, which has no meta
  // kernel in libtorch 1.13 (see test_epoch_loop.cpp). Not here either: the epoch's order (Group
  // DRO draws it with multinomial, which has no meta kernel) and validation (it reads the
  // predictions back, by design, once per epoch).
  const bool dro = GENERATE(false, true);
  CAPTURE(dro);
  const EncoderOptions encoder = linear_model();
  Classifier model = make_classifier(encoder, 3, 0);
  move_module(*model, torch::kMeta);  // Module::to cannot reach meta in libtorch 1.13 (data/device.hpp)
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.01));
  GroupDro group_dro({5, 7, 9, 11}, GroupDroOptions{});
  const auto meta = torch::TensorOptions().device(torch::kMeta);
  const auto images = torch::empty({40, encoder.channels, encoder.image_size, encoder.image_size}, meta);
  const auto labels = torch::empty({40}, meta.dtype(torch::kLong)), groups = torch::empty({40}, meta.dtype(torch::kLong));
  const auto idx = torch::randperm(40, torch::kLong).narrow(0, 0, 16).to(torch::kMeta);
  const auto x = images.index({idx}), y = labels.index({idx}), g = groups.index({idx});
  for (int step = 0; step < 2; ++step) {  // the second step uses the momentum buffers and the updated q
    const auto loss = end_model_loss(model, x, y, g, dro ? &group_dro : nullptr);
    CHECK(loss.device().type() == torch::kMeta);
    CHECK(loss.dim() == 0);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
  }
  CHECK(model->head->weight.grad().device().type() == torch::kMeta);
  if (dro) CHECK(group_dro.log_weights().device().type() == torch::kMeta);
}
