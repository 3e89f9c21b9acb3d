// geomsim train and geomsim robustness as two data-parallel ranks (Gloo over 127.0.0.1), end to
// end through the CLI: the run equals one process on the same global batches, a two-rank resume
// is bitwise, and a killed rank ends the other with an error. Each run is a few seconds of an MLP
// on a few hundred Fashion-MNIST images; every process started is waited for or killed by its pid.
#include "train/catch_with_torch.hpp"  // torch before Catch2 (glog's CHECK)

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "geomsim/train/checkpoints/model_checkpoint.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/robustness/robust_training.hpp"
#include "geomsim/train/distributed/local_launcher.hpp"
#include "scratch_folder.hpp"
#include "train/distributed/silent_listener.hpp"

using namespace geomsim;
using namespace geomsim::train;
using geomsim::testing::ScratchFolder;

namespace {

namespace fs = std::filesystem;

// The tiny run every case trains: 256 images, global batch 64 (32 per rank), 2 epochs, 8 steps.
std::vector<std::string> tiny_run(const std::string& checkpoint) {
  return {"train", "--model", "mlp", "--width", "32", "--embedding-dim", "16", "--train-samples", "256", "--test-samples", "64",
          "--batch-size", "64", "--epochs", "2", "--loss", "spread", "--threads", "1", "--device", "cpu", "--checkpoint", checkpoint,
          "-q"};
}

// Starts geomsim-torch with `arguments` and the extra variables, output to `log`; returns its pid.
pid_t start(const std::vector<std::string>& arguments, const std::vector<std::pair<std::string, std::string>>& environment,
            const std::string& log) {
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, STDOUT_FILENO);
      dup2(fd, STDERR_FILENO);
      close(fd);
    }
    for (const auto& [name, value] : environment) setenv(name.c_str(), value.c_str(), 1);
    std::vector<char*> argv = {const_cast<char*>(GEOMSIM_TORCH_PROGRAM)};
    for (const auto& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(GEOMSIM_TORCH_PROGRAM, argv.data());
    _exit(127);
  }
  return pid;
}

// Waits for `pid` at most `seconds`; its exit status, or -1 when it was still running (then killed).
int wait_for(pid_t pid, double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (std::chrono::steady_clock::now() < until) {
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  return -1;
}

int run(const std::vector<std::string>& arguments, const std::string& log) { return wait_for(start(arguments, {}, log), 300); }

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Difference {
  double max_abs = 0.0, max_weight = 0.0;
  bool bitwise = true;
};

Difference compare(const std::vector<torch::Tensor>& p, const std::vector<torch::Tensor>& q) {
  REQUIRE(p.size() == q.size());
  Difference d;
  for (std::size_t i = 0; i < p.size(); ++i) {
    d.bitwise = d.bitwise && torch::equal(p[i], q[i]);
    d.max_abs = std::max(d.max_abs, (p[i] - q[i]).abs().max().item<double>());
    d.max_weight = std::max(d.max_weight, p[i].abs().max().item<double>());
  }
  return d;
}

Difference compare(const std::string& a, const std::string& b) {
  return compare(load_checkpoint_model(a).encoder->parameters(), load_checkpoint_model(b).encoder->parameters());
}

// A robustness run: an MLP end model of 3 epochs, global batch 25 (13 and 12 rows per rank; the
// last batch of an epoch is smaller), on the undersampled set of 20 images per label.
std::vector<std::string> tiny_robustness(const std::string& method, const std::string& checkpoint, const std::string& json) {
  return {"robustness", "--dataset", "undersampled", "--method", method, "--train-per-subclass", "20", "--validation-per-subclass",
          "10", "--test-per-subclass", "10", "--model", "mlp", "--width", "32", "--embedding-dim", "8", "--epochs", "3",
          "--batch-size", "25", "--jtt-epochs", "2", "--encoder-epochs", "2", "--encoder-batch-size", "64", "--threads", "1",
          "--device", "cpu", "--checkpoint", checkpoint, "--json", json, "-q"};
}

// The end model a robustness checkpoint holds (the last epoch's weights).
std::vector<torch::Tensor> end_model_weights(const std::string& checkpoint, int64_t classes) {
  EncoderOptions options;
  options.kind = "mlp";
  options.width = 32;
  options.embedding_dim = 8;
  Classifier model = make_classifier(options, classes, 0);
  auto archive = open_run_checkpoint(checkpoint, "robustness checkpoint");
  torch::serialize::InputArchive part;
  archive.read("model", part);
  model->load(part);
  return model->parameters();
}

nlohmann::json json_of(const std::string& path) { return nlohmann::json::parse(text_of(path)); }

}  // namespace

