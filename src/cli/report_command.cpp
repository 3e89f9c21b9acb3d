#include "report_command.hpp"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <functional>
#include <filesystem>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "geomsim/experiments/shard.hpp"
#include "geomsim/experiments/sim_kinds.hpp"
#include "geomsim/figures/sim_figures.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/fnv1a_hash.hpp"
#include "geomsim/support/input_files.hpp"
#include "geomsim/support/output_folder.hpp"
#include "geomsim/support/json_input.hpp"
#include "training_program.hpp"

namespace geomsim::cli {
namespace {
std::string training_kind_list() {
  std::string list;
  for (const auto& kind : training_experiment_kinds()) list += (list.empty() ? "" : ", ") + std::string(kind.name);
  return list;
}

std::string simulation_kind_list() {
  std::string list;
  for (const auto& kind : simulation_kinds()) list += (list.empty() ? "" : ", ") + kind.name;
  return list;
}
}  // namespace

void add_report_options(CLI::App& command, ReportOptions& o) {
  command.add_option("--sims", o.sims, "folder of experiment definitions (*.json)")->capture_default_str();
  command.add_option("--out", o.out, "folder for the report (created if missing)")->capture_default_str()->check(no_control_characters());
  command.add_option("--only", o.only, "run only these definitions (by name)");
  command.add_flag("--smoke", o.smoke, "use each definition's tiny smoke grid (seconds; for CI)");
  command.add_option("--shard", o.shard,
                     "train only shard i/n of each training definition's runs (or slurm: this job array task's), writing no "
                     "page: a job array's tasks share the cache, and a report without --shard writes the pages");
  command.footer(
      "Simulation kinds (" + simulation_kind_list() + ") run here. Training kinds (" + training_kind_list() +
      ") run in geomsim-torch (`geomsim experiment`), which caches every finished run in OUT/NAME.csv: a rerun trains "
      "only the runs missing there. Without the training module they are skipped, with a note.\n"
      "Progress: on a terminal, the points of the running definition (done/total, elapsed, ETA) on stderr; elsewhere one "
      "line per definition. An interrupted report resumes: each definition's files land together when it finishes "
      "(recorded in OUT/.geomsim-report-progress.json), and the grid kinds keep their finished points in "
      "OUT/NAME.partial.csv; the next report into OUT keeps the pages of the definitions finished and unchanged since "
      "(their files there as they were written), "
      "and solves only the missing points. A report that ran to its end leaves neither file: a rerun runs every "
      "definition again (reading the points NAME.csv holds with the same settings).");
}

namespace {
namespace fs = std::filesystem;
using nlohmann::json;

// The record of a report in progress, OUT/.geomsim-report-progress.json: the definitions it has
// finished (their pages and files landed), each with a digest of the definition it ran and its
// seconds. A report that is interrupted leaves it; the next report into OUT with the same --smoke
// keeps the pages of the definitions recorded there whose definition is unchanged, instead of
// running them again, and removes the record once every definition it was asked for has finished.
// A report that ran to its end leaves no record, so a plain rerun regenerates everything.
std::string progress_record_path(const ReportOptions& o) { return (fs::path(o.out) / ".geomsim-report-progress.json").string(); }

// FNV-1a over every field of the definition: which definition (and which version of it) a page came from.
std::string definition_digest(const SimDefinition& d) {
  std::uint64_t h = kFnv1aOffsetBasis;
  for (const std::string* field : {&d.name, &d.title, &d.kind, &d.paper, &d.notes, &d.parameters_json, &d.smoke_json}) {
    h = fnv1a_update(h, *field + '\x1f');
  }
  return fnv1a_hex(h);
}

// The record's finished definitions when it exists and was written for this --smoke; else none. A
// damaged record only costs the definitions being run again.
json read_progress_record(const ReportOptions& o) {
  std::error_code ec;
  if (!fs::is_regular_file(progress_record_path(o), ec)) return json::object();
  try {
    const json record = read_json_file(progress_record_path(o), "out", std::uint64_t{1} << 20, "report progress record");
    if (record.is_object() && record.value("smoke", !o.smoke) == o.smoke && record.contains("finished") &&
        record.at("finished").is_object()) {
      return record.at("finished");
    }
  } catch (const InvalidArgument&) {
  }
  return json::object();
}

// The regular files of OUT, each with what tells a file written again from one left as it was
// (every output lands by a rename: a new inode), to see which files a definition wrote.
std::map<std::string, std::string> output_files(const ReportOptions& o) {
  std::map<std::string, std::string> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(o.out, ec)) {
    struct stat info {};
    if (!entry.is_regular_file(ec) || ::stat(entry.path().c_str(), &info) != 0) continue;
    files[entry.path().filename().string()] = std::to_string(info.st_ino) + ":" + std::to_string(info.st_size) + ":" +
                                              std::to_string(info.st_mtim.tv_sec) + "." + std::to_string(info.st_mtim.tv_nsec);
  }
  return files;
}

// A finished definition's entry in the progress record: its definition's digest, its seconds, and
// the fingerprint (file_fingerprint) of every file of OUT it wrote (new or written again since
// `before`), so that a resumed report keeps its page only while those files are there and whole.
json finished_entry(const ReportOptions& o, const std::string& digest, double seconds, const std::map<std::string, std::string>& before) {
  json files = json::object();
  for (const auto& [name, identity] : output_files(o)) {
    const auto was = before.find(name);
    if (was != before.end() && was->second == identity) continue;
    if (name == fs::path(progress_record_path(o)).filename().string()) continue;
    files[name] = file_fingerprint((fs::path(o.out) / name).string(), "out");
  }
  return {{"definition", digest}, {"seconds", seconds}, {"files", files}};
}

// Whether the progress record's entry for a definition (finished by an interrupted report) still
// stands for its page: the same definition, and every file it wrote there, with the contents it
// had (a figure removed or cut short since makes the definition run again).
bool still_finished(const ReportOptions& o, const json& entry, const std::string& digest) {
  if (!entry.is_object() || entry.value("definition", "") != digest || !entry.contains("files") || !entry.at("files").is_object() ||
      entry.at("files").empty()) {
    return false;
  }
  for (const auto& [name, fingerprint] : entry.at("files").items()) {
    try {
      if (name.find('/') != std::string::npos || file_fingerprint((fs::path(o.out) / name).string(), "out") != fingerprint) return false;
    } catch (const InvalidArgument&) {  // gone, or no longer a regular file
      return false;
    }
  }
  return true;
}

void write_progress_record(const ReportOptions& o, const json& finished) {
  OutputTransaction out;
  out.stage(progress_record_path(o), json{{"smoke", o.smoke}, {"finished", finished}}.dump(2) + "\n", "out");
  out.commit();
}

// Progress within a definition: on a terminal one line rewritten in place (points done/total,
// elapsed, ETA at the rate of the points solved so far); elsewhere nothing (the caller writes one
// line per definition).
class PointProgress {
 public:
  PointProgress(std::string label, bool terminal) : label_(std::move(label)), terminal_(terminal) {}
  void operator()(std::size_t done, std::size_t total) {
    if (!started_) {
      started_ = true;
      resumed_ = done;
      start_ = std::chrono::steady_clock::now();
    }
    if (!terminal_) return;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    std::string line = "\r" + label_ + " " + std::to_string(done) + "/" + std::to_string(total) + " points, " +
                       format_duration(elapsed) + " elapsed";
    if (done > resumed_ && done < total) {
      line += ", ETA " + format_duration(elapsed / static_cast<double>(done - resumed_) * static_cast<double>(total - done));
    }
    write_stderr(line + "     ");
    drawn_ = true;
  }
  // " (resumed: 5 of 40 points were in NAME.csv or NAME.partial.csv)" when they held some.
  // From the definition's result: its points read from cache_files or the checkpoint (a page of
  // the paper's method reads its second solve's after the first is done, so the first progress
  // call does not count them all).
  std::string resumed_note(const std::string& name, const SimData& result) const {
    if (result.cached_points == 0) return "";
    return " (resumed: " + std::to_string(result.cached_points) + " of " + std::to_string(result.sweep_points) + " points were in " +
           result.cache_files + " or " + name + ".partial.csv)";
  }
  bool drawn() const { return drawn_; }

