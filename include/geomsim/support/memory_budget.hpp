#pragma once
// Size checked against memory before allocating: a request that cannot fit is refused
// with a sentence naming the argument and both sizes, instead of ending in
// std::bad_alloc or the kernel's OOM killer minutes later.
#include <cstdint>
#include <optional>
#include <string>

namespace geomsim {

// The memory this process can still use, in bytes: MemAvailable of /proc/meminfo, lowered to
// what the process's own cgroup and its parents leave (cgroup_memory_headroom of
// /proc/self/cgroup and /sys/fs/cgroup): containers, CI runners, Slurm jobs, systemd units.
std::uint64_t available_memory_bytes();

// What the cgroups leave a process whose /proc/self/cgroup reads `proc_self_cgroup`, with the
// cgroup file systems mounted at `cgroup_root` (/sys/fs/cgroup; a folder of fakes in tests).
// cgroup v2 ("0::/PATH"): ROOT/PATH/memory.max and memory.current; v1 (a line whose controllers
// include memory, "N:memory:/PATH"): ROOT/memory/PATH/memory.limit_in_bytes and
// memory.usage_in_bytes. Each cgroup from PATH up to the root binds (a Slurm job's limit is often
// on a parent of the step's cgroup), so the headroom is the smallest limit - usage among them;
// folders or files that are missing, "max" and v1's huge "no limit" count as no limit. None when
// no cgroup on the way has a limit (or `proc_self_cgroup` names none and the roots have none).
std::optional<double> cgroup_memory_headroom(const std::string& proc_self_cgroup, const std::string& cgroup_root);

// "1.5 GB", "800 MB", "12 kB" (decimal units, 2 significant digits at least).
std::string format_bytes(double bytes);

// Throws InvalidArgument(argument, "would need <bytes> for <what>, more than the <available>
// this machine has available") when bytes exceeds available_memory_bytes(). `bytes` is a
// double so that estimates of absurd sizes (10^30) do not overflow before they are refused.
void require_memory(const std::string& argument, double bytes, const std::string& what);

}  // namespace geomsim