TEST_CASE("geomsim train on two ranks ends where one process ends on the same global batches, and resumes bitwise",
          "[distributed][engine]") {
  const ScratchFolder scratch("data-parallel");
  const std::string one = scratch("one.pt"), two = scratch("two.pt"), resumed = scratch("resumed.pt");
  REQUIRE(run(tiny_run(one), scratch("one.log")) == 0);
  auto ranks = tiny_run(two);
  ranks.insert(ranks.end(), {"--nproc-per-node", "2"});
  INFO(text_of(scratch("two.log")));
  // Exit 0 includes the engine's own check that both ranks ended with the same bits.
  REQUIRE(run(ranks, scratch("two.log")) == 0);
  const Difference d = compare(one, two);
  CAPTURE(d.max_abs, d.max_weight);
  // float32, 8 AdamW steps: each rank sums its 32 rows and the all-reduce adds the two partial
  // sums, where one process sums 64 rows in one order; a few units of float32's epsilon (6e-8)
  // per gradient entry, which AdamW's normalised step turns into at most about lr * that per step
  // (lr 1e-3), far below the weights' own scale. Measured: see the closing note; the bound leaves
  // a factor of about 10.
  CHECK(d.max_abs <= 1e-6 * std::max(1.0, d.max_weight));

  // Two ranks, stopped after the first epoch and resumed for the second: the same bits as the
  // uninterrupted two-rank run.
  auto first = tiny_run(resumed);
  first.insert(first.end(), {"--nproc-per-node", "2", "--stop-after", "1"});
  REQUIRE(run(first, scratch("first.log")) == 0);
  // A resume with another number of ranks is refused by name, before any training.
  CHECK(run(tiny_run(resumed), scratch("refused.log")) == 2);
  CHECK_THAT(text_of(scratch("refused.log")), Catch::Contains("--nproc-per-node (the number of data-parallel ranks) is 1"));
  auto second = tiny_run(resumed);
  second.insert(second.end(), {"--nproc-per-node", "2"});
  REQUIRE(run(second, scratch("second.log")) == 0);
  CHECK(compare(two, resumed).bitwise);
  // A finished run has nothing left to train: one process reads it (to evaluate it, as an
  // experiment measuring another's kept checkpoints does) whatever its number of ranks, and
  // leaves it as it was.
  const std::string kept = text_of(resumed);
  CHECK(run(tiny_run(resumed), scratch("finished.log")) == 0);
  CHECK(text_of(resumed) == kept);
}

TEST_CASE("geomsim train with the joint head on two ranks ends where one process ends", "[distributed][engine][joint_head]") {
  // The head's dropout drawn for the global batch and its mean over the global batch's labelled
  // rows (not the mean of the ranks' means): the one-process run, up to the order of the sums.
  const ScratchFolder scratch("data-parallel-head");
  const std::vector<std::string> head = {"--head-weight", "1", "--head-dropout", "0.3", "--head-labelled-share", "0.3"};
  const auto both = [&](std::vector<std::string> arguments, const std::string& name) {
    arguments.insert(arguments.end(), head.begin(), head.end());
    REQUIRE(run(arguments, scratch(name + "-one.log")) == 0);
    for (auto& a : arguments) {
      if (a.size() > 3 && a.compare(a.size() - 3, 3, ".pt") == 0) a.insert(a.size() - 3, "-two");
      if (a.size() > 5 && a.compare(a.size() - 5, 5, ".json") == 0) a.insert(a.size() - 5, "-two");
    }
    arguments.insert(arguments.end(), {"--nproc-per-node", "2"});
    INFO(text_of(scratch(name + "-two.log")));
    REQUIRE(run(arguments, scratch(name + "-two.log")) == 0);
  };
  // Two steps of 128 (one epoch): the step losses agree to float32's rounding of the sums (measured:
  // the same bits), which checks the head's term itself, before AdamW amplifies any rounding.
  both({"train", "--model", "mlp", "--width", "32", "--embedding-dim", "16", "--train-samples", "256", "--test-samples", "64",
        "--batch-size", "128", "--epochs", "1", "--threads", "1", "--device", "cpu", "-q", "--json", scratch("steps.json")},
       "steps");
  const auto epoch_loss = [&](const std::string& path) {
    return nlohmann::json::parse(text_of(path))["epochs"][0]["loss"].get<double>();
  };
  const double one = epoch_loss(scratch("steps.json")), two = epoch_loss(scratch("steps-two.json"));
  CHECK(std::abs(one - two) <= 1e-6 * std::abs(one));
  // tiny_run's 8 AdamW steps: the weights as close as the test above asks of a run without the
  // head up to a factor 10: rounding in the sums of the head's rows, which AdamW's normalised step
  // turns into up to lr per step where a gradient entry is near 0. Measured 2.2e-6 (without the
  // head 4e-7; with --head-dropout 0 at this share, 9e-5: the bound is for this run, whose step losses
  // above agree).
  both(tiny_run(scratch("weights.pt")), "weights");
  const Difference d = compare(scratch("weights.pt"), scratch("weights-two.pt"));
  CAPTURE(d.max_abs, d.max_weight);
  CHECK(d.max_abs <= 1e-5 * std::max(1.0, d.max_weight));
}

