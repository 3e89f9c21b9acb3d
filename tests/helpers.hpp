#pragma once
// Point sets with known geometry, and a thread-count switch, shared by the tests.
#include <omp.h>

#include <cmath>

#include "geomsim/manifold/sphere.hpp"

namespace geomsim::testing {

// seed 004's mu_theta for K = 2 (Theorem 2): class y sits at +-v rotated by +-theta
// towards w, a direction orthogonal to the simplex span; half of each class at each
// atom. Here v = e_1, w = e_2 (d >= 2), so class 0 = (cos t, +-sin t), class 1 =
// (-cos t, +-sin t). Each class's spread is exactly sin(theta).
inline PointSet mu_theta(int ny, int d, double theta) {
  PointSet set;
  set.labels = balanced_labels(2, ny);
  set.points = Matrix::Zero(d, 2 * ny);
  for (int i = 0; i < 2 * ny; ++i) {
    const double sign_v = set.labels[static_cast<std::size_t>(i)] == 0 ? 1.0 : -1.0;
    const double sign_w = (i % ny) < ny / 2 ? 1.0 : -1.0;
    set.points(0, i) = sign_v * std::cos(theta);
    set.points(1, i) = sign_w * std::sin(theta);
  }
  return set;
}

// Runs f() with OpenMP limited to `threads` and returns its result, restoring the previous
// limit afterwards (also when f throws): for checks that results are bitwise the same for
// any number of threads.
template <class F>
auto with_threads(int threads, F&& f) {
  struct Restore {
    int saved;
    ~Restore() { omp_set_num_threads(saved); }
  } restore{omp_get_max_threads()};
  omp_set_num_threads(threads);
  return f();
}

}  // namespace geomsim::testing
