#pragma once
// The dot product of two columns of length n, with eight partial sums. Internal header.
//
// Why not a plain loop: without -ffast-math the compiler keeps a sum's order, so a plain loop
// is one chain of dependent additions, one per element (4 cycles each on x86-64): for the
// d = 128 columns of the solvers' passes, about 500 cycles a column where the loads need 64.
// Eight partial sums, added in a fixed order at the end, give the compiler four independent
// vector chains at any level (SSE2 to AVX-512), and the result is the same for a given n at
// any thread count (each column's sum has one order).
#include "geomsim/manifold/sphere.hpp"

namespace geomsim::detail {

inline double column_dot(const double* a, const double* b, Index n) {
  double acc[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  Index i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) acc[j] += a[i + j] * b[i + j];
  }
  double sum = ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]));
  for (; i < n; ++i) sum += a[i] * b[i];
  return sum;
}

}  // namespace geomsim::detail
