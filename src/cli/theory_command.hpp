#pragma once
// `geomsim theory --tau T --d D [--alpha A] [--K 2]`: the constants and predictions of
// seed 004's Theorem 2 (K = 2) or of the general-K symmetric split, one row per (K, alpha, tau, d);
// every option takes a list (number_lists.hpp).
#include <CLI/CLI.hpp>
#include <string>

namespace geomsim::cli {

struct TheoryOptions {
  std::string tau = "0.5";
  std::string d = "3";
  std::string alpha;  // empty: no alpha (no theta* nor spread columns)
  std::string K = "2";
  std::string json_path;
  bool quiet = false;
};

void add_theory_options(CLI::App& command, TheoryOptions& options);
int run_theory(const TheoryOptions& options);

}  // namespace geomsim::cli