TEST_CASE("A killed rank ends the other rank of geomsim train with an error, not a hang", "[distributed][engine]") {
  const ScratchFolder scratch("data-parallel-kill");
  const int port = free_local_port();
  // Long enough that rank 1 is killed mid-training: 40 epochs of 8 steps.
  auto arguments = tiny_run(scratch("k.pt"));
  arguments[std::distance(arguments.begin(), std::find(arguments.begin(), arguments.end(), "--epochs")) + 1] = "40";
  arguments.erase(std::find(arguments.begin(), arguments.end(), "-q"));  // rank 0's progress, into its log file
  arguments.insert(arguments.end(), {"--distributed-timeout", "20"});
  const auto environment = [&](int rank) {
    return std::vector<std::pair<std::string, std::string>>{
        {"RANK", std::to_string(rank)}, {"WORLD_SIZE", "2"}, {"LOCAL_RANK", std::to_string(rank)}, {"LOCAL_WORLD_SIZE", "2"},
        {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}};
  };
  const pid_t rank0 = start(arguments, environment(0), scratch("rank0.log"));
  const pid_t rank1 = start(arguments, environment(1), scratch("rank1.log"));
  // Killed once training is under way: rank 0 has written the first epoch's checkpoint.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (!fs::exists(scratch("k.pt")) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const bool training = fs::exists(scratch("k.pt"));
  kill(rank1, SIGKILL);
  waitpid(rank1, nullptr, 0);
  const auto killed = std::chrono::steady_clock::now();
  const int status = wait_for(rank0, 60);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - killed).count();
  REQUIRE(training);
  INFO(text_of(scratch("rank0.log")));
  CHECK(status == 3);  // a DistributedFailure: a computation that could not go on
  CHECK(seconds < 20);  // within the timeout (it fails as soon as rank 1's connections close)
  const std::string log = text_of(scratch("rank0.log"));
  CHECK_THAT(log, Catch::Contains("rank 1"));
  // The epochs rank 0 finished before rank 1 died are in its log, a file (not a terminal): the first
  // epoch's line is written before its checkpoint, which existed when rank 1 was killed.
  CHECK_THAT(log, Catch::Contains("geomsim train: epoch 1/40: loss "));
  CHECK(log.find("geomsim train: epoch 1/40") < log.find("geomsim: error: rank 0 of 2"));
  CHECK_THAT(text_of(scratch("rank1.log")), !Catch::Contains("geomsim train: epoch"));  // rank 0 alone reports
}

