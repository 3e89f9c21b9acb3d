#include "cli_support.hpp"

#include <cmath>
#include <cstdio>
#include <iostream>

#include "geomsim/support/errors.hpp"

namespace geomsim::cli {

std::string fixed(double value, int digits) {
  if (!std::isfinite(value)) throw std::logic_error("geomsim: refusing to print a non-finite result");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value);
  return buffer;
}

int report_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help
    return app.exit(error);
  }
  std::cerr << "geomsim: error: " << error.what() << "\nRun 'geomsim --help' for the allowed arguments.\n";
  return 2;
}

int report_invalid_argument(const std::string& argument, const std::string& requirement) {
  std::cerr << "geomsim: error: --" << argument << " " << requirement << "\n";
  return 2;
}

}  // namespace geomsim::cli
