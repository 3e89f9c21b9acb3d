#pragma once
// Helpers shared by the CLI's commands: list parsing, number formatting, errors.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "geomsim/support/number_lists.hpp"

namespace geomsim::cli {

// Formats a double with `digits` significant digits; never prints "nan": a
// non-finite value throws std::logic_error, because printing it would be a bug.
std::string fixed(double value, int digits = 10);

// Prints a CLI11 parse error the way geomsim reports bad input and returns the exit
// status: 0 for --help, 2 for everything else.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error);

// Prints "geomsim: error: --<argument> <requirement>" and returns 2.
int report_invalid_argument(const std::string& argument, const std::string& requirement);

}  // namespace geomsim::cli