TEST_CASE("geomsim train as rank 1 against a MASTER_PORT that accepts and never answers exits 3 within the timeout",
          "[distributed][engine]") {
  const ScratchFolder scratch("data-parallel-silent-port");
  const geomsim::testing::SilentListener listener;
  auto arguments = tiny_run(scratch("s.pt"));
  arguments.insert(arguments.end(), {"--distributed-timeout", "2"});
  const auto begin = std::chrono::steady_clock::now();
  const int status = wait_for(start(arguments,
                                    {{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"},
                                     {"MASTER_PORT", std::to_string(listener.port())}},
                                    scratch("rank1.log")),
                              30);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  const std::string log = text_of(scratch("rank1.log"));
  INFO(log);
  CHECK(status == 3);  // a DistributedFailure, and a clean exit (no signal) with the store's thread ended
  CHECK(seconds < 30);
  CHECK_THAT(log, Catch::Contains("rank 1 of 2 could not meet the other ranks at MASTER_ADDR:MASTER_PORT = 127.0.0.1:" +
                                  std::to_string(listener.port()) + " within the timeout of 2 s (--distributed-timeout)"));
  CHECK_THAT(log, Catch::Contains("accepted the connection but never answered"));
  CHECK_FALSE(fs::exists(scratch("s.pt")));
}

TEST_CASE("geomsim robustness on two ranks ends where one process ends, every stage, and resumes bitwise",
          "[distributed][engine]") {
  const ScratchFolder scratch("data-parallel-robustness");
  // Group DRO (the group sums and counts all-reduced before q moves), SupCon (an encoder on the
  // global batch, its embeddings gathered for the clustering, then Group DRO on the clusters),
  // and JTT (two ERM models, the first one's error set from gathered predictions).
  for (const std::string method : {"groupdro-oracle", "supcon", "jtt"}) {
    CAPTURE(method);
    const std::string one = scratch(method + "-one.pt"), two = scratch(method + "-two.pt");
    REQUIRE(run(tiny_robustness(method, one, one + ".json"), scratch(method + "-one.log")) == 0);
    auto ranks = tiny_robustness(method, two, two + ".json");
    ranks.insert(ranks.end(), {"--nproc-per-node", "2"});
    INFO(text_of(scratch(method + "-two.log")));
    REQUIRE(run(ranks, scratch(method + "-two.log")) == 0);  // includes the engine's check that both ranks hold the same bits
    const auto a = json_of(one + ".json"), b = json_of(two + ".json");
    CHECK(a.at("world_size") == 1);
    CHECK(b.at("world_size") == 2);
    const auto classes = static_cast<int64_t>(a.at("dataset").at("classes").size());
    const Difference d = compare(end_model_weights(one, classes), end_model_weights(two, classes));
    CAPTURE(d.max_abs, d.max_weight);
    // float32, 3 epochs of 8 SGD steps (momentum 0.9): each rank sums its rows' losses and the
    // all-reduce adds the two sums, where one process sums all rows in one order; SGD moves the
    // weights by lr (0.01) times gradients that differ by a few float32 epsilons.
    CHECK(d.max_abs <= 1e-6 * std::max(1.0, d.max_weight));
    if (method != "jtt") {
      const auto& q1 = a.at("stages").at("end_model").at("group_dro_weights");
      const auto& q2 = b.at("stages").at("end_model").at("group_dro_weights");
      REQUIRE(q1.size() == q2.size());
      for (std::size_t g = 0; g < q1.size(); ++g) CHECK(std::abs(q1[g].get<double>() - q2[g].get<double>()) <= 1e-6);
    } else {
      CHECK(a.at("jtt_error_set_size") == b.at("jtt_error_set_size"));
    }
    CHECK(a.at("stages").at("end_model").at("best_epoch") == b.at("stages").at("end_model").at("best_epoch"));
    if (method == "supcon") {  // the same clusters (their silhouettes differ in the last digits, as the embeddings do)
      CHECK(a.at("clusters").at("total") == b.at("clusters").at("total"));
      for (std::size_t y = 0; y < a.at("clusters").at("per_class").size(); ++y) {
        CHECK(a.at("clusters").at("per_class")[y].at("sizes") == b.at("clusters").at("per_class")[y].at("sizes"));
      }
      CHECK(a.at("subgroup_f1") == b.at("subgroup_f1"));
    }
  }

  // JTT on two ranks (its first model, its error set, then the upsampled end model), stopped
  // after the first model and resumed: the same bits as the uninterrupted two-rank run.
  const std::string whole = scratch("jtt-two.pt"), resumed = scratch("jtt-resumed.pt");
  auto uninterrupted = tiny_robustness("jtt", whole, whole + ".json");
  uninterrupted.insert(uninterrupted.end(), {"--nproc-per-node", "2"});
  REQUIRE(run(uninterrupted, scratch("jtt-two.log")) == 0);
  auto first = tiny_robustness("jtt", resumed, resumed + ".json");
  first.insert(first.end(), {"--nproc-per-node", "2", "--stop-after", "3"});
  REQUIRE(run(first, scratch("jtt-first.log")) == 0);
  // A resume with another number of ranks is refused by name, before any training.
  CHECK(run(tiny_robustness("jtt", resumed, scratch("refused.json")), scratch("refused.log")) == 2);
  CHECK_THAT(text_of(scratch("refused.log")), Catch::Contains("--nproc-per-node (the number of data-parallel ranks) is 1"));
  auto second = tiny_robustness("jtt", resumed, resumed + ".json");
  second.insert(second.end(), {"--nproc-per-node", "2"});
  REQUIRE(run(second, scratch("jtt-second.log")) == 0);
  const auto classes = static_cast<int64_t>(json_of(whole + ".json").at("dataset").at("classes").size());
  CHECK(compare(end_model_weights(whole, classes), end_model_weights(resumed, classes)).bitwise);
  CHECK(json_of(whole + ".json").at("test") == json_of(resumed + ".json").at("test"));
}
