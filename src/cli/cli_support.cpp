#include "cli_support.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <unistd.h>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/solvers/solver_registry.hpp"
#include "geomsim/support/cpu_level.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/plain_text.hpp"

namespace geomsim::cli {

void add_device_option(CLI::App& c, std::string& device, bool& given) {
  c.add_option_function<std::string>(
      "--device",
      [&device, &given](const std::string& value) {
        device = value;
        given = true;
      },
      "where the network runs: auto (CUDA when this libtorch has it and a GPU is present, else the CPU; the default), "
      "cpu, cuda or cuda:N; recorded in the JSON (and in a checkpoint, where a resume on another kind of device needs "
      "it given)");
}

void add_device_options(CLI::App& c, std::string& device, bool& given, int64_t& sync_every) {
  add_device_option(c, device, given);
  c.add_option("--sync-every", sync_every,
               "read the step losses back from the device every this many steps (and at each epoch's end); 1 checks "
               "every loss before its update")
      ->capture_default_str()
      ->check(at_least(1));
}

std::string restarts_help() {
  return "restarts after the seeds, half fresh random starts, half perturbations of the best run (basin hopping); "
         "under rlbfgs (and auto) each runs to stationarity " + fixed(kRestartScreenTolerance, 1) +
         " and one that lowers the loss is finished to the seeds' tolerance; default: " +
         std::to_string(kSmallProblemRestarts) + " when N*d <= " + std::to_string(kSmallProblemVariables) +
         " (about a millisecond each), 0 beyond; 0: the paper's best of the seeds";
}

std::string format_duration(double seconds) {
  if (!(seconds >= 0.0)) seconds = 0.0;
  char text[64];
  if (seconds < 60.0) {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  } else if (seconds < 3600.0) {
    const long s = std::lround(seconds);
    std::snprintf(text, sizeof text, "%ld min %02ld s", s / 60, s % 60);
  } else {
    const long m = std::lround(seconds / 60.0);
    std::snprintf(text, sizeof text, "%ld h %02ld min", m / 60, m % 60);
  }
  return text;
}

std::string format_eta(double elapsed_seconds, std::size_t done, std::size_t total) {
  std::string out = format_duration(elapsed_seconds) + " elapsed";
  if (done > 0 && done < total) {
    out += ", ETA " + format_duration(elapsed_seconds / static_cast<double>(done) * static_cast<double>(total - done));
  }
  return out;
}

std::string fixed(double value, int digits) { return format_significant(value, digits); }

std::string help_command(const CLI::App& app) {
  std::string command = app.get_name().empty() ? std::string("geomsim") : app.get_name();
  const CLI::App* current = &app;
  while (true) {
    const auto parsed = current->get_subcommands();  // the ones given on the command line
    if (parsed.empty() || parsed.front()->get_group().empty()) return command;  // a hidden one has no help
    current = parsed.front();
    command += " " + current->get_name();
  }
}

int report_parse_error(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) {  // --help
    return app.exit(error);
  }
  std::string message = error.what();
  // CLI11 writes a validator's refusal as "--d: must be ..."; geomsim's sentences read "--d must be ...".
  if (dynamic_cast<const CLI::ValidationError*>(&error) != nullptr && message.rfind("--", 0) == 0) {
    const auto colon = message.find(": ");
    if (colon != std::string::npos && message.find(' ') == colon + 1) message.erase(colon, 1);
  }
  // CLI11 writes a value that does not convert as "Could not convert: --K = x"; geomsim's
  // sentences name the option and what it takes.
  const std::string prefix = "Could not convert: ";
  if (dynamic_cast<const CLI::ConversionError*>(&error) != nullptr && message.rfind(prefix, 0) == 0) {
    const auto equals = message.find(" = ", prefix.size());
    if (equals != std::string::npos) {
      const std::string name = message.substr(prefix.size(), equals - prefix.size());
      const std::string value = message.substr(equals + 3);
      const CLI::App* command = &app;
      for (auto parsed = app.get_subcommands(); !parsed.empty(); parsed = command->get_subcommands()) command = parsed.front();
      const CLI::Option* option = command->get_option_no_throw(name);
      const std::string type = option != nullptr ? option->get_type_name() : "";
      const std::string wanted = type == "INT"     ? "a whole number"
                                 : type == "UINT"  ? "a whole number >= 0"
                                 : type == "FLOAT" ? "a number"
                                                   : "a value it can read";
      message = name + " must be " + wanted + ", got '" + value + "'";
      // A list where one value is expected: say where lists go.
      if ((type == "INT" || type == "UINT" || type == "FLOAT") && value.find_first_of(",:") != std::string::npos) {
        message += " (one value here; lists such as '2:5' or '0.5:0.9:0.1' are for geomsim sweep and geomsim theory)";
      }
    }
  }
  // An option given twice: CLI11 says "--epochs: At Most 1 required but received 2".
  const std::string at_most = ": At Most 1 required but received ";
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&error) != nullptr && message.rfind("--", 0) == 0) {
    const auto at = message.find(at_most);
    if (at != std::string::npos) {
      message = message.substr(0, at) + " is given " + message.substr(at + at_most.size()) + " times; give it once";
    }
  }
  write_stderr("geomsim: error: " + message + "\nRun '" + help_command(app) + " --help' for the allowed arguments.\n");
  return 2;
}

