// Data-parallel training on c10d (distributed/): the launch environment, the collectives, and
// real runs of two ranks over Gloo on 127.0.0.1, started by launch_local as the program
// distributed_worker (tiny_data_parallel.hpp). Every launch uses its own free port and small
// timeouts, and the launcher ends every rank it started, so the tests run in parallel and never hang.
#include "train/catch_with_torch.hpp"
#include "train/scoped_torch_threads.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <utility>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <sstream>

#include "geomsim/train/distributed/data_parallel.hpp"
#include "geomsim/train/distributed/local_launcher.hpp"
#include "scratch_folder.hpp"
#include "train/distributed/silent_listener.hpp"
#include "train/distributed/tiny_data_parallel.hpp"

using namespace geomsim;
using namespace geomsim::train;
using geomsim::testing::ScratchFolder;

namespace {

LaunchEnvironment parse(const std::map<std::string, std::string>& variables) {
  return read_launch_environment([&](const char* name) -> const char* {
    const auto found = variables.find(name);
    return found == variables.end() ? nullptr : found->second.c_str();
  });
}

// The variable an InvalidArgument names, and its sentence; "" when none is thrown.
std::string refused_variable(const std::map<std::string, std::string>& variables) {
  try {
    parse(variables);
  } catch (const InvalidArgument& error) {
    INFO(error.what());
    return error.argument();
  }
  return "";
}

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// Two ranks of distributed_worker with `arguments`; each rank's output in folder/rank_<r>.log.
LaunchReport run_two_ranks(const ScratchFolder& folder, const std::vector<std::string>& arguments,
                           LocalLaunchOptions options = {}) {
  options.processes = 2;
  options.log_directory = folder.root.string();
  if (options.timeout_seconds == 0.0) options.timeout_seconds = 60.0;  // a bug must not hang ctest
  return launch_local(GEOMSIM_DISTRIBUTED_WORKER, arguments, options);
}

std::string logs(const ScratchFolder& folder) {
  return "rank 0:\n" + read_text(folder("rank_0.log")) + "rank 1:\n" + read_text(folder("rank_1.log"));
}

}  // namespace

