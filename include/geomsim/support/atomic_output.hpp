#pragma once
// All-or-nothing output files. A command that writes several files stages each one as
// a temporary file in the target's directory and renames them into place only when
// every one was written; on any failure (or if commit() is never reached) the
// temporaries are removed, so no half-written or partial output is ever left behind.
// The temporaries are named and registered by interrupt_cleanup.hpp: removed on SIGINT,
// SIGTERM and SIGHUP too, and by the next writer of the same file after a SIGKILL.
#include <string>
#include <vector>

namespace geomsim {

class OutputTransaction {
 public:
  OutputTransaction() = default;
  OutputTransaction(const OutputTransaction&) = delete;
  OutputTransaction& operator=(const OutputTransaction&) = delete;
  ~OutputTransaction();  // removes staged temporaries that were not committed

  // Writes `content` to a temporary next to `path`. `argument` names the option that
  // chose the path ("json", "points") for error messages. Throws InvalidArgument when
  // the file cannot be written.
  void stage(const std::string& path, const std::string& content, const std::string& argument);
  // A temporary name next to `path` for a file that another program writes (gnuplot's
  // images); renamed into place by commit() like a staged file, removed if never committed.
  std::string reserve(const std::string& path, const std::string& argument);
  // Renames every staged file into place.
  void commit();

 private:
  struct Staged {
    std::string temporary, path, argument;
    int slot = -1;  // its slot in the interrupt cleanup's table (-1: not registered)
  };
  std::vector<Staged> staged_;
};

// Throws InvalidArgument(argument) unless the directory that would hold `path` exists
// and is writable, so a long computation does not end in an unwritable output.
void require_writable_path(const std::string& path, const std::string& argument);

}  // namespace geomsim
