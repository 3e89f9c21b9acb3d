// libFuzzer harness: the environment variables a launcher sets, as a process reads them: a
// data-parallel rank's (train/distributed/launch_environment.hpp: torchrun's RANK, WORLD_SIZE,
// LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT; srun's SLURM_PROCID, SLURM_NTASKS,
// SLURM_STEP_ID, SLURM_LOCALID, SLURM_NNODES, SLURM_JOB_NUM_NODES) and a job array task's
// (experiments/shard.hpp: --shard slurm's SLURM_ARRAY_TASK_ID, _COUNT, _MIN, _STEP). The input is
// lines NAME=VALUE, the variables set; a line SHARD=TEXT is --shard's value instead of "slurm".
// Every value is a string nobody checked: a refusal (InvalidEnvironment, InvalidArgument) is the
// answer for one that does not fit, and what is accepted must be a place in a job that exists.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include "fuzz_findings.hpp"
#include "geomsim/experiments/shard.hpp"
#include "geomsim/train/distributed/launch_environment.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace geomsim;
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::map<std::string, std::string> variables;
  for (std::size_t begin = 0; begin < input.size();) {
    const std::size_t end = std::min(input.find('\n', begin), input.size());
    const std::string line = input.substr(begin, end - begin);
    const std::size_t equals = line.find('=');
    // A process's environment holds neither an empty name nor a NUL byte.
    if (equals != std::string::npos && equals > 0 && line.find('\0') == std::string::npos) {
      variables[line.substr(0, equals)] = line.substr(equals + 1);
    }
    begin = end + 1;
  }

  fuzz::read_or_refuse([&] {
    const train::LaunchEnvironment job = train::read_launch_environment([&](const char* name) -> const char* {
      const auto found = variables.find(name);
      return found == variables.end() ? nullptr : found->second.c_str();
    });
    fuzz::require_consistent(job.launcher == "none" || job.launcher == "torchrun" || job.launcher == "slurm", "an unknown launcher");
    fuzz::require_consistent(job.world_size >= 1 && job.world_size <= train::world_size_limit().most, "a world size out of range");
    fuzz::require_consistent(job.rank >= 0 && job.rank < job.world_size, "a rank outside the world");
    fuzz::require_consistent(job.local_rank >= 0 && job.local_rank < job.world_size, "a local rank outside the world");
    fuzz::require_consistent(job.local_world_size >= 1 && job.local_world_size <= job.world_size, "more local ranks than ranks");
    if (job.distributed()) {
      fuzz::require_consistent(!job.master_addr.empty(), "several ranks and no MASTER_ADDR");
      fuzz::require_consistent(job.master_port >= 1 && job.master_port <= 65535, "several ranks and a port outside [1, 65535]");
    }
  });

  // --shard reads the process's environment itself: its four variables set as the input says.
  for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_STEP"}) {
    const auto found = variables.find(name);
    if (found == variables.end()) {
      ::unsetenv(name);
    } else {
      ::setenv(name, found->second.c_str(), 1);
    }
  }
  const auto shard = variables.find("SHARD");
  fuzz::read_or_refuse([&] {
    const Shard s = parse_shard(shard == variables.end() ? std::string("slurm") : shard->second);
    fuzz::require_consistent(s.count >= 1 && s.index >= 0 && s.index < s.count, "a shard outside its count");
  });
  return 0;
}
