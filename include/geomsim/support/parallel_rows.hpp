#pragma once
// A loop over rows that uses the OpenMP threads only when it is long enough to pay for them.
//
// Below the threshold the loop never enters the OpenMP runtime. A parallel region cut to one
// thread by an `if` clause is not free: libgomp still sets up a team, and inside another
// parallel region (multi_start's concurrent seeds) each set-up touches counters shared by
// every thread. At N = 24 that made two concurrent seeds slower than one.
#include <Eigen/Core>

namespace geomsim {

// body(i) for i in [0, n): split statically across the threads when n >= parallel_from,
// otherwise in order on the calling thread. body must not depend on which thread runs it.
template <class Body>
void for_each_row(Eigen::Index n, Eigen::Index parallel_from, Body&& body) {
  if (n < parallel_from) {
    for (Eigen::Index i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for schedule(static)
  for (Eigen::Index i = 0; i < n; ++i) body(i);
}

}  // namespace geomsim
