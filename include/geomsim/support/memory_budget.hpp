#pragma once
// Size checked against memory before allocating: a request that cannot fit is refused
// with a sentence naming the argument and both sizes, instead of ending in
// std::bad_alloc or the kernel's OOM killer minutes later.
#include <cstdint>
#include <string>

namespace geomsim {

// The memory this process can still use, in bytes: MemAvailable of /proc/meminfo,
// lowered to the cgroup's memory limit when one is set (containers, CI runners).
std::uint64_t available_memory_bytes();

// "1.5 GB", "800 MB", "12 kB" (decimal units, 2 significant digits at least).
std::string format_bytes(double bytes);

// Throws InvalidArgument(argument, "would need <bytes> for <what>, more than the <available>
// this machine has available") when bytes exceeds available_memory_bytes(). `bytes` is a
// double so that estimates of absurd sizes (10^30) do not overflow before they are refused.
void require_memory(const std::string& argument, double bytes, const std::string& what);

}  // namespace geomsim
