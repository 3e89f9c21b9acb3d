#pragma once
// What a harness counts as a finding. A parser answers a bad file with InvalidArgument (the CLI
// prints it and exits 2): that refusal is the documented behaviour, so it is ignored. Anything
// else ends the run and is reported by libFuzzer: another exception escaping (std::terminate,
// as the CLI's "internal error"), a crash, a sanitizer report, a leak, an allocation above
// -malloc_limit_mb, a timeout. A parsed result that contradicts itself is a finding too.
#include <cstdio>
#include <cstdlib>

#include "geomsim/support/errors.hpp"

namespace geomsim::fuzz {

// Runs read(); a refusal (InvalidArgument) is an accepted answer.
template <class Read>
void read_or_refuse(Read&& read) {
  try {
    read();
  } catch (const InvalidArgument&) {
  }
}

// Aborts (a finding) when what a parser returned is inconsistent, e.g. a shape and a data size
// that disagree.
inline void require_consistent(bool holds, const char* what) {
  if (!holds) {
    std::fprintf(stderr, "fuzz harness: the parser returned an inconsistent result: %s\n", what);
    std::abort();
  }
}

}  // namespace geomsim::fuzz
