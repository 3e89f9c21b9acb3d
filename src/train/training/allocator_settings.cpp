#include "geomsim/train/training/allocator_settings.hpp"

#include <cstdlib>  // defines __GLIBC__ under glibc (through <features.h>)

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace geomsim::train {

bool keep_freed_memory_for_tensors(const AllocatorSettings& settings) {
#if defined(__GLIBC__)
  // mallopt returns 1 on success. Setting M_MMAP_THRESHOLD also turns off glibc's dynamic
  // threshold, which would otherwise stop at 32 MiB.
  const bool mmap = mallopt(M_MMAP_THRESHOLD, settings.mmap_threshold) == 1;
  const bool trim = mallopt(M_TRIM_THRESHOLD, settings.trim_threshold) == 1;
  const bool pad = mallopt(M_TOP_PAD, settings.top_pad) == 1;
  return mmap && trim && pad;
#else
  (void)settings;
  return false;
#endif
}

}  // namespace geomsim::train
