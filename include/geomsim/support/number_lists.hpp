#pragma once
// The list syntax every grid takes (CLI flags, sweeps, sims/ definitions).
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim {

// "0:4" (inclusive range), "0:10:2" (with step), "3", or comma-separated mixtures
// such as "0:4,10". Throws InvalidArgument(argument) on anything else.
std::vector<std::uint64_t> parse_seed_list(const std::string& text, const std::string& argument);
// Numbers for tables: "0.5", "0.1,0.5,2" or "lo:hi:step" (inclusive, e.g. "0.5:0.9:0.1"),
// and comma-separated mixtures. Every value must be finite. Throws InvalidArgument(argument).
std::vector<double> parse_number_list(const std::string& text, const std::string& argument);

// parse_number_list restricted to whole numbers in [lo, hi].
std::vector<int> parse_integer_list(const std::string& text, const std::string& argument, int lo, int hi);

// The inverse, compact: {0,1,2,3,4} -> "0:4".
std::string format_seed_list(const std::vector<std::uint64_t>& seeds);

}  // namespace geomsim
