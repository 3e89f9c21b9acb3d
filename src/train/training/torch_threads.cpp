#include "geomsim/train/training/torch_threads.hpp"

#include <sched.h>

#include <algorithm>
#include <string>
#include <thread>
#include <torch/torch.h>

#include "geomsim/support/errors.hpp"

namespace geomsim::train {

int available_cores() {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  return sched_getaffinity(0, sizeof allowed, &allowed) == 0 ? CPU_COUNT(&allowed)
                                                             : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

void set_torch_threads(int threads) {
  const int cores = available_cores();
  if (threads < 0 || threads > cores) {
    throw InvalidArgument("threads", "must be in [0, " + std::to_string(cores) + "] (0: all " + std::to_string(cores) +
                                         " cores this process may use), got " + std::to_string(threads));
  }
  torch::set_num_threads(threads > 0 ? threads : cores);
}

}  // namespace geomsim::train
