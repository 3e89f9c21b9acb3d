// What a checkpoint must be before it is believed, and what a training run does when it cannot
// go on: CRC-32 checks of the archive, the description against the weights, a resume with other
// options, a non-finite loss, and the memory an encoder needs.
#include "train/catch_with_torch.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <torch/serialize.h>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/archive_integrity.hpp"
#include "geomsim/train/checkpoints/model_checkpoint.hpp"
#include "geomsim/train/training/trainer.hpp"
#include "scratch_folder.hpp"
#include "train/data/zip_bytes.hpp"
#include "train/tiny_models.hpp"

using namespace geomsim;
using namespace geomsim::train;
namespace fs = std::filesystem;

namespace {
using geomsim::testing::file_bytes;
using Scratch = geomsim::testing::ScratchFolder;

void write_bytes(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

// 128 random images in [0, 1] with two balanced classes: enough for a few steps.
struct Data {
  torch::Tensor images = (torch::manual_seed(5), torch::rand({128, 1, 28, 28}));
  torch::Tensor labels = torch::arange(128, torch::kLong).remainder(2);
};

TrainOptions quick(const std::string& checkpoint) {
  TrainOptions o;
  o.epochs = 2;
  o.stop_after = 1;
  o.batch_size = 32;
  o.seed = 3;
  o.checkpoint = checkpoint;
  return o;
}

TrainResult train_once(const Data& data, const TrainOptions& o, const EncoderOptions& model = train::testing::tiny_encoder("mlp", 8, 16)) {
  torch::manual_seed(o.seed);
  Encoder encoder(model);
  return train_encoder(encoder, data.images, data.labels, 2, o, AugmentationOptions{});
}

}  // namespace

TEST_CASE("A checkpoint whose bytes changed after it was written is refused by its CRC-32", "[train][checkpoint][integrity]") {
  Scratch dir("integrity");
  const Data data;
  train_once(data, quick(dir("m.pt")));
  CHECK(verify_archive(dir("m.pt"), "checkpoint") == ArchiveCheck::verified);
  const std::string original = file_bytes(dir("m.pt"));

  // One byte of a weight tensor flipped: libtorch's reader does not check CRCs and loads it.
  CheckpointModel model = load_checkpoint_model(dir("m.pt"));
  const auto first = model.encoder->parameters().front().contiguous();
  const std::string weight(static_cast<const char*>(first.data_ptr()), 16);
  const auto at = original.find(weight);
  REQUIRE(at != std::string::npos);
  std::string flipped = original;
  flipped[at + 5] = static_cast<char>(flipped[at + 5] ^ 0x10);
  write_bytes(dir("flipped.pt"), flipped);
  CHECK_THROWS_WITH(verify_archive(dir("flipped.pt"), "checkpoint"), Catch::Contains("fails its CRC-32 check"));
  CHECK_THROWS_WITH(load_checkpoint_model(dir("flipped.pt")), Catch::Contains("flipped.pt is a corrupt archive"));
  // ... and a resume from it does not start either.
  fs::copy_file(dir("flipped.pt"), dir("resume.pt"));
  TrainOptions rest = quick(dir("resume.pt"));
  rest.stop_after = 0;
  CHECK_THROWS_WITH(train_once(data, rest), Catch::Contains("fails its CRC-32 check"));

  // Not a zip at all, or cut before its directory: not an archive (the loaders say so themselves).
  write_bytes(dir("short.pt"), original.substr(0, 300));
  CHECK(verify_archive(dir("short.pt"), "checkpoint") == ArchiveCheck::not_a_zip);
  std::mt19937 random(7);
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  write_bytes(dir("noise.pt"), noise);
  CHECK(verify_archive(dir("noise.pt"), "checkpoint") == ArchiveCheck::not_a_zip);

  // A directory that points anywhere: every offset and size is bounds-checked, no crash.
  const auto end = original.rfind(std::string("PK\x05\x06", 4));
  REQUIRE(end != std::string::npos);
  for (std::size_t field = 8; field < 22; field += 2) {
    std::string damaged = original;
    damaged[end + field] = static_cast<char>(0xff);
    damaged[end + field + 1] = static_cast<char>(0x7f);
    write_bytes(dir("damaged.pt"), damaged);
    try {
      verify_archive(dir("damaged.pt"), "checkpoint");
    } catch (const InvalidArgument& error) {
      CHECK_THAT(error.requirement(), Catch::Contains("damaged.pt is a corrupt archive"));
    }
  }
}

TEST_CASE("A description that disagrees with the weights is refused, naming the tensor", "[train][checkpoint][integrity]") {
  Scratch dir("integrity");
  const EncoderOptions eight = train::testing::tiny_encoder("mlp", 8, 16);
  Encoder encoder(eight);
  const auto save = [&](const ModelDescription& description, const std::string& path) {
    torch::serialize::OutputArchive archive, part;
    encoder->save(part);
    archive.write("encoder", part);
    write_model_description(archive, description);
    archive.save_to(path);
  };
  save({eight, std::nullopt, false, "{}"}, dir("good.pt"));
  CHECK(load_checkpoint_model(dir("good.pt")).description.encoder.embedding_dim == 8);

  EncoderOptions nine = eight;
  nine.embedding_dim = 9;  // libtorch's Module::load would take the 8-wide weights as they are
  save({nine, std::nullopt, false, "{}"}, dir("nine.pt"));
  CHECK_THAT(geomsim::testing::refusal([&] { load_checkpoint_model(dir("nine.pt")); }),
             Catch::Contains("the weights do not match the stored description: encoder.body.5.weight is [8, 16] where the "
                             "description needs [9, 16]"));

  // A description with sizes that are not whole numbers, or fields of the wrong type.
  const std::string good = to_json_text({eight, std::nullopt, false, "{}"});
  const auto with = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK_THAT(geomsim::testing::refusal([&] { model_description_from_json(with("\"width\":16", "\"width\":16.5"), "checkpoint"); }),
             Catch::Contains("width must be a whole number, got 16.5"));
  CHECK_THAT(geomsim::testing::refusal([&] { model_description_from_json(with("\"width\":16", "\"width\":\"16\""), "checkpoint"); }),
             Catch::Contains("width must be a whole number, got \"16\""));
  CHECK_THAT(geomsim::testing::refusal([&] { model_description_from_json(with("\"kind\":\"mlp\"", "\"kind\":7"), "checkpoint"); }),
             Catch::Contains("kind must be a string, got 7"));
  CHECK_THAT(geomsim::testing::refusal([&] { model_description_from_json(with("\"run\":{}", "\"run\":[1]"), "checkpoint"); }),
             Catch::Contains("run must be an object"));
  CHECK_THAT(geomsim::testing::refusal([&] { model_description_from_json(with("\"width\":16", "\"width\":100000000000"), "checkpoint"); }),
             Catch::Contains("width must be in [1, 16777216]"));
}

TEST_CASE("A resume with other options than the checkpoint's is refused, naming the option and both values",
          "[train][checkpoint][resume]") {
  Scratch dir("integrity");
  const Data data;
  const TrainOptions base = quick(dir("run.pt"));
  train_once(data, base);
  const std::string before = file_bytes(dir("run.pt"));
  const auto resume = [&](TrainOptions o, const EncoderOptions& model = train::testing::tiny_encoder("mlp", 8, 16)) {
    o.stop_after = 0;
    return geomsim::testing::refusal([&] { train_once(data, o, model); });
  };
  TrainOptions o = base;
  o.loss_options.alpha = 0.7;
  CHECK_THAT(resume(o), Catch::StartsWith("--alpha is 0.7 but") && Catch::Contains("was trained with 0.5"));
  o = base;
  o.loss = "supcon";
  CHECK_THAT(resume(o), Catch::StartsWith("--loss is \"supcon\" but") && Catch::Contains("was trained with \"spread\""));
  o = base;
  o.seed = 4;
  CHECK_THAT(resume(o), Catch::StartsWith("--seed is 4 but") && Catch::Contains("was trained with 3"));
  o = base;
  o.epochs = 3;  // another cosine schedule
  CHECK_THAT(resume(o), Catch::StartsWith("--epochs is 3 but") && Catch::Contains("was trained with 2"));
  o = base;
  o.loss_options.noise_correction = 0.2;  // a loss option named only off its default
  CHECK_THAT(resume(o), Catch::StartsWith("--noise-correction is 0.2 but") && Catch::Contains("was trained with null"));
  o = base;
  o.run_description = R"({"hierarchy": "fmnist-4"})";
  CHECK_THAT(resume(o), Catch::StartsWith("--hierarchy is \"fmnist-4\" but") && Catch::Contains("was trained with null"));
  CHECK_THAT(resume(base, train::testing::tiny_encoder("mlp", 8, 32)), Catch::StartsWith("--width is 32 but") && Catch::Contains("was trained with 16"));
  CHECK(file_bytes(dir("run.pt")) == before);  // every refusal left the checkpoint as it was
  CHECK(resume(base).empty());               // the same options resume
}

TEST_CASE("A non-finite loss ends training naming its epoch and step, keeping the last checkpoint", "[train][trainer][diverged]") {
  Scratch dir("integrity");
  Data data;
  const TrainOptions first = quick(dir("run.pt"));
  train_once(data, first);
  const std::string after_epoch_one = file_bytes(dir("run.pt"));
  data.images[70][0][3][3] = std::numeric_limits<float>::quiet_NaN();  // in the second epoch's batches
  TrainOptions rest = first;
  rest.stop_after = 0;
  try {
    train_once(data, rest);
    FAIL("training with a nan image did not stop");
  } catch (const ComputationFailed& error) {
    const std::string what = error.what();
    CHECK_THAT(what, Catch::StartsWith("training diverged: the loss is nan at epoch 2, step "));
    CHECK_THAT(what, Catch::Contains("run.pt keeps epoch 1 and no new checkpoint was written"));
  }
  CHECK(file_bytes(dir("run.pt")) == after_epoch_one);
  for (const auto& entry : fs::directory_iterator(dir.root)) CHECK(entry.path().filename() == "run.pt");  // no temporary left

  TrainOptions lr = first;
  lr.learning_rate = 1e30;
  CHECK_THAT(geomsim::testing::refusal([&] { validate(lr); }), Catch::Contains("--lr must be in (0, 1]"));
  lr.learning_rate = 1.0;
  CHECK(geomsim::testing::refusal([&] { validate(lr); }).empty());
  TrainOptions epochs = first;
  epochs.epochs = 1000000000000;
  CHECK_THAT(geomsim::testing::refusal([&] { validate(epochs); }), Catch::Contains("--epochs must be in [1, 100000]"));
}

TEST_CASE("The encoder's parameter count is exact, so its memory estimate is not a guess", "[train][models][memory]") {
  for (const std::string kind : {"mlp", "cnn", "vit"}) {
    const EncoderOptions o = train::testing::tiny_encoder(kind, 12, 32);
    Encoder e(o);
    int64_t count = 0;
    for (const auto& p : e->parameters()) count += p.numel();
    CHECK(parameter_count(o) == static_cast<double>(count));
    CHECK(training_memory_bytes(o, 64) > 16.0 * static_cast<double>(count));
  }
  EncoderOptions huge = train::testing::tiny_encoder("mlp", 100000000, 128);
  CHECK(training_memory_bytes(huge, 256) > 1e11);  // 10^8 x 128 weights, 4 copies of 4 bytes each
}

TEST_CASE("Zip bombs are refused from the directory alone, before anything is inflated", "[train][checkpoint][integrity]") {
  Scratch dir("integrity");
  using geomsim::testing::zip_bytes;
  const std::string mebibyte(1 << 20, 'x');
  // One stored entry listed 65 534 times: 65 534 CRC passes over the same bytes without the check.
  std::vector<std::size_t> listed(65534, 0);
  write_bytes(dir("listed.pt"), zip_bytes({{"archive/data/0", mebibyte}}, listed));
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH(verify_archive(dir("listed.pt"), "checkpoint"),
                    Catch::Contains("listed.pt is a corrupt archive: entries 'archive/data/0' and 'archive/data/0' overlap"));
  CHECK(std::chrono::steady_clock::now() - start < std::chrono::seconds(2));
  // Disjoint entries are fine, in any order in the directory.
  write_bytes(dir("two.pt"), zip_bytes({{"archive/version", "3\n"}, {"archive/b", "2"}}, {1, 0}));
  CHECK(verify_archive(dir("two.pt"), "checkpoint") == ArchiveCheck::verified);
  // A deflated entry that claims more than deflate's 1032:1: its size field is changed to 2 GB.
  std::string claim = zip_bytes({{"a", "12345678"}});
  claim[claim.find(std::string("PK\x01\x02", 4)) + 10] = 8;  // the directory says deflated
  const auto size_field = claim.find(std::string("PK\x01\x02", 4)) + 24;
  claim.replace(size_field, 4, std::string("\x00\x00\x00\x80", 4));
  write_bytes(dir("claim.pt"), claim);
  CHECK_THROWS_WITH(verify_archive(dir("claim.pt"), "checkpoint"),
                    Catch::Contains("entry 'a' claims 2147483648 bytes from 8 deflated ones, more than deflate's 1032:1 can produce"));
}

TEST_CASE("A TorchScript model whose source does not compile is a bad input naming the file", "[train][checkpoint][integrity]") {
  Scratch dir("integrity");
  torch::jit::Module module("Doubler");
  module.define("def forward(self, x):\n    return x * 2\n");
  module.save(dir("good.pt"));
  CHECK(verify_archive(dir("good.pt"), "checkpoint") == ArchiveCheck::verified);
  // One byte of its code changed (torch.mul -> torch.mux, an operator that does not exist), every CRC
  // rewritten to match: torch::jit's compiler throws its own error (not a c10::Error) while loading.
  const std::string good = file_bytes(dir("good.pt"));
  std::vector<geomsim::testing::ZipEntry> entries;
  for (const ArchiveEntry& e : verify_archive_bytes(good, "good.pt", "checkpoint").entries) {
    std::string bytes = good.substr(e.data_offset, e.size);
    if (e.name.find("/code/") != std::string::npos && e.name.size() > 3 && e.name.compare(e.name.size() - 3, 3, ".py") == 0) {
      const auto at = bytes.find("torch.mul(");
      REQUIRE(at != std::string::npos);
      bytes[at + 8] = 'x';
    }
    entries.push_back({e.name, bytes});
  }
  write_bytes(dir("changed.pt"), geomsim::testing::zip_bytes(entries));
  CHECK(verify_archive(dir("changed.pt"), "checkpoint") == ArchiveCheck::verified);
  CHECK_THAT(geomsim::testing::refusal([&] { try_load_checkpoint_model(dir("changed.pt"), "checkpoint"); }),
             Catch::StartsWith("--checkpoint " + dir("changed.pt") + " holds TorchScript code that does not compile (Unknown builtin op: aten::mux."));
  CHECK_FALSE(is_geomsim_checkpoint(dir("changed.pt")));
}

TEST_CASE("A checkpoint whose model description nests 100 000 arrays is refused by name, not a stack overflow", "[train][checkpoint][errors]") {
  // Issue 33's reproducer: the message once dumped the whole value, recursing once per level.
  Scratch dir("deep-description");
  torch::serialize::OutputArchive archive;
  archive.write(kModelDescriptionKey, c10::IValue(std::string(100000, '[') + std::string(100000, ']')));
  archive.save_to(dir("deep.pt"));
  CHECK_THROWS_WITH(load_checkpoint_model(dir("deep.pt"), "checkpoint"),
                    Catch::Contains("holds a model description that nests arrays or objects more than 64 levels deep"));
}
