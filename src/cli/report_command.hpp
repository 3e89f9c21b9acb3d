#pragma once
// `geomsim report`: runs every experiment definition in sims/ and regenerates
// notebooks-export/: per figure a markdown page with the PNG, the CSV, the command and the
// comparison with the paper, plus an index.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace geomsim::cli {

struct ReportOptions {
  std::string sims = "sims";
  std::string out = "notebooks-export";
  std::vector<std::string> only;  // definition names; empty: all
  bool smoke = false;             // each definition's tiny "smoke" grid (CI)
  std::string shard;              // empty: every run; else `geomsim experiment --shard` (training definitions only)
};

void add_report_options(CLI::App& command, ReportOptions& options);
int run_report(const ReportOptions& options);

}  // namespace geomsim::cli
