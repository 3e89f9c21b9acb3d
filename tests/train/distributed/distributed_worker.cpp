// The program the distributed tests run as several ranks (through launch_local), and a small
// benchmark of a data-parallel step. Usage:
//   distributed_worker train [--dtype float|double] [--steps N] [--out PREFIX] [--timeout S]
//                            [--die-at STEP] [--die-in-backward-at STEP] [--stall-at STEP] [--local-weight W]
//                            [--optimizer adamw|sgd] [--reduction mean|sum]
//       the tiny run of tiny_data_parallel.hpp; rank r writes its weights' bytes to PREFIX.rank<r>
//   distributed_worker shards [--timeout S]
//       uneven_shard, gather_row_shards and values_of_rank0 checked on every rank, for data sets
//       of fewer, as many and more rows than ranks; exit 4 when a rank gets a wrong answer
//   distributed_worker exit [--status K] [--stubborn 1] [--ready FILE]
//       rank 1 exits with status K (once rank 0 has created FILE); the others sleep (ignoring
//       SIGTERM with --stubborn 1)
//   distributed_worker bench [--batch GLOBAL] [--steps N] [--threads T] [--timeout S]
//       the CNN encoder (encoders.hpp) trained with SupCon on the gathered batch; rank 0 prints
//       one JSON line: samples/s and where a step's time goes
//   distributed_worker launch NPROC MODE [OPTIONS]   runs MODE as NPROC local ranks
// Exit status: 0 done, 2 invalid input, 3 a DistributedFailure, 4 ranks disagree.
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include "geomsim/train/distributed/local_launcher.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/models/encoders.hpp"
#include "train/distributed/tiny_data_parallel.hpp"

using namespace geomsim;
using namespace geomsim::train;
using Clock = std::chrono::steady_clock;

namespace {

double since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

std::map<std::string, std::string> options_of(const std::vector<std::string>& args, std::size_t first) {
  std::map<std::string, std::string> options;
  for (std::size_t i = first; i + 1 < args.size(); i += 2) options[args[i]] = args[i + 1];
  return options;
}

std::string option(const std::map<std::string, std::string>& options, const std::string& key, const std::string& fallback) {
  const auto found = options.find(key);
  return found == options.end() ? fallback : found->second;
}

DistributedContext context_for(const std::map<std::string, std::string>& options) {
  DistributedOptions distributed;
  distributed.timeout_seconds = std::stod(option(options, "--timeout", "10"));
  return DistributedContext::from_environment(distributed);
}

int train_tiny_run(const std::map<std::string, std::string>& options) {
  torch::set_num_threads(1);
  const auto context = context_for(options);
  testing::TinyRun run;
  run.dtype = option(options, "--dtype", "float") == "double" ? torch::kFloat64 : torch::kFloat32;
  run.steps = std::stoll(option(options, "--steps", "6"));
  run.die_at_step = std::stoll(option(options, "--die-at", "-1"));
  run.stall_at_step = std::stoll(option(options, "--stall-at", "-1"));
  run.die_in_backward_at_step = std::stoll(option(options, "--die-in-backward-at", "-1"));
  run.local_weight = std::stod(option(options, "--local-weight", "0"));
  run.sgd = option(options, "--optimizer", "adamw") == "sgd";
  run.reduction = option(options, "--reduction", "mean") == "sum" ? GradientReduction::sum : GradientReduction::mean;
  const auto start = Clock::now();
  try {
    const auto result = testing::train_tiny(context, run);
    const auto out = option(options, "--out", "");
    if (!out.empty()) {
      std::ofstream file(out + ".rank" + std::to_string(context.rank()), std::ios::binary);
      file.write(static_cast<const char*>(result.weights.data_ptr()), static_cast<std::streamsize>(result.weights.nbytes()));
    }
    std::printf("rank %d of %d: loss %.17g, %lld of %lld values differ from rank 0's (max |difference| %g)\n",
                context.rank(), context.world_size(), result.last_loss,
                static_cast<long long>(result.agreement.differing_values),
                static_cast<long long>(result.agreement.values), result.agreement.max_abs_difference);
    return result.agreement.identical() ? 0 : 4;
  } catch (const DistributedFailure& error) {
    std::printf("failed after %.3f s\n", since(start));
    throw;
  }
}

int check_shards(const std::map<std::string, std::string>& options) {
  torch::set_num_threads(1);
  const auto context = context_for(options);
  const int w = context.world_size();
  int wrong = 0;
  for (const int64_t rows : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{5}, int64_t{8}, int64_t{25}}) {
    // The ranks' uneven shards cover [0, rows) in order, none larger than another by more than one.
    int64_t next = 0, smallest = rows, largest = 0;
    for (int r = 0; r < w; ++r) {
      const int64_t first = rows * r / w, count = rows * (r + 1) / w - first;
      wrong += first != next;
      next = first + count;
      smallest = std::min(smallest, count);
      largest = std::max(largest, count);
    }
    const RowRange mine = uneven_shard(context, rows);
    wrong += next != rows || largest - smallest > 1 || mine.first != rows * context.rank() / w;
    // Row i of the gathered result is f(i) = [i, -i], whichever rank computed it.
    int64_t computed = -1;
    const auto all = gather_row_shards(context, rows, [&](int64_t first, int64_t count) {
      computed = count;
      const auto i = torch::arange(first, first + count, torch::kFloat64);
      return torch::stack({i, -i}, 1);
    });
    const auto i = torch::arange(rows, torch::kFloat64);
    wrong += !torch::equal(all, torch::stack({i, -i}, 1)) || computed != (rows + w - 1) / w;
  }
  const auto shared = values_of_rank0(context, {context.rank() + 7, -context.rank()}, "test values");
  wrong += shared != std::vector<int64_t>{7, 0};
  std::printf("rank %d of %d: %d wrong answers\n", context.rank(), w, wrong);
  return wrong == 0 ? 0 : 4;
}

