#pragma once
// Helpers shared by the CLI's commands: list parsing, number formatting, errors.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace geomsim::cli {

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

// Formats a double with `digits` significant digits; never prints "nan": a
// non-finite value throws std::logic_error, because printing it would be a bug.
std::string fixed(double value, int digits = 10);

// Prints a CLI11 parse error the way geomsim reports bad input and returns the exit
// status: 0 for --help, 2 for everything else.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error);

// Prints "geomsim: error: --<argument> <requirement>" and returns 2.
int report_invalid_argument(const std::string& argument, const std::string& requirement);

}  // namespace geomsim::cli