int report_invalid_argument(const std::string& argument, const std::string& requirement, const std::string& command) {
  write_stderr("geomsim: error: --" + argument + " " + requirement + "\n" +
               (command.empty() ? std::string() : "Run '" + command + " --help' for the allowed arguments.\n"));
  return 2;
}

std::string version_text() {
  std::string kernels;
  try {
    kernels = cpu_level_description();
  } catch (const InvalidArgument& e) {
    kernels = std::string("none: ") + e.what();
  }
  return "geomsim 0.1.0\nkernels: " + kernels;
}

int report_refusal(const InvalidArgument& error, const std::string& command) {
  if (dynamic_cast<const InvalidEnvironment*>(&error) != nullptr) {
    write_stderr("geomsim: error: " + std::string(error.what()) + "\n");
    return 2;
  }
  return report_invalid_argument(error.argument(), error.requirement(), command);
}

void write_stderr(const std::string& text) {
  std::cerr.flush();
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // stderr is closed or full: nothing else can report it
    written += static_cast<std::size_t>(n);
  }
}

int report_computation_failed(const std::string& what) {
  write_stderr("geomsim: error: " + what + "\n");
  return 3;
}

int report_internal_error(const std::string& what) {
  write_stderr("geomsim: internal error: " + what + "\n");
  return 1;
}

void refuse_empty_values(CLI::App& app) {
  const CLI::Validator non_empty(
      [](std::string& value) { return value.empty() ? std::string("must not be an empty string") : std::string(); }, "");
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_size() != 0) option->check(non_empty);  // flags take no value
  }
  for (CLI::App* command : app.get_subcommands({})) refuse_empty_values(*command);
}

CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& value) {
        if (value.empty()) return std::string("must not be an empty string");
        const auto first = value.find_first_not_of(" \t");
        if (first != std::string::npos && value[first] == '-') return "must be a whole number >= 0, got " + value;
        return std::string();
      },
      "");
}

CLI::Validator at_least(long long lowest) {
  return CLI::Validator(
      [lowest](std::string& value) {
        if (value.empty()) return std::string("must not be an empty string");
        errno = 0;
        char* end = nullptr;
        const long long number = std::strtoll(value.c_str(), &end, 10);
        if (end == value.c_str() || *end != '\0' || errno == ERANGE) return "must be a whole number, got '" + value + "'";
        if (number < lowest) return "must be >= " + std::to_string(lowest) + ", got " + value;
        return std::string();
      },
      "");
}

CLI::Validator no_control_characters() {
  return CLI::Validator([](std::string& value) { return control_character_problem(value); }, "");
}

std::vector<NamedPath> stem_files(const std::string& argument, const std::string& stem,
                                  std::initializer_list<const char*> extensions) {
  std::vector<NamedPath> files;
  if (stem.empty()) return files;
  for (const char* extension : extensions) files.push_back({argument, stem + extension});
  return files;
}

}  // namespace geomsim::cli
