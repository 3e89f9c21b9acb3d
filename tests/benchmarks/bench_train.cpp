// Benchmarks of the training module beside PyTorch (Python) doing the same work, in one run.
//
//   build/tests/benchmarks/geomsim_train_bench [--rounds=N] [--benchmark_filter=...]
//
// The PyTorch peers are tests/benchmarks/pytorch_peers.py, started once and asked over a pipe,
// so that every geomsim timing is taken right beside the PyTorch timing of the same work:
// each benchmark alternates N rounds (default 3) of geomsim and of PyTorch and reports the
// medians. Both sides run on the same libtorch (Debian's), with the same number of threads;
// this program sets glibc's malloc as geomsim-torch does, the peer runs with Python's default.
//   BM_SpreadLoss, BM_SupConLoss   forward + backward of the batch loss on an n x d float32
//       two-view batch (2 coarse classes, tau = 0.5, L_spread's alpha = 0.5), the same batch on
//       both sides (same seed, same generator). Time: geomsim per call. Counters:
//       pytorch_ms, and vs_pytorch = PyTorch's time / geomsim's (> 1: geomsim is faster).
//       The run fails if the two losses or gradient norms differ by more than 1e-4 (relative;
//       float32 sums over n^2 terms in another order).
//   BM_CnnTraining  one epoch of `geomsim train --model cnn --loss spread` (batch 256, random
//       1 x 28 x 28 images, 2 classes) through train::train_encoder, and the same model and
//       recipe in PyTorch, after one warm-up epoch each. Counters: samples_per_second (geomsim),
//       pytorch_samples_per_second and vs_pytorch (the ratio of samples/s) for the model as a
//       PyTorch user writes it; pytorch_tuned_samples_per_second and vs_pytorch_tuned for a
//       PyTorch script that also makes geomsim's implementation choices (pool before ReLU,
//       channels-last weights, glibc's malloc kept): what is left is the fused L_spread and
//       C++ against Python. And where geomsim's step spends its time (TrainOptions::time_phases,
//       the clock at the phases' ends): PHASE_ms_per_step for augmentation, forward, loss,
//       backward, optimizer and other, the medians over all of geomsim's timed epochs.
//
// --profile=FILE records one more geomsim epoch of each BM_CnnTraining under libtorch's
// profiler as a Chrome trace; tests/benchmarks/summarize_trace.py FILE tells where its time went.
// The peer starts with Python's default malloc; the tuned CNN epochs set it (for the rest of
// that process), so they run after the textbook ones.
#include <benchmark/benchmark.h>
#include <spawn.h>
#include <torch/csrc/autograd/profiler_legacy.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "geomsim/train/training/allocator_settings.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/training/trainer.hpp"

extern char** environ;

namespace {
using namespace geomsim::train;

int rounds = 3;            // --rounds=N
std::string profile_path;  // --profile=FILE

// The Python peer: one process for the whole run, one JSON line per request.
class Peer {
 public:
  Peer() {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) throw std::runtime_error("pipe failed");
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], STDOUT_FILENO);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) posix_spawn_file_actions_addclose(&actions, fd);
    std::string python = GEOMSIM_TORCH_PYTHON, script = GEOMSIM_PEERS_SCRIPT;
    std::vector<char*> argv{python.data(), script.data(), nullptr};
    const int status = posix_spawn(&pid_, python.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    if (status != 0) throw std::runtime_error("cannot start " + python + ": " + std::strerror(status));
    in_ = fdopen(to_child[1], "w");
    out_ = fdopen(from_child[0], "r");
  }
  ~Peer() {
    std::fclose(in_);  // end of input: the peer exits
    std::fclose(out_);
    waitpid(pid_, nullptr, 0);
  }
  Peer(const Peer&) = delete;
  Peer& operator=(const Peer&) = delete;

  nlohmann::json ask(const std::string& request) {
    std::fputs((request + "\n").c_str(), in_);
    std::fflush(in_);
    std::string line;
    for (int c; (c = std::fgetc(out_)) != EOF && c != '\n';) line.push_back(static_cast<char>(c));
    if (line.empty()) throw std::runtime_error("the PyTorch peer " GEOMSIM_PEERS_SCRIPT " did not answer '" + request + "'");
    auto reply = nlohmann::json::parse(line);
    if (reply.contains("error")) throw std::runtime_error("PyTorch peer: " + reply["error"].get<std::string>());
    return reply;
  }

 private:
  pid_t pid_ = -1;
  FILE* in_ = nullptr;
  FILE* out_ = nullptr;
};

