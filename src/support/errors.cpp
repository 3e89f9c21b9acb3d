#include "geomsim/support/errors.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <utility>

namespace geomsim {

InvalidArgument::InvalidArgument(std::string argument, std::string requirement)
    : std::invalid_argument(argument + " " + requirement),
      argument_(std::move(argument)),
      requirement_(std::move(requirement)) {}

InvalidArgument::InvalidArgument(std::string argument, std::string requirement, const std::string& message)
    : std::invalid_argument(message), argument_(std::move(argument)), requirement_(std::move(requirement)) {}

InvalidEnvironment::InvalidEnvironment(std::string variable, std::string requirement)
    : InvalidArgument(variable, requirement, "the environment variable " + variable + " " + requirement) {}

std::string format_significant(double value, int digits) {
  if (!std::isfinite(value)) throw std::logic_error("geomsim: refusing to print a non-finite result");
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*g", digits, value == 0.0 ? 0.0 : value);  // no "-0"
  return buffer;
}

std::string format_number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void require_finite(const char* name, double value) {
  if (!std::isfinite(value)) {
    throw InvalidArgument(name, "must be a finite number, got " + format_number(value));
  }
}

void require_in_closed_range(const char* name, double value, double lo, double hi) {
  if (!(value >= lo && value <= hi)) {  // also rejects nan
    throw InvalidArgument(name, "must be in [" + format_number(lo) + ", " + format_number(hi) +
                                    "], got " + format_number(value));
  }
}

void require_positive(const char* name, double value) {
  if (!(value > 0.0) || !std::isfinite(value)) {
    throw InvalidArgument(name, "must be a finite number > 0, got " + format_number(value));
  }
}

void require_non_negative(const char* name, double value) {
  if (!(value >= 0.0) || !std::isfinite(value)) {
    throw InvalidArgument(name, "must be a finite number >= 0, got " + format_number(value));
  }
}

void require_at_least(const char* name, std::int64_t value, std::int64_t lo) {
  if (value < lo) {
    throw InvalidArgument(name, "must be >= " + std::to_string(lo) + ", got " + std::to_string(value));
  }
}

}  // namespace geomsim
