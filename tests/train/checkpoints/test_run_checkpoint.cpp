// The one checkpoint reader and writer (run_checkpoint.hpp) through train_encoder: a corrupt
// file refused by name, a full disk reported by name, the device recorded and a resume on
// another kind of device refused unless explicit, and loads mapped to the CPU.
#include "train/catch_with_torch.hpp"

#include <filesystem>
#include <fstream>
#include <torch/serialize.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "file_size_limit.hpp"
#include "scratch_folder.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
using geomsim::testing::file_bytes;
using geomsim::testing::FileSizeLimit;

struct Data {
  torch::Tensor images = (torch::manual_seed(6), torch::rand({96, 1, 28, 28}));
  torch::Tensor labels = torch::arange(96, torch::kLong).remainder(2);
};

TrainOptions quick(const std::string& checkpoint) {
  TrainOptions o;
  o.epochs = 2;
  o.stop_after = 1;
  o.batch_size = 32;
  o.seed = 4;
  o.checkpoint = checkpoint;
  return o;
}

TrainResult train_once(const Data& data, const TrainOptions& o, Encoder* out = nullptr) {
  torch::manual_seed(o.seed);
  Encoder encoder(train::testing::tiny_encoder("mlp", 8, 16));
  const TrainResult r = train_encoder(encoder, data.images, data.labels, 2, o, AugmentationOptions{});
  if (out) *out = encoder;
  return r;
}

}  // namespace

TEST_CASE("An encoder checkpoint with flipped weight bytes is refused on resume as InvalidArgument(checkpoint) naming the file",
          "[train][checkpoint][integrity]") {
  geomsim::testing::ScratchFolder dir("run-checkpoint");
  const Data data;
  Encoder encoder{nullptr};
  train_once(data, quick(dir("m.pt")), &encoder);
  const std::string original = file_bytes(dir("m.pt"));
  const auto weight = encoder->parameters().back().detach().contiguous();  // the last layer's bias, 8 floats
  const auto at = original.find(std::string(static_cast<const char*>(weight.data_ptr()), 32));
  REQUIRE(at != std::string::npos);
  std::string flipped = original;
  flipped[at + 9] = static_cast<char>(flipped[at + 9] ^ 0x01);
  std::ofstream(dir("m.pt"), std::ios::binary | std::ios::trunc) << flipped;
  TrainOptions rest = quick(dir("m.pt"));
  rest.stop_after = 0;
  CHECK_THAT(geomsim::testing::refusal([&] { train_once(data, rest); }),
             Catch::StartsWith("--checkpoint " + dir("m.pt") + " is a corrupt archive") && Catch::Contains("fails its CRC-32 check"));
}

TEST_CASE("An encoder checkpoint on a full disk is refused by name and leaves the previous one", "[train][checkpoint][fulldisk]") {
  geomsim::testing::ScratchFolder dir("run-checkpoint");
  const Data data;
  train_once(data, quick(dir("m.pt")));
  const std::string epoch_one = file_bytes(dir("m.pt"));
  TrainOptions rest = quick(dir("m.pt"));
  rest.stop_after = 0;
  std::string refusal;
  {
    const FileSizeLimit full(1024);
    refusal = geomsim::testing::refusal([&] { train_once(data, rest); });
  }
  CHECK_THAT(refusal, Catch::StartsWith("--checkpoint cannot write '" + dir("m.pt") + "'"));
  CHECK(file_bytes(dir("m.pt")) == epoch_one);
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir.root)) files.push_back(entry.path().filename().string());
  CHECK(files == std::vector<std::string>{"m.pt"});
}