int exit_early(const std::map<std::string, std::string>& options) {
  const auto environment = read_launch_environment();
  const auto ready = option(options, "--ready", "");  // rank 0 creates it once its signals are set
  if (environment.rank == 1) {
    while (!ready.empty() && !std::filesystem::exists(ready)) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return std::stoi(option(options, "--status", "7"));
  }
  if (option(options, "--stubborn", "0") == "1") ::signal(SIGTERM, SIG_IGN);
  if (!ready.empty()) std::ofstream(ready).put('\n');
  std::this_thread::sleep_for(std::chrono::seconds(60));
  return 0;
}

int bench(const std::map<std::string, std::string>& options) {
  const int threads = std::stoi(option(options, "--threads", "1"));
  torch::set_num_threads(threads);
  const auto context = context_for(options);
  const int64_t global_batch = std::stoll(option(options, "--batch", "64"));
  const int64_t steps = std::stoll(option(options, "--steps", "10"));
  const int64_t warm_up = 2;
  torch::manual_seed(0);
  Encoder encoder{EncoderOptions{}};  // the CNN: 1 x 28 x 28 images, 128-d embeddings
  broadcast_parameters(context, *encoder);
  torch::optim::AdamW optimizer(encoder->parameters(), torch::optim::AdamWOptions(1e-3));
  const int64_t b = local_batch_size(context, global_batch);
  torch::manual_seed(1);
  const auto images = torch::rand({global_batch, 1, 28, 28});
  const auto labels = torch::arange(global_batch, torch::kInt64).remainder(10);
  const auto mine = shard_rows(context, images);
  const auto views = torch::cat({mine + 0.05 * torch::randn_like(mine), mine - 0.05 * torch::randn_like(mine)});
  double step_seconds = 0, gradient_seconds = 0, optimizer_seconds = 0;
  for (int64_t step = 0; step < warm_up + steps; ++step) {
    if (step == warm_up) {
      context.barrier("benchmark start");
      context.reset_communication_times();
      step_seconds = gradient_seconds = optimizer_seconds = 0;
    }
    const auto start = Clock::now();
    const auto z = gather_views_with_grad(context, encoder->forward(views), 2);
    const auto loss = supcon_out_loss(z, torch::cat({labels, labels}), 0.1);
    optimizer.zero_grad();
    loss.backward();
    const auto reduce_start = Clock::now();
    all_reduce_gradients(context, *encoder);
    gradient_seconds += since(reduce_start);
    const auto optimizer_start = Clock::now();
    optimizer.step();
    optimizer_seconds += since(optimizer_start);
    step_seconds += since(start);
  }
  double gather_seconds = 0;
  for (const auto& time : context.communication_times()) {
    if (time.what == "all-gather of embeddings" || time.what == "all-reduce of embedding gradients") gather_seconds += time.seconds;
  }
  const double n = static_cast<double>(steps);
  if (context.is_main()) {
    std::printf("{\"world\": %d, \"threads\": %d, \"global_batch\": %lld, \"local_batch\": %lld, \"steps\": %lld, "
                "\"samples_per_s\": %.1f, \"ms_per_step\": %.2f, \"ms_compute\": %.2f, \"ms_gather\": %.2f, "
                "\"ms_gradient_all_reduce\": %.2f, \"ms_optimizer\": %.2f}\n",
                context.world_size(), threads, static_cast<long long>(global_batch), static_cast<long long>(b),
                static_cast<long long>(steps), n * static_cast<double>(global_batch) / step_seconds,
                1e3 * step_seconds / n, 1e3 * (step_seconds - gather_seconds - gradient_seconds - optimizer_seconds) / n,
                1e3 * gather_seconds / n, 1e3 * gradient_seconds / n, 1e3 * optimizer_seconds / n);
  }
  return 0;
}

int launch(const std::vector<std::string>& args) {
  LocalLaunchOptions options;
  options.processes = std::stoi(args.at(1));
  const std::vector<std::string> rest(args.begin() + 2, args.end());
  const auto report = launch_local(std::filesystem::read_symlink("/proc/self/exe").string(), rest, options);
  std::fputs(report.summary().c_str(), stderr);
  return report.success() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const std::string mode = args.empty() ? "" : args[0];
  try {
    if (mode == "train") return train_tiny_run(options_of(args, 1));
    if (mode == "shards") return check_shards(options_of(args, 1));
    if (mode == "exit") return exit_early(options_of(args, 1));
    if (mode == "bench") return bench(options_of(args, 1));
    if (mode == "launch") return launch(args);
    std::fprintf(stderr, "usage: distributed_worker train|shards|exit|bench|launch NPROC MODE [--option value ...]\n");
    return 2;
  } catch (const InvalidArgument& error) {
    std::fprintf(stderr, "distributed_worker: error: %s\n", error.what());
    return 2;
  } catch (const DistributedFailure& error) {
    std::fprintf(stderr, "distributed_worker: error: %s\n", error.what());
    return 3;
  }
}
