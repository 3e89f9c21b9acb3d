#pragma once
// Helpers shared by the CLI's commands: list parsing, number formatting, errors, and the
// rules every command's options follow.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/number_lists.hpp"

namespace geomsim::cli {

// Formats a double with `digits` significant digits; never prints "nan": a
// non-finite value throws std::logic_error, because printing it would be a bug.
std::string fixed(double value, int digits = 10);

// What --version prints: the version and the CPU level of the run-time dispatched kernels
// (support/cpu_level.hpp), or why GEOMSIM_CPU is refused.
std::string version_text();

// Writes `text` to standard error in one write(2) call, so that the messages of several processes
// sharing one stderr (the ranks of --nproc-per-node) never interleave within a line (a pipe keeps
// writes of up to PIPE_BUF bytes whole; std::cerr is unbuffered and writes piece by piece).
void write_stderr(const std::string& text);
// "geomsim: error: <what>": a failed computation (exit status 3) or a bug (1, "internal error").
int report_computation_failed(const std::string& what);
int report_internal_error(const std::string& what);

// The command line whose --help describes what `app` parsed: "geomsim theory" when the theory
// subcommand was being parsed (or ran), "geomsim" for the main command.
std::string help_command(const CLI::App& app);

// Prints a CLI11 parse error the way geomsim reports bad input, followed by "Run '<help_command>
// --help' for the allowed arguments.", and returns the exit status: 0 for --help, 2 for
// everything else.
int report_parse_error(const CLI::App& app, const CLI::ParseError& error);

// Prints "geomsim: error: --<argument> <requirement>" and, when `command` is given, "Run
// '<command> --help' for the allowed arguments."; returns 2.
int report_invalid_argument(const std::string& argument, const std::string& requirement, const std::string& command = "");
// A refusal thrown as InvalidArgument, the one way every command reports it (exit 2): an
// InvalidEnvironment as "geomsim: error: the environment variable NAME must ..." (no "--", no
// --help hint), any other as report_invalid_argument with `command`'s hint.
int report_refusal(const InvalidArgument& error, const std::string& command);

// No option of `app` or of its subcommands accepts an empty value: CLI11 would turn
// "--alpha ''" into alpha = 0 and "--json ''" into "no file" without a word. Call it once,
// after every option is registered.
void refuse_empty_values(CLI::App& app);

// For unsigned options: CLI11 reads "-1" into a uint64_t as 2^64 - 1; this refuses the sign.
CLI::Validator non_negative_integer();
// For integer options with a lower bound that must hold when the option is given (where 0 or
// a missing value would otherwise mean "the default").
CLI::Validator at_least(long long lowest);
// For every output path that becomes a figure's file name (--out of plot, measure, report,
// experiment, lipschitz, train-sweep): refuses a control character (a line break would end
// gnuplot's `set output '...'` and run the rest as gnuplot code, support/plain_text.hpp) when
// the options are parsed, before anything runs: "--out must not hold control characters ...", exit 2.
CLI::Validator no_control_characters();

// --device (auto, cpu, cuda, cuda:N), for every command that runs a network; `given` is set when
// the user gave it (a resume may then change the kind of device).
void add_device_option(CLI::App& command, std::string& device, bool& given);
// ... and --sync-every, for the commands that train.
void add_device_options(CLI::App& command, std::string& device, bool& given, int64_t& sync_every);

// "12.3 s elapsed, ETA 45 s": the time left at the mean rate so far, for progress lines (no ETA
// before the first item is done).
std::string format_eta(double elapsed_seconds, std::size_t done, std::size_t total);
// "1 min 05 s", "2 h 03 min", "4.2 s": a duration for progress lines.
std::string format_duration(double seconds);

// The help of --restarts, for the main command and the sweep.
std::string restarts_help();

// The files an output stem names: {argument, STEM + extension} for each extension, for
// require_distinct_files.
std::vector<NamedPath> stem_files(const std::string& argument, const std::string& stem,
                                  std::initializer_list<const char*> extensions);

}  // namespace geomsim::cli