 private:
  std::string label_;
  bool terminal_;
  bool started_ = false, drawn_ = false;
  std::size_t resumed_ = 0;
  std::chrono::steady_clock::time_point start_;
};

// Runs every definition: the simulation kinds here, each one's files (NAME.csv, .png, .svg, .gp
// and NAME.md) landing together when it has finished, so a failing definition leaves none of
// its files behind (only its checkpoint of finished points, NAME.partial.csv, for the next run);
// the training kinds in geomsim-torch (`geomsim experiment`), which writes their cache as it goes
// and their page at the end. Each finished definition is recorded (progress_record_path) so that
// an interrupted report resumes. Returns the exit status: 0, or a failed training definition's
// (2 for bad input, else 1).
int write_report(const ReportOptions& o, const std::vector<SimDefinition>& definitions) {
  const auto start = std::chrono::steady_clock::now();
  const bool terminal = isatty(fileno(stderr)) != 0;
  std::ostringstream index;
  index << "# geomsim: reproduction report\n\n"
        << "Generated by `geomsim report --sims " << o.sims << " --out " << o.out << (o.smoke ? " --smoke" : "")
        << "` from the definitions in `" << o.sims << "/`" << (o.smoke ? " (smoke grids: not the real figures)" : "")
        << ", on " << omp_get_max_threads() << " threads. Training kinds run in geomsim-torch; their pages give the "
           "training time of every run they hold (runs cached in NAME.csv are not trained again, so the seconds here "
           "count only what this regeneration trained); likewise a sweep's points already in NAME.csv with the same "
           "settings are not solved again.\n\n| page | kind | seconds |\n|---|---|---|\n";
  std::error_code ec;
  json finished = read_progress_record(o);
  for (const auto& def : definitions) {
    const std::string digest = definition_digest(def);
    // Finished by an interrupted report: its page is kept when the definition is unchanged and its
    // files are there as they were written.
    if (finished.contains(def.name) && still_finished(o, finished.at(def.name), digest)) {
      const double seconds = finished.at(def.name).value("seconds", 0.0);
      std::cerr << "geomsim report: " << def.name << " (" << def.kind << ") kept: finished by the interrupted report ("
                << progress_record_path(o) << ")\n";
      index << "| [" << def.title << "](" << def.name << ".md) | " << def.kind << " | " << fixed(seconds, 3) << " |\n";
      continue;
    }
    if (is_training_experiment_kind(def.kind)) {
      const std::string page_link = "[" + def.title + "](" + def.name + ".md)";
      if (!has_training_program()) {
        std::cerr << "geomsim report: " << def.name << " (" << def.kind << ") skipped: it trains, and this build has no "
                  << "training module (geomsim-torch; it is built when CMake finds libtorch)\n";
        const bool page_exists = fs::exists(fs::path(o.out) / (def.name + ".md"), ec);
        index << "| " << (page_exists ? page_link : def.title) << " | " << def.kind
              << " | skipped: needs the training module |\n";
        continue;
      }
      std::cerr << "geomsim report: " << def.name << " (" << def.kind << ", training) ...\n" << std::flush;
      const auto started = std::chrono::steady_clock::now();
      const auto before = output_files(o);
      std::vector<std::string> arguments = {"experiment", "--definition", def.path, "--out", o.out};
      if (o.smoke) arguments.emplace_back("--smoke");
      if (!o.shard.empty()) arguments.insert(arguments.end(), {"--shard", o.shard});
      const int status = run_training_program_and_wait(arguments, "definition " + def.name);
      if (status != 0) {
        std::cerr << "geomsim: error: definition " << def.name << " (" << def.path << ") failed with exit status " << status
                  << "; its page was not written (finished runs stay cached in its CSV)\n";
        return status == 2 ? 2 : 1;
      }
      const double child_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "geomsim report: " << def.name << " " << fixed(child_seconds, 3) << " s\n";
      index << "| " << page_link << " | " << def.kind << " | " << fixed(child_seconds, 3) << " |\n";
      if (o.shard.empty()) {  // a shard writes no page: nothing to keep
        finished[def.name] = finished_entry(o, digest, child_seconds, before);
        write_progress_record(o, finished);
      }
      continue;
    }
    const std::string label = "geomsim report: " + def.name + " (" + def.kind + ")";
    if (!terminal) std::cerr << label << " ..." << std::flush;
    const auto before = output_files(o);
    OutputTransaction outputs;
    PointProgress progress(label, terminal);
    const auto started = std::chrono::steady_clock::now();
    SimData result;
    std::string markdown;
    try {
      result = run_sim(def, o.out, o.smoke, outputs, std::ref(progress));  // the solves and NAME.csv
      markdown = draw_sim(def, result, o.out, outputs);                    // the figure and the page's section
    } catch (...) {
      if (progress.drawn()) write_stderr("\n");  // the error below starts a line of its own
      throw;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    const std::string checkpoint = sim_checkpoint_path(o.out, def);
    std::ostringstream page;
    page << "# " << def.title << "\n\n"
         << "Definition: [`" << def.path << "`](../" << def.path << ") · regenerate with `geomsim report --sims " << o.sims
         << " --out " << o.out << " --only " << def.name << (o.smoke ? " --smoke" : "") << "` (" << fixed(seconds, 3)
         << " s" << (result.cached_points > 0 ? ", with " + std::to_string(result.cached_points) + " of its " +
                                                   std::to_string(result.sweep_points) + " points read from " + result.cache_files +
                                                   " or its checkpoint " + def.name + ".partial.csv; delete them to solve them again"
                                             : std::string())
         << ")\n\n";
    if (!def.paper.empty()) page << "**The paper.** " << def.paper << "\n\n";
    page << "**Measured.**\n\n" << markdown << "\n";
    if (!def.notes.empty() && !o.smoke) page << "**Comparison.** " << def.notes << "\n";
    outputs.stage((fs::path(o.out) / (def.name + ".md")).string(), page.str(), "out");
    outputs.commit();
    fs::remove(checkpoint, ec);  // NAME.csv holds every point now
    finished[def.name] = finished_entry(o, digest, seconds, before);
    write_progress_record(o, finished);
    const std::string summary = " " + fixed(seconds, 3) + " s" + progress.resumed_note(def.name, result);
    if (terminal) {
      write_stderr("\r" + label + summary + std::string(progress.drawn() ? 40 : 0, ' ') + "\n");
    } else {
      std::cerr << summary << "\n";
    }
    index << "| [" << def.title << "](" << def.name << ".md) | " << def.kind << " | " << fixed(seconds, 3)
          << " |\n";
  }
  // Every definition asked for has finished: nothing is left to resume (a shard leaves the record be).
  if (o.shard.empty()) fs::remove(progress_record_path(o), ec);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  index << "\nWall time of the whole regeneration: " << fixed(seconds, 3) << " s.\n";
  // The index lists every figure: a partial run (--only, --shard) leaves it as it is.
  if (o.only.empty() && o.shard.empty()) {
    OutputTransaction out;
    out.stage((fs::path(o.out) / "README.md").string(), index.str(), "out");
    out.commit();
  }
  std::cout << "geomsim report: " << definitions.size() << " figures in " << fixed(seconds, 3) << " s, written to " << o.out
            << "\n";
  return 0;
}

}  // namespace

int run_report(const ReportOptions& o) {
  std::error_code ec;
  if (!fs::is_directory(o.sims, ec)) throw InvalidArgument("sims", "must be a folder of *.json definitions, got " + o.sims);
  // The report writes NAME.md/.csv/.png/.svg/.gp and README.md into --out: never into the definitions' folder.
  require_distinct_files({{"sims", o.sims}, {"out", o.out}});
  std::vector<std::string> paths;
  for (const auto& entry : fs::directory_iterator(o.sims)) {
    if (entry.path().extension() == ".json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> training_kinds;
  for (const auto& kind : training_experiment_kinds()) training_kinds.emplace_back(kind.name);
  std::vector<SimDefinition> definitions;
  // Every file a definition writes into --out is named for it (NAME.md, NAME.csv, its figure's
  // NAME.png ...): two definitions of one name, or of names that differ only in case (one file on a
  // case-insensitive file system), would overwrite each other's. Refused, naming both files, before
  // anything runs, whichever of them --only picks.
  std::map<std::string, std::pair<std::string, std::string>> named;  // the name in lower case -> the first (file, name)
  for (const auto& path : paths) {
    SimDefinition def = load_sim_definition(path, training_kinds);
    std::string lower = def.name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto [first, fresh] = named.emplace(lower, std::make_pair(path, def.name));
    if (!fresh) {
      const auto& [first_path, first_name] = first->second;
      throw InvalidArgument("sims", "holds two definitions with one \"name\": " + first_path + " (\"" + first_name + "\") and " +
                                        path + " (\"" + def.name + "\")" +
                                        (first_name == def.name ? std::string() : ", one name on a case-insensitive file system") +
                                        "; a definition's name is the stem of every file it writes (NAME.md, NAME.csv, its "
                                        "figures), so one would overwrite the other's: rename one");
    }
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), def.name) != o.only.end()) definitions.push_back(def);
  }
  // A definition that measures another's models (its parameters name a "source") runs after
  // the others, so that the source's runs and kept checkpoints exist by then.
  std::stable_partition(definitions.begin(), definitions.end(), [](const SimDefinition& d) {
    const auto parameters = nlohmann::json::parse(d.parameters_json, nullptr, false);
    return !(parameters.is_object() && parameters.contains("source"));
  });
  for (const auto& name : o.only) {
    if (std::none_of(definitions.begin(), definitions.end(), [&](const SimDefinition& d) { return d.name == name; })) {
      throw InvalidArgument("only", "names no definition in " + o.sims + ": " + name);
    }
  }
  if (definitions.empty()) throw InvalidArgument("sims", "holds no *.json definitions: " + o.sims);
  if (!o.shard.empty()) {
    (void)parse_shard(o.shard);  // refused here, before any definition runs
    for (const auto& def : definitions) {
      if (!is_training_experiment_kind(def.kind)) {
        throw InvalidArgument("shard", "splits the runs of training definitions; " + def.name + " is a simulation (" + def.kind +
                                           "): leave it out with --only, or run the report without --shard");
      }
    }
  }
  OutputFolder folder(o.out, "out");  // removed again when the run fails before anything lands in it
  require_writable_path((fs::path(o.out) / "README.md").string(), "out");
  const int status = write_report(o, definitions);
  if (status == 0) folder.keep();
  return status;
}

}  // namespace geomsim::cli
