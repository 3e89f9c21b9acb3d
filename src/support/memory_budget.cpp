#include "geomsim/support/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {
// A number read from a one-line file ("max" or a missing file: none).
bool read_limit(const char* path, double& limit) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return false;
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (end == word.c_str() || !(value > 0)) return false;
  limit = value;
  return true;
}
}  // namespace

std::uint64_t available_memory_bytes() {
  double available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string line;
  while (std::getline(meminfo, line)) {
    std::istringstream fields(line);
    std::string key;
    double kilobytes = 0;
    if (fields >> key >> kilobytes && key == "MemAvailable:") available = kilobytes * 1024.0;
  }
  if (!(available > 0)) {
    const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (pages > 0 && page > 0) available = static_cast<double>(pages) * static_cast<double>(page);
  }
  double limit = 0;  // cgroup v2, then v1 (whose "no limit" is a huge number)
  if (read_limit("/sys/fs/cgroup/memory.max", limit) || read_limit("/sys/fs/cgroup/memory/memory.limit_in_bytes", limit)) {
    double used = 0;
    if (!read_limit("/sys/fs/cgroup/memory.current", used)) read_limit("/sys/fs/cgroup/memory/memory.usage_in_bytes", used);
    if (limit - used < available && limit < 1e18) available = std::max(0.0, limit - used);
  }
  return static_cast<std::uint64_t>(available);
}

std::string format_bytes(double bytes) {
  static const char* units[] = {"bytes", "kB", "MB", "GB", "TB", "PB", "EB"};
  int unit = 0;
  while (bytes >= 1000.0 && unit < 6) {
    bytes /= 1000.0;
    ++unit;
  }
  char text[64];
  if (unit == 6 && bytes >= 1000.0) {
    std::snprintf(text, sizeof text, "%.2g EB", bytes);
  } else {
    std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.3g %s", bytes, units[unit]);
  }
  return text;
}

void require_memory(const std::string& argument, double bytes, const std::string& what) {
  const double available = static_cast<double>(available_memory_bytes());
  if (!(bytes <= available)) {  // NaN refused too
    throw InvalidArgument(argument, "would need " + format_bytes(bytes) + " for " + what + ", more than the " +
                                        format_bytes(available) + " this machine has available");
  }
}

}  // namespace geomsim
