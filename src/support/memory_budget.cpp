#include "geomsim/support/memory_budget.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {
// cgroup v1 writes "no limit" as a huge number (2^63 rounded down to a page): none beyond this.
constexpr double kNoLimitFrom = 1e18;

// A number read from a one-line file ("max", a missing file or a limit beyond kNoLimitFrom: none).
bool read_number(const std::string& path, double& number) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word == "max") return false;
  char* end = nullptr;
  const double value = std::strtod(word.c_str(), &end);
  if (end == word.c_str() || !(value >= 0) || !(value < kNoLimitFrom)) return false;
  number = value;
  return true;
}

// The cgroup folders from the process's own up to the hierarchy's root: "/a/b" gives
// ROOT/a/b, ROOT/a, ROOT.
std::vector<std::string> folders_up(const std::string& mount, std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path.back() == '/') path.pop_back();
  while (true) {
    out.push_back(mount + path);
    if (path.empty()) break;
    const auto slash = path.rfind('/');
    path = slash == std::string::npos ? std::string() : path.substr(0, slash);
  }
  return out;
}
}  // namespace

std::optional<double> cgroup_memory_headroom(const std::string& proc_self_cgroup, const std::string& cgroup_root) {
  // The process's cgroup in each hierarchy: "0::/PATH" (v2, the unified one) and
  // "N:CONTROLLERS:/PATH" with memory among the controllers (v1). The v1 memory controller,
  // where there is one, holds the limit (a hybrid system mounts both).
  std::string v1_path, v2_path;
  bool v1 = false, v2 = false;
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  while (std::getline(lines, line)) {
    const auto first = line.find(':');
    const auto second = first == std::string::npos ? std::string::npos : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string id = line.substr(0, first), controllers = line.substr(first + 1, second - first - 1);
    const std::string path = line.substr(second + 1);
    if (id == "0" && controllers.empty()) {
      v2 = true, v2_path = path;
      continue;
    }
    std::istringstream names(controllers);
    std::string name;
    while (std::getline(names, name, ',')) {
      if (name == "memory") v1 = true, v1_path = path;
    }
  }
  // Without a line (no /proc/self/cgroup), the hierarchies' roots as before: v2, then v1.
  const bool none = !v1 && !v2;
  struct Hierarchy {
    std::string mount, limit_file, usage_file, path;
  };
  std::vector<Hierarchy> hierarchies;
  if (v1 || none) hierarchies.push_back({cgroup_root + "/memory", "/memory.limit_in_bytes", "/memory.usage_in_bytes", v1_path});
  if (v2 || none) hierarchies.push_back({cgroup_root, "/memory.max", "/memory.current", v2_path});
  if (none) std::reverse(hierarchies.begin(), hierarchies.end());
  for (const auto& h : hierarchies) {
    // Every cgroup from the process's own to the root binds: the headroom is the smallest
    // limit - usage among those with a limit. A folder missing (a container sees its own
    // cgroup as the root) or without a limit is skipped; a usage that cannot be read is at
    // least the one read below it (a cgroup's usage holds its children's).
    std::optional<double> headroom;
    double used_below = 0;
    for (const auto& folder : folders_up(h.mount, h.path)) {
      double limit = 0, used = used_below;
      if (read_number(folder + h.usage_file, used)) used = std::max(used, used_below);
      used_below = used;
      if (!read_number(folder + h.limit_file, limit)) continue;
      const double left = std::max(0.0, limit - used);
      headroom = headroom ? std::min(*headroom, left) : left;
    }
    if (headroom) return headroom;
  }
  return std::nullopt;
}

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
  std::ifstream cgroup_file("/proc/self/cgroup");
  std::stringstream cgroup;
  cgroup << cgroup_file.rdbuf();
  if (const auto headroom = cgroup_memory_headroom(cgroup.str(), "/sys/fs/cgroup"); headroom && *headroom < available) {
    available = *headroom;
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