// The peer process; `fresh` starts a new one (with Python's default malloc again).
Peer& peer(bool fresh = false) {
  static std::unique_ptr<Peer> p;
  if (fresh || !p) {
    p.reset();
    p = std::make_unique<Peer>();
  }
  return *p;
}

void set_threads(int threads, bool fresh_peer = false) {
  torch::set_num_threads(threads);
  peer(fresh_peer).ask("threads " + std::to_string(threads));
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

template <class F>
double seconds_per_call(F&& f) {  // median of 5 timed batches of at least 0.05 s, as the peer
  std::vector<double> t;
  for (int rep = 0; rep < 5; ++rep) {
    int calls = 0;
    const auto start = std::chrono::steady_clock::now();
    double elapsed = 0.0;
    do {
      f();
      ++calls;
      elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    } while (elapsed < 0.05);
    t.push_back(elapsed / calls);
  }
  return median(t);
}

bool close_to(double a, double b, double relative) { return std::abs(a - b) <= relative * std::max(std::abs(a), std::abs(b)); }

constexpr int64_t kClasses = 2;
constexpr double kTau = 0.5, kAlpha = 0.5;
constexpr int kSeed = 0;

// The loss benchmarks: `ours` maps z to the loss, `request` asks the peer for the same.
template <class Loss>
void loss_beside_pytorch(benchmark::State& state, Loss ours, const std::string& request) {
  const int64_t n = state.range(0), d = state.range(1);
  try {
    set_threads(static_cast<int>(state.range(2)));
    torch::manual_seed(kSeed);  // as the peer's two_view_batch
    const auto z0 = torch::nn::functional::normalize(torch::randn({n, d}), torch::nn::functional::NormalizeFuncOptions().dim(1));
    const auto sample_labels = torch::randint(0, kClasses, {n / 2}, torch::kLong);
    const auto labels = torch::cat({sample_labels, sample_labels});
    const auto partner = two_view_partners(n / 2);
    auto z = z0.clone().requires_grad_(true);
    double loss = 0.0;
    const auto step = [&] {
      z.mutable_grad() = torch::Tensor();
      auto value = ours(z, labels, partner);
      value.backward();
      loss = value.template item<double>();
    };
    std::vector<double> geomsim_seconds, pytorch_seconds;
    nlohmann::json reply;
    for (auto _ : state) {
      for (int round = 0; round < rounds; ++round) {
        geomsim_seconds.push_back(seconds_per_call(step));
        reply = peer().ask(request + " " + std::to_string(n) + " " + std::to_string(d) + " " + std::to_string(kClasses) + " " +
                           std::to_string(kTau) + (request == "spread" ? " " + std::to_string(kAlpha) : "") + " " +
                           std::to_string(kSeed));
        pytorch_seconds.push_back(reply["seconds"].get<double>());
      }
      state.SetIterationTime(median(geomsim_seconds));
    }
    const double grad_norm = z.grad().norm().item<double>();
    if (!close_to(loss, reply["loss"].get<double>(), 1e-4) || !close_to(grad_norm, reply["grad_norm"].get<double>(), 1e-4)) {
      state.SkipWithError(("geomsim and PyTorch disagree: loss " + std::to_string(loss) + " vs " + reply["loss"].dump() +
                           ", gradient norm " + std::to_string(grad_norm) + " vs " + reply["grad_norm"].dump())
                              .c_str());
      return;
    }
    state.counters["pytorch_ms"] = 1e3 * median(pytorch_seconds);
    state.counters["vs_pytorch"] = median(pytorch_seconds) / median(geomsim_seconds);
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

void BM_SpreadLoss(benchmark::State& state) {
  loss_beside_pytorch(
      state,
      [](const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner) {
        return spread_loss(z, labels, partner, kTau, kAlpha);
      },
      "spread");
}

void BM_SupConLoss(benchmark::State& state) {
  loss_beside_pytorch(
      state, [](const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor&) { return supcon_out_loss(z, labels, kTau); },
      "supcon");
}

void BM_CnnTraining(benchmark::State& state) {
  const int64_t samples = state.range(0), batch = 256;
  try {
    set_threads(static_cast<int>(state.range(1)), /*fresh_peer=*/true);
    TrainOptions options;
    options.loss = "spread";
    options.loss_options.alpha = kAlpha;
    options.loss_options.tau = kTau;
    options.batch_size = batch;
    options.seed = kSeed;
    options.time_phases = true;  // a clock read at each phase's end: nanoseconds a step
    const auto epoch = [&] {
      torch::manual_seed(kSeed);  // as the peer's cnn_epoch
      const auto images = torch::rand({samples, 1, 28, 28});
      const auto labels = torch::randint(0, 2, {samples}, torch::kLong);
      EncoderOptions model;  // the cnn of geomsim train: 128-d embedding, width 128
      Encoder encoder(model);
      return train_encoder(encoder, images, labels, 2, options, AugmentationOptions{}).epochs.at(0);
    };
    const std::string request = "cnn " + std::to_string(samples) + " " + std::to_string(batch) + " " + std::to_string(kSeed);
    // geomsim's epochs beside the textbook peer's, then beside the tuned peer's.
    std::vector<double> geomsim_rate, geomsim_rate_tuned, pytorch_rate, tuned_rate, geomsim_seconds;
    std::vector<std::vector<double>> phase_ms(kStepPhases);  // per phase: ms a step, one per timed epoch
    const auto keep_phases = [&](const EpochRecord& record) {
      for (std::size_t p = 0; p < phase_ms.size(); ++p) {
        phase_ms[p].push_back(record.phases.ms[p] / static_cast<double>(std::max<int64_t>(record.phases.steps, 1)));
      }
    };
    for (auto _ : state) {
      epoch();  // warm-up, both sides
      peer().ask(request + " textbook");
      for (int round = 0; round < rounds; ++round) {
        const EpochRecord record = epoch();
        geomsim_rate.push_back(record.samples_per_second);
        geomsim_seconds.push_back(record.seconds);
        keep_phases(record);
        pytorch_rate.push_back(peer().ask(request + " textbook")["samples_per_second"].get<double>());
      }
      peer().ask(request + " geomsim");  // warm-up; from here on the peer keeps freed memory
      for (int round = 0; round < rounds; ++round) {
        const EpochRecord record = epoch();
        geomsim_rate_tuned.push_back(record.samples_per_second);
        geomsim_seconds.push_back(record.seconds);
        keep_phases(record);
        tuned_rate.push_back(peer().ask(request + " geomsim")["samples_per_second"].get<double>());
      }
      state.SetIterationTime(median(geomsim_seconds));
    }
    if (!profile_path.empty()) {  // one more epoch under libtorch's profiler, as a Chrome trace
      torch::autograd::profiler::RecordProfile profile(profile_path);
      epoch();
    }
    state.counters["samples_per_second"] = median(geomsim_rate);
    state.counters["pytorch_samples_per_second"] = median(pytorch_rate);
    state.counters["vs_pytorch"] = median(geomsim_rate) / median(pytorch_rate);
    state.counters["pytorch_tuned_samples_per_second"] = median(tuned_rate);
    state.counters["vs_pytorch_tuned"] = median(geomsim_rate_tuned) / median(tuned_rate);
    for (std::size_t p = 0; p < phase_ms.size(); ++p) {
      state.counters[std::string(step_phase_names()[p]) + "_ms_per_step"] = median(phase_ms[p]);
    }
  } catch (const std::exception& error) {
    state.SkipWithError(error.what());
  }
}

}  // namespace

BENCHMARK(BM_SpreadLoss)->ArgNames({"n", "d", "threads"})->Args({512, 128, 2})->Args({512, 128, 1})->Args({64, 16, 2})
    ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SupConLoss)->ArgNames({"n", "d", "threads"})->Args({512, 128, 2})
    ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CnnTraining)->ArgNames({"samples", "threads"})->Args({4096, 2})->Args({4096, 1})
    ->Iterations(1)->UseManualTime()->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  geomsim::train::keep_freed_memory_for_tensors();  // as geomsim-torch does (src/cli/torch_main.cpp)
  std::vector<char*> rest;
  for (int i = 0; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--rounds=", 0) == 0) {
      char* end = nullptr;
      const long value = std::strtol(arg.c_str() + 9, &end, 10);
      rounds = static_cast<int>(std::clamp(value, 0L, 1000L));
      if (*end != '\0' || value < 1 || value > 1000) {
        std::fprintf(stderr, "geomsim_train_bench: --rounds must be an integer in [1, 1000], got '%s'\n", arg.c_str() + 9);
        return 2;
      }
    } else if (arg.rfind("--profile=", 0) == 0) {
      profile_path = arg.substr(10);
    } else {
      rest.push_back(argv[i]);
    }
  }
  int rest_count = static_cast<int>(rest.size());
  benchmark::Initialize(&rest_count, rest.data());
  if (benchmark::ReportUnrecognizedArguments(rest_count, rest.data())) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
