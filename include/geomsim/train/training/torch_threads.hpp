#pragma once
// libtorch's CPU threads for a run.

namespace geomsim::train {

// Sets libtorch's CPU threads: 0 means every core this process may use (its CPU affinity).
// Throws InvalidArgument("threads") outside [0, cores]: more threads than cores never speeds up
// this CPU work, and libtorch would start every one (--threads 100000 did not come back).
void set_torch_threads(int threads);

// The cores this process may use (its CPU affinity).
int available_cores();

}  // namespace geomsim::train
