#pragma once
// libtorch's intra-op thread count set for a scope and restored at its end, also when the scope
// is left by an exception: for tests that compare results bit for bit, which must not depend on
// a kernel's summation order (the torch counterpart of testing::with_threads, tests/helpers.hpp).
#include <torch/torch.h>

namespace geomsim::train::testing {

class ScopedTorchThreads {
 public:
  explicit ScopedTorchThreads(int threads) : saved_(torch::get_num_threads()) { torch::set_num_threads(threads); }
  ~ScopedTorchThreads() { torch::set_num_threads(saved_); }
  ScopedTorchThreads(const ScopedTorchThreads&) = delete;
  ScopedTorchThreads& operator=(const ScopedTorchThreads&) = delete;

 private:
  int saved_;
};

}  // namespace geomsim::train::testing
