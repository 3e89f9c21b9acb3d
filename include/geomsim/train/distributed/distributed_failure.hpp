#pragma once
// The error of a data-parallel job that could not go on: a collective or the rendezvous failed
// (another rank exited, was killed or stopped answering), or a local rank could not be started.
// A ComputationFailed: the CLI reports it and exits 3, as for any computation that failed on
// valid input. No libtorch here, so that the launcher does not need it.
#include "geomsim/support/errors.hpp"

namespace geomsim::train {

class DistributedFailure : public ComputationFailed {
 public:
  using ComputationFailed::ComputationFailed;
};

}  // namespace geomsim::train