TEST_CASE("The launch environment is read as torchrun and srun set it, and bad values name their variable",
          "[distributed][environment]") {
  SECTION("nothing set: one process") {
    const auto env = parse({});
    CHECK(env.world_size == 1);
    CHECK(env.rank == 0);
    CHECK(env.launcher == "none");
    CHECK_FALSE(env.distributed());
    CHECK(parse({{"MASTER_PORT", "x"}, {"WORLD_SIZE", "1"}}).world_size == 1);  // unused without ranks
  }
  SECTION("torchrun") {
    const auto env = parse({{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"MASTER_ADDR", "node7"},
                            {"MASTER_PORT", "29500"}});
    CHECK(env.launcher == "torchrun");
    CHECK(env.rank == 3);
    CHECK(env.world_size == 4);
    CHECK(env.local_rank == 1);
    CHECK(env.master_addr == "node7");
    CHECK(env.master_port == 29500);
    CHECK(env.local_world_size == 4);  // no LOCAL_WORLD_SIZE: one node
    CHECK(parse({{"RANK", "3"}, {"WORLD_SIZE", "4"}, {"LOCAL_RANK", "1"}, {"LOCAL_WORLD_SIZE", "2"}, {"MASTER_ADDR", "node7"},
                 {"MASTER_PORT", "29500"}}).local_world_size == 2);
  }
  SECTION("srun: Slurm's variables, MASTER_ADDR 127.0.0.1 on one node only") {
    std::map<std::string, std::string> slurm{{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "1"},
                                             {"SLURM_NNODES", "1"}, {"MASTER_PORT", "12345"}, {"SLURM_STEP_ID", "0"}};
    const auto env = parse(slurm);
    CHECK(env.launcher == "slurm");
    CHECK(env.rank == 1);
    CHECK(env.world_size == 2);
    CHECK(env.local_rank == 1);
    CHECK(env.master_addr == "127.0.0.1");
    CHECK(env.local_world_size == 2);
    slurm["SLURM_NNODES"] = "2";
    CHECK(refused_variable(slurm) == "MASTER_ADDR");
    slurm["MASTER_ADDR"] = "node1";
    CHECK(parse(slurm).master_addr == "node1");
    CHECK(parse(slurm).local_world_size == 1);  // 2 tasks on 2 nodes
    slurm["RANK"] = "0";  // torchrun's variables come first
    slurm["WORLD_SIZE"] = "1";
    CHECK(parse(slurm).launcher == "torchrun");
  }
  SECTION("bad values") {
    const std::map<std::string, std::string> good{{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"},
                                                  {"MASTER_PORT", "29500"}};
    const auto with = [&](const std::string& name, const std::string& value) {
      auto variables = good;
      variables[name] = value;
      return refused_variable(variables);
    };
    const auto without = [&](const std::string& name) {
      auto variables = good;
      variables.erase(name);
      return refused_variable(variables);
    };
    CHECK(refused_variable(good).empty());
    CHECK(with("RANK", "one") == "RANK");
    CHECK(with("RANK", "-1") == "RANK");
    CHECK(with("RANK", "2") == "RANK");  // RANK >= WORLD_SIZE
    CHECK(with("RANK", "1x") == "RANK");
    CHECK(with("WORLD_SIZE", "0") == "WORLD_SIZE");
    CHECK(with("LOCAL_RANK", "2") == "LOCAL_RANK");
    CHECK(with("LOCAL_WORLD_SIZE", "3") == "LOCAL_WORLD_SIZE");  // more local ranks than ranks
    CHECK(with("LOCAL_WORLD_SIZE", "0") == "LOCAL_WORLD_SIZE");
    CHECK(with("MASTER_PORT", "65536") == "MASTER_PORT");
    CHECK(with("MASTER_PORT", "0") == "MASTER_PORT");
    CHECK(with("MASTER_PORT", "http") == "MASTER_PORT");
    CHECK(without("MASTER_PORT") == "MASTER_PORT");
    CHECK(without("MASTER_ADDR") == "MASTER_ADDR");
    CHECK(without("WORLD_SIZE") == "WORLD_SIZE");
    CHECK(without("RANK") == "RANK");
    CHECK(refused_variable({{"SLURM_PROCID", "2"}, {"SLURM_NTASKS", "2"}, {"SLURM_STEP_ID", "0"}}) == "SLURM_PROCID");
    CHECK(refused_variable({{"SLURM_PROCID", "0"}, {"SLURM_STEP_ID", "0"}}) == "SLURM_NTASKS");
    CHECK(refused_variable({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_STEP_ID", "0"}}) == "MASTER_PORT");
    // A batch script (a job array's task) is in no job step: one process, whatever its job's tasks.
    CHECK(parse({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", "2"}, {"SLURM_LOCALID", "0"}}).world_size == 1);
    CHECK(parse({{"SLURM_PROCID", "0"}}).launcher == "none");
    try {
      parse({{"RANK", "one"}, {"WORLD_SIZE", "2"}});
      FAIL("no error");
    } catch (const InvalidArgument& error) {
      CHECK(std::string(error.what()) == "the environment variable RANK must be an integer in [0, 2) (WORLD_SIZE = 2), got \"one\"");
      CHECK(dynamic_cast<const InvalidEnvironment*>(&error) != nullptr);
    }
  }
}

TEST_CASE("From the process's environment, a bad RANK or a missing MASTER_PORT is refused by name",
          "[distributed][environment]") {
  // Sets the variables for the scope of the object, then restores them (the test binary may
  // run every case in one process).
  struct Variables {
    std::map<std::string, std::optional<std::string>> saved;
    explicit Variables(const std::map<std::string, std::optional<std::string>>& values) {
      for (const auto& [name, value] : values) {
        const char* old = std::getenv(name.c_str());
        saved[name] = old ? std::optional<std::string>(old) : std::nullopt;
        if (value) {
          ::setenv(name.c_str(), value->c_str(), 1);
        } else {
          ::unsetenv(name.c_str());
        }
      }
    }
    ~Variables() {
      for (const auto& [name, value] : saved) {
        if (value) {
          ::setenv(name.c_str(), value->c_str(), 1);
        } else {
          ::unsetenv(name.c_str());
        }
      }
    }
  };
  const auto refusal = [] { return geomsim::testing::refusal([] { DistributedContext::from_environment(); }); };
  {
    const Variables variables({{"RANK", "x"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "1"}});
    CHECK(refusal() == "the environment variable RANK must be an integer in [0, 2) (WORLD_SIZE = 2), got \"x\"");
  }
  {
    const Variables variables({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::nullopt}});
    CHECK(refusal() == "the environment variable MASTER_PORT must be set (the rendezvous port of rank 0) when WORLD_SIZE = 2 > 1");
  }
}

TEST_CASE("Rank 0 names MASTER_PORT when another program holds the port", "[distributed]") {
  // A listening socket on a free port, on every address as c10d's store would listen.
  const int holder = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(holder >= 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t length = sizeof address;
  REQUIRE(::bind(holder, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0);
  REQUIRE(::listen(holder, 1) == 0);
  REQUIRE(::getsockname(holder, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  const int port = ntohs(address.sin_port);
  DistributedOptions options;
  options.timeout_seconds = 1.0;
  const auto env = parse({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}});
  try {
    DistributedContext context(env, options);
    FAIL("no error");
  } catch (const DistributedFailure& error) {
    INFO(error.what());
    CHECK(std::string(error.what()).rfind("rank 0 of 2 could not serve the rendezvous on MASTER_PORT = " + std::to_string(port), 0) == 0);
  }
  ::close(holder);
}

TEST_CASE("With world size 1 there is no process group and every collective leaves its tensor as it is",
          "[distributed]") {
  const DistributedContext context(parse({}));
  CHECK(context.world_size() == 1);
  CHECK(context.backend() == "none");
  CHECK(context.is_main());
  auto t = torch::arange(6, torch::kFloat32).reshape({3, 2}).requires_grad_();
  CHECK(all_gather_with_grad(context, t).is_same(t));
  CHECK(gather_views_with_grad(context, t.narrow(0, 0, 2), 2).data_ptr() == t.data_ptr());
  auto u = t.detach().clone();
  context.all_reduce_(u, ReduceOperation::sum, "test");
  context.broadcast_(u, 0, "test");
  CHECK(torch::equal(u, t.detach()));
  CHECK(context.communication_times().empty());
  CHECK(torch::equal(shard_rows(context, t), t));
}

TEST_CASE("Rank r takes the global batch's rows from r b to (r + 1) b, and the batch must divide by the world size",
          "[distributed]") {
  CHECK(local_batch_size(4, 256) == 64);
  CHECK(geomsim::testing::refusal([] { local_batch_size(2, 7); }).rfind("--batch-size must be a multiple of the world size 2", 0) == 0);
  CHECK_THROWS_AS(local_batch_size(4, 2), InvalidArgument);
  // Two ranks with two views of b = 2 samples each: rank-major [r0 v0, r0 v1, r1 v0, r1 v1]
  // becomes [r0 v0, r1 v0, r0 v1, r1 v1], the one-process layout [v0 of 4; v1 of 4].
  const auto order = view_major_order(2, 4, 2);
  CHECK(std::vector<int64_t>(order.data_ptr<int64_t>(), order.data_ptr<int64_t>() + 8) ==
        std::vector<int64_t>{0, 1, 4, 5, 2, 3, 6, 7});
  CHECK_THROWS_AS(view_major_order(2, 5, 2), InvalidArgument);
}

TEST_CASE("Uneven shards, evaluation in shards and rank 0's choices agree on two and three ranks", "[distributed][gloo]") {
  // With one process: the whole batch, compute on every row, the values as they are.
  const DistributedContext one;
  CHECK(uneven_shard(one, 5).first == 0);
  CHECK(uneven_shard(one, 5).count == 5);
  const auto rows = gather_row_shards(one, 3, [](int64_t first, int64_t count) { return torch::arange(first, first + count); });
  CHECK(torch::equal(rows, torch::arange(3)));
  CHECK(values_of_rank0(one, {4, 2}, "test") == std::vector<int64_t>{4, 2});
  // With 2 and 3 ranks (rows from 1, fewer than the ranks, to 25): distributed_worker's checks.
  const int ranks = GENERATE(2, 3);
  ScratchFolder folder("distributed-shards-" + std::to_string(ranks));
  LocalLaunchOptions options;
  options.processes = ranks;
  options.log_directory = folder.root.string();
  options.timeout_seconds = 60.0;
  const auto report = launch_local(GEOMSIM_DISTRIBUTED_WORKER, {"shards", "--timeout", "20"}, options);
  INFO(report.summary() << logs(folder) << "rank 2:\n" << read_text(folder("rank_2.log")));
  CHECK(report.success());
  CHECK(logs(folder).find("rank 1 of " + std::to_string(ranks) + ": 0 wrong answers") != std::string::npos);
}

TEST_CASE("Several ranks on CUDA need NCCL: without it the context refuses the device", "[distributed]") {
  const auto backends = available_distributed_backends();
  CHECK(std::find(backends.begin(), backends.end(), "gloo") != backends.end());
  if (std::find(backends.begin(), backends.end(), "nccl") != backends.end()) return;
  DistributedOptions options;
  options.device = torch::Device(torch::kCUDA);
  const auto env = parse({{"RANK", "0"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "1"}});
  try {
    DistributedContext context(env, options);
    FAIL("no error");
  } catch (const InvalidArgument& error) {
    CHECK(error.argument() == "device");
    CHECK(std::string(error.what()).find("NCCL") != std::string::npos);
  }
}

namespace {
// Rank 1 of 2 meeting its peers at 127.0.0.1:PORT with a timeout of 1 s: what the DistributedFailure
// said, and the seconds it took ("" when there was none).
std::pair<std::string, double> rank_one_failure(int port) {
  const auto env = parse({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", std::to_string(port)}});
  DistributedOptions options;
  options.timeout_seconds = 1.0;
  const auto start = std::chrono::steady_clock::now();
  std::string said;
  try {
    DistributedContext context(env, options);
  } catch (const DistributedFailure& error) {
    said = error.what();
  }
  return {said, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()};
}
}  // namespace

TEST_CASE("A rank whose peers never come fails with the rendezvous's address within the timeout", "[distributed]") {
  const int port = free_local_port();
  const auto [said, seconds] = rank_one_failure(port);
  INFO(said);
  CHECK(said.find("rank 1 of 2 could not meet the other ranks at MASTER_ADDR:MASTER_PORT = 127.0.0.1:" + std::to_string(port)) == 0);
  CHECK(seconds < 1.0 + 3.0);  // the timeout, and the store's last retry
}

TEST_CASE("A rank whose MASTER_PORT accepts and never answers fails within the timeout, naming the port and the timeout",
          "[distributed]") {
  // c10d's store alone waits for its first answer for ever (distributed_context.cpp).
  const geomsim::testing::SilentListener listener;
  const auto [said, seconds] = rank_one_failure(listener.port());
  INFO(said);
  CHECK(said.rfind("rank 1 of 2 could not meet the other ranks at MASTER_ADDR:MASTER_PORT = 127.0.0.1:" +
                       std::to_string(listener.port()) + " within the timeout of 1 s (--distributed-timeout): " +
                       "the program on that port accepted the connection but never answered",
                   0) == 0);
  CHECK(seconds > 1.0);
  CHECK(seconds < 1.0 + 2.0 + 3.0);  // the timeout, c10d's grace, and the store's thread ending
}

TEST_CASE("A world larger than the open files allow is refused by name before any socket is opened", "[distributed]") {
  const RankLimit world = world_size_limit();
  CHECK(world.most >= 1);
  CHECK(world.most < (1 << 24) + 1);
  CHECK(local_ranks_limit().most <= world.most);
  const std::string too_many = std::to_string(static_cast<long>(world.most) + 1);
  const auto refusal = [&](const std::map<std::string, std::string>& variables) {
    try {
      parse(variables);
    } catch (const InvalidEnvironment& error) {
      return std::string(error.what());
    }
    return std::string();
  };
  CHECK(refusal({{"RANK", "0"}, {"WORLD_SIZE", too_many}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "1"}}) ==
        "the environment variable WORLD_SIZE must be an integer " + world.range() + ", got \"" + too_many + "\"");
  CHECK(refusal({{"SLURM_PROCID", "0"}, {"SLURM_NTASKS", too_many}, {"SLURM_STEP_ID", "0"}, {"MASTER_PORT", "1"}}) ==
        "the environment variable SLURM_NTASKS must be an integer " + world.range() + ", got \"" + too_many + "\"");
  CHECK(refusal({{"RANK", "0"}, {"WORLD_SIZE", std::to_string(world.most)}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "1"}})
            .empty());
  // A LaunchEnvironment made by hand, and the launcher's ranks.
  LaunchEnvironment env;
  env.world_size = world.most + 1;
  env.master_addr = "127.0.0.1";
  env.master_port = 1;
  CHECK(geomsim::testing::refusal([&] { DistributedContext context(env); }).rfind("the environment variable WORLD_SIZE must be in [1, ", 0) == 0);
  LocalLaunchOptions launch;
  launch.processes = local_ranks_limit().most + 1;
  CHECK(geomsim::testing::refusal([&] { launch_local("/bin/true", {}, launch); }).rfind("--nproc-per-node must be in [1, ", 0) == 0);
}

TEST_CASE("A timeout beyond a day, or not a positive number, is refused by name before any socket is opened", "[distributed]") {
  CHECK(kMaxDistributedTimeoutSeconds == 86400.0);
  CHECK_NOTHROW(require_distributed_timeout(86400.0));
  CHECK_NOTHROW(require_distributed_timeout(1e-3));
  for (const double seconds : {86400.5, 1e10, 1e300, std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN(),
                               0.0, -1.0}) {
    CAPTURE(seconds);
    CHECK(geomsim::testing::refusal([&] { require_distributed_timeout(seconds); }) ==
          "--distributed-timeout must be in (0, 86400] seconds (a day at most: no real run waits that long for its ranks), got " +
              format_number(seconds));
  }
  // The context checks it too, under the library's name, before the rendezvous: nothing listens on
  // port 1, so a context that tried would fail with a DistributedFailure instead.
  DistributedOptions options;
  options.timeout_seconds = 1e10;
  const auto env = parse({{"RANK", "1"}, {"WORLD_SIZE", "2"}, {"MASTER_ADDR", "127.0.0.1"}, {"MASTER_PORT", "1"}});
  CHECK(geomsim::testing::refusal([&] { DistributedContext context(env, options); }).rfind("--timeout must be in (0, 86400] seconds", 0) == 0);
}

TEST_CASE("Two ranks over Gloo end with bitwise identical weights, those of one process on the global batch",
          "[distributed][gloo]") {
  // One process on the same global batches, for reference, single-threaded like the ranks, so
  // that no thread count changes a kernel's summation order.
  // AdamW in float32 and float64, then SGD in float64 with a term on the local shard added to
  // the gathered loss: SGD sees the gradients' scale, which AdamW divides away, and the local
  // term must be weighed like the gathered one (data_parallel.hpp).
  const int variant = GENERATE(0, 1, 2);
  const auto dtype = variant == 0 ? torch::kFloat32 : torch::kFloat64;
  const std::string name = variant == 0 ? "float" : "double";
  train::testing::TinyRun run;
  run.dtype = dtype;
  run.sgd = variant == 2;
  run.local_weight = variant == 2 ? 0.5 : 0.0;
  const auto one = [&] {
    const train::testing::ScopedTorchThreads one_thread(1);
    return train::testing::train_tiny(DistributedContext(), run);
  }();

  ScratchFolder folder("distributed-equal-" + std::to_string(variant));
  const auto report = run_two_ranks(folder, {"train", "--dtype", name, "--steps", std::to_string(run.steps), "--out",
                                             folder("weights"), "--timeout", "10", "--local-weight",
                                             std::to_string(run.local_weight), "--optimizer", run.sgd ? "sgd" : "adamw"});
  INFO(report.summary() << logs(folder));
  REQUIRE(report.success());
  const auto rank0 = read_text(folder("weights.rank0"));
  const auto rank1 = read_text(folder("weights.rank1"));
  REQUIRE(rank0.size() == static_cast<std::size_t>(one.weights.nbytes()));
  CHECK(rank0 == rank1);  // (a): the same bits on both ranks
  CHECK(logs(folder).find("0 of 212 values differ") != std::string::npos);  // compare_weights_across_ranks agrees
  // (b) the one-process run. The ranks' gradients differ from it only in the order of the
  // sums over the batch inside the backward (two partial sums over b = 8 rows added by the
  // all-reduce, against one sum over 16), i.e. by a few units of the dtype's epsilon
  // relative to the gradient's terms. AdamW's step, m / sqrt(v), does not amplify a relative
  // change of the gradient (its derivative in g is eps / (|g| + eps)^2 < 1 / |g|), and SGD's
  // is lr times the gradient of size < 1 here, so after k = 6 steps the weights differ by about
  // k * lr * (a few eps), 6 * 0.05 * 1e-6 ~ 3e-7 in float32 and 6e-16 in float64 (measured:
  // 1.5e-7 and 3.3e-16 at weights of size 0.6); the bounds, 1e-5 and 1e-12 relative to the
  // largest weight, leave a factor of about 30 and 1000 for gradient terms that cancel.
  const auto distributed = torch::from_blob(const_cast<char*>(rank0.data()), one.weights.sizes(), one.weights.options()).clone();
  const double difference = (distributed - one.weights).abs().max().item<double>();
  const double scale = one.weights.abs().max().item<double>();
  std::cout << "two ranks against one process (" << name << (run.sgd ? ", SGD" : ", AdamW") << ", local term "
            << run.local_weight << "): max |difference| " << difference << ", max |weight| " << scale
            << "\n";
  CHECK(difference <= (dtype == torch::kFloat32 ? 1e-5 : 1e-12) * scale);
}

TEST_CASE("The comparison with one process sees a wrong gradient scale: summing over ranks instead of averaging",
          "[distributed][gloo]") {
  train::testing::TinyRun run;
  run.dtype = torch::kFloat64;
  run.sgd = true;
  run.local_weight = 0.5;
  const auto one = [&] {
    const train::testing::ScopedTorchThreads one_thread(1);
    return train::testing::train_tiny(DistributedContext(), run);
  }();
  ScratchFolder folder("distributed-sum");
  const auto report = run_two_ranks(folder, {"train", "--dtype", "double", "--out", folder("weights"), "--local-weight",
                                             "0.5", "--optimizer", "sgd", "--reduction", "sum"});
  INFO(report.summary() << logs(folder));
  REQUIRE(report.success());
  const auto bytes = read_text(folder("weights.rank0"));
  REQUIRE(bytes.size() == static_cast<std::size_t>(one.weights.nbytes()));
  const auto distributed = torch::from_blob(const_cast<char*>(bytes.data()), one.weights.sizes(), one.weights.options()).clone();
  CHECK((distributed - one.weights).abs().max().item<double>() > 1e-3 * one.weights.abs().max().item<double>());
}

TEST_CASE("A killed rank makes rank 0 fail with a clear error at once, and the launcher reports which rank died",
          "[distributed][gloo]") {
  // Rank 1 dies before the gather (rank 0 waits in the forward's all-gather), or after it
  // (rank 0 waits in the all-reduce inside loss.backward(): the error must come out of
  // autograd's engine as the same DistributedFailure).
  const bool in_backward = GENERATE(false, true);
  ScratchFolder folder(std::string("distributed-killed-") + (in_backward ? "backward" : "forward"));
  LocalLaunchOptions options;
  options.failure_wait_seconds = 10.0;  // let rank 0 end on its own, with its own message
  const double timeout = 5.0;
  const auto report = run_two_ranks(
      folder, {"train", "--steps", "6", in_backward ? "--die-in-backward-at" : "--die-at", "2", "--timeout", "5"}, options);
  INFO(report.summary() << logs(folder));
  REQUIRE(report.first_failed_rank == 1);
  CHECK_FALSE(report.ranks[1].exited);
  CHECK(report.ranks[1].signal == SIGKILL);
  CHECK(report.summary().find("first failure: rank 1 (pid ") == 0);
  CHECK(report.ranks[0].exited);
  CHECK(report.ranks[0].exit_status == 3);
  CHECK_FALSE(report.ranks[0].terminated);
  const std::string collective = in_backward ? "all-reduce of embedding gradients" : "all-gather of embeddings";
  CHECK(read_text(folder("rank_0.log")).find("error: rank 0 of 2: the " + collective + " failed: rank 1 closed its "
                                             "connection (it exited or was killed") != std::string::npos);
  // Gloo sees the closed connection at once: far below the timeout.
  const double seconds = report.ranks[0].seconds - report.ranks[1].seconds;
  std::cout << "killed rank (" << collective << "): rank 0 ended " << seconds << " s after rank 1 was killed (timeout " << timeout << " s)\n";
  CHECK(seconds < timeout);
}

TEST_CASE("A rank that stops answering makes rank 0 fail after the timeout, and the launcher then ends it",
          "[distributed][gloo]") {
  ScratchFolder folder("distributed-stalled");
  LocalLaunchOptions options;
  options.failure_wait_seconds = 0.2;
  options.grace_seconds = 2.0;
  const double timeout = 2.0;
  const auto report = run_two_ranks(folder, {"train", "--steps", "6", "--stall-at", "2", "--timeout", "2"}, options);
  INFO(report.summary() << logs(folder));
  REQUIRE(report.first_failed_rank == 0);
  CHECK(report.ranks[0].exit_status == 3);
  CHECK(report.ranks[1].terminated);
  CHECK(report.ranks[1].signal == SIGTERM);
  const auto log = read_text(folder("rank_0.log"));
  CHECK(log.find("rank 0 of 2: the all-gather of embeddings failed: rank 1 stopped answering for the timeout of 2 s") !=
        std::string::npos);
  double seconds = -1.0;
  const auto at = log.find("failed after ");
  if (at != std::string::npos) seconds = std::stod(log.substr(at + 13));
  std::cout << "stalled rank: rank 0 failed " << seconds << " s into the run (timeout " << timeout << " s)\n";
  CHECK(seconds >= timeout - 0.05);
  CHECK(seconds < timeout + 3.0);
}

TEST_CASE("When a rank exits non-zero the launcher ends the others, with SIGKILL if SIGTERM is ignored",
          "[distributed][launcher]") {
  const bool stubborn = GENERATE(false, true);
  ScratchFolder folder(std::string("distributed-exit-") + (stubborn ? "stubborn" : "plain"));
  LocalLaunchOptions options;
  options.failure_wait_seconds = 0.1;
  options.grace_seconds = 0.5;
  const auto report = run_two_ranks(folder, {"exit", "--status", "7", "--stubborn", stubborn ? "1" : "0", "--ready", folder("ready")}, options);
  INFO(report.summary() << logs(folder));
  REQUIRE(report.first_failed_rank == 1);
  CHECK(report.ranks[1].exited);
  CHECK(report.ranks[1].exit_status == 7);
  CHECK_FALSE(report.ranks[1].terminated);
  CHECK(report.ranks[0].terminated);
  CHECK(report.ranks[0].signal == (stubborn ? SIGKILL : SIGTERM));
  CHECK(report.seconds < 10.0);
  CHECK_FALSE(report.success());
}

TEST_CASE("The launcher refuses a program it cannot start, and bad options", "[distributed][launcher]") {
  LocalLaunchOptions options;
  options.processes = 2;
  try {
    launch_local("/nonexistent/geomsim-worker", {}, options);
    FAIL("no error");
  } catch (const DistributedFailure& error) {
    CHECK(std::string(error.what()) == "could not start rank 0: /nonexistent/geomsim-worker: No such file or directory");
  }
  options.processes = 0;
  const std::string too_few = geomsim::testing::refusal([&] { launch_local("/bin/true", {}, options); });
  CHECK(too_few.rfind("--nproc-per-node must be in [1, ", 0) == 0);  // and why, from local_ranks_limit()
  CHECK(too_few.substr(too_few.size() - 7) == ", got 0");
  options.processes = 3;
  const auto report = launch_local("/bin/true", {}, options);
  CHECK(report.success());
  CHECK(report.ranks.size() == 3);
  CHECK(report.master_port > 0);
}
