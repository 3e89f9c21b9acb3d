#pragma once
// `geomsim theory --tau T --d D [--alpha A] [--K 2]`: the constants and predictions of
// seed 004's Theorem 2 (K = 2) or of the general-K symmetric split for each (tau, d).
#include <CLI/CLI.hpp>
#include <string>

namespace geomsim::cli {

struct TheoryOptions {
  std::string tau = "0.5";
  std::string d = "3";
  double alpha = 0.0;
  CLI::Option* alpha_option = nullptr;  // set by add_theory_options; count() says whether --alpha was given
  int K = 2;
  std::string json_path;
  bool quiet = false;
};

void add_theory_options(CLI::App& command, TheoryOptions& options);
int run_theory(const TheoryOptions& options);

}  // namespace geomsim::cli
