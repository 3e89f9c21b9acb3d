#pragma once
// Input validation shared by the library and the CLI.
//
// Every public entry point validates its arguments and throws InvalidArgument, which
// names the argument (with the spelling the CLI uses for its flag) and the allowed
// range. The CLI turns it into "error: --alpha must be in [0, 1], got 1.5", exit 2.
// An environment variable is refused with InvalidEnvironment, which the CLI words as
// "error: the environment variable WORLD_SIZE must be ...": no "--", and no --help hint.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace geomsim {

class InvalidArgument : public std::invalid_argument {
 public:
  // `argument` is the parameter's name ("alpha", "tau", "ny", ...); `requirement`
  // completes the sentence "<argument> ...", e.g. "must be in [0, 1], got 1.5".
  InvalidArgument(std::string argument, std::string requirement);
  const std::string& argument() const noexcept { return argument_; }
  const std::string& requirement() const noexcept { return requirement_; }

 protected:
  // For subclasses that word the sentence themselves: what() is `message`.
  InvalidArgument(std::string argument, std::string requirement, const std::string& message);

 private:
  std::string argument_;
  std::string requirement_;
};

// An environment variable that is missing or does not fit (WORLD_SIZE, SLURM_ARRAY_TASK_ID, ...):
// the one way geomsim refuses one. argument() is the variable's name, requirement() completes
// the sentence, and what() is "the environment variable <name> <requirement>". The CLI prints
// that, exit 2, without the "Run '... --help'" hint (--help describes options, not variables).
class InvalidEnvironment : public InvalidArgument {
 public:
  InvalidEnvironment(std::string variable, std::string requirement);
};

// A computation on valid input that could not finish (a training run whose loss became
// non-finite). The CLI prints "geomsim: error: <what>" and exits 3, apart from the input
// errors' 2, and leaves every output file as it was.
class ComputationFailed : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Formats a double for messages: shortest round-trip form ("0.5", "nan", "inf").
std::string format_number(double value);
// `value` with `digits` significant digits (printf's %.*g; never "-0"), for printed results.
// Throws std::logic_error for a non-finite value: a result is checked before it is printed.
std::string format_significant(double value, int digits);

void require_finite(const char* name, double value);
// value in [lo, hi] and finite.
void require_in_closed_range(const char* name, double value, double lo, double hi);
// value > 0 and finite.
void require_positive(const char* name, double value);
// value >= 0 and finite.
void require_non_negative(const char* name, double value);
// value >= lo.
void require_at_least(const char* name, std::int64_t value, std::int64_t lo);

}  // namespace geomsim