TEST_CASE("A checkpoint records its device: a resume on another kind is refused by name unless explicit, and loads to the CPU first",
          "[train][checkpoint][device]") {
  geomsim::testing::ScratchFolder dir("run-checkpoint");
  const Data data;
  train_once(data, quick(dir("m.pt")));
  {
    auto archive = open_run_checkpoint(dir("m.pt"), "geomsim checkpoint");
    c10::IValue record;
    REQUIRE(archive.try_read(kOptionsRecordKey, record));
    CHECK_THAT(record.toStringRef(), Catch::Contains("\"device\":\"cpu\""));
    torch::Tensor history;
    archive.read("history", history);
    CHECK(history.device() == torch::Device(torch::kCPU));
  }
  // The meta device stands for another kind (no CUDA here): refused, naming --device.
  TrainOptions other = quick(dir("m.pt"));
  other.device = torch::kMeta;
  CHECK_THAT(geomsim::testing::refusal([&] { train_once(data, other); }),
             Catch::StartsWith("--device is meta but " + dir("m.pt") + " was trained on cpu; resume on cpu, or give --device meta explicitly"));
  // Explicit: the checkpoint is read on the CPU and moved to the run's device, optimiser state included
  // (stop_after 1: nothing left to train, so nothing is written from meta).
  other.device_explicit = true;
  torch::manual_seed(other.seed);
  Encoder encoder(train::testing::tiny_encoder("mlp", 8, 16));
  const TrainResult r = train_encoder(encoder, data.images, data.labels, 2, other, AugmentationOptions{});
  CHECK(r.resumed_epochs == 1);
  CHECK(r.device == "meta");
  for (const auto& p : encoder->parameters()) CHECK(p.device().type() == torch::kMeta);

  // A checkpoint written anywhere opens with every tensor on the CPU.
  torch::serialize::OutputArchive archive;
  archive.write("x", torch::arange(4, torch::kDouble));
  write_options_record(archive, R"({"alpha":0.5})", torch::Device(torch::kCUDA, 1));
  save_run_checkpoint(archive, dir("plain.pt"));
  auto in = open_run_checkpoint(dir("plain.pt"), "test archive");
  torch::Tensor x;
  in.read("x", x);
  CHECK(x.device() == torch::Device(torch::kCPU));
  CHECK_THAT(geomsim::testing::refusal([&] { require_same_options(in, R"({"alpha":0.6})", torch::kCPU, true, "F"); }),
             Catch::StartsWith("--alpha is 0.6 but F was trained with 0.5"));
  CHECK_THAT(geomsim::testing::refusal([&] { require_same_options(in, R"({"alpha":0.5})", torch::kCPU, false, "F"); }),
             Catch::StartsWith("--device is cpu but F was trained on cuda:1"));
  CHECK(geomsim::testing::refusal([&] { require_same_options(in, R"({"alpha":0.5})", torch::Device(torch::kCUDA, 0), false, "F"); }).empty());
  CHECK_THAT(geomsim::testing::refusal([&] { save_run_checkpoint(archive, dir("missing/plain.pt")); }), Catch::StartsWith("--checkpoint cannot write"));
}

TEST_CASE("A resume on input files of other contents is refused by the option that names them, and a record without them is not checked",
          "[train][checkpoint]") {
  const Data data;
  const geomsim::testing::ScratchFolder dir("checkpoint-inputs");
  TrainOptions o = quick(dir("c.pt"));
  o.run_description = R"({"data": "folder", "inputs": {"data": "4 bytes, fnv1a 1", "hierarchy": "8 bytes, fnv1a 2"}})";
  train_once(data, o);
  o.stop_after = 0;
  // The same paths (the "data" option is the same), other contents of one of the files.
  TrainOptions other = o;
  other.run_description = R"({"data": "folder", "inputs": {"data": "4 bytes, fnv1a 1", "hierarchy": "8 bytes, fnv1a 3"}})";
  CHECK(geomsim::testing::refusal([&] { train_once(data, other); }) ==
        "--hierarchy holds other contents than those " + dir("c.pt") +
            " was trained on (\"8 bytes, fnv1a 2\"; now \"8 bytes, fnv1a 3\"); resume on the same files, or start another --checkpoint");
  // A file the record does not have: other contents too.
  other.run_description = R"({"data": "folder", "inputs": {"data": "4 bytes, fnv1a 1", "hierarchy": "8 bytes, fnv1a 2", "labels": "1 bytes, fnv1a 4"}})";
  CHECK(geomsim::testing::refusal([&] { train_once(data, other); }).rfind("--labels holds other contents than those " + dir("c.pt") + " was trained on (null;", 0) == 0);
  // A checkpoint written before contents were recorded resumes as it did.
  TrainOptions old = quick(dir("old.pt"));
  old.run_description = R"({"data": "folder"})";
  train_once(data, old);
  old.stop_after = 0;
  old.run_description = o.run_description;
  CHECK(train_once(data, old).epochs.size() == 2);
  // The same contents resume.
  CHECK(train_once(data, o).epochs.size() == 2);
}
