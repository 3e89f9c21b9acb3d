#pragma once
// glibc's malloc, tuned for a program that allocates and frees tensors of tens of megabytes
// many times a second (geomsim-torch). By default glibc serves every block above its mmap
// threshold (128 KiB, raised dynamically up to 32 MiB) with a fresh mmap and unmaps it on free,
// and returns the top of the heap to the kernel beyond 128 KiB; a training step's activations
// (a CNN's first layer at batch 512 is 51 MB) are then faulted in page by page on every step:
// 2.3 million minor page faults and most of the kernel time of a short `geomsim train`.
// With these settings freed blocks stay in the process for the next step, so the resident
// size stays at the peak of the run rather than falling between steps.
namespace geomsim::train {

struct AllocatorSettings {
  int mmap_threshold = 1 << 30;  // serve blocks up to 1 GiB from the heap, not from mmap
  int trim_threshold = 1 << 30;  // keep up to 1 GiB of freed memory at the heap's top
  int top_pad = 64 << 20;        // grow the heap 64 MiB at a time
};

// Applies the settings (mallopt) at the start of a program, before it allocates tensors.
// Returns false where the C library is not glibc (nothing is changed) or refuses a setting.
bool keep_freed_memory_for_tensors(const AllocatorSettings& settings = {});

}  // namespace geomsim::train
