#include "geomsim/figures/gnuplot_figure.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"

extern char** environ;

namespace geomsim {
namespace {
namespace fs = std::filesystem;

// A relative path as ./PATH: gnuplot reads a name starting with '<' as "the output of this
// command" (also for the script it is given to run), one starting with '|' as "pipe into this
// command", and expands a leading '~'.
std::string plain_path(const std::string& path) { return !path.empty() && path[0] == '/' ? path : "./" + path; }

// A file name as a single-quoted gnuplot string.
std::string path_literal(const std::string& path) {
  const std::string name = plain_path(path);
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string folder_of(const std::string& path) {
  const fs::path parent = fs::path(path).parent_path();
  return parent.empty() ? std::string(".") : parent.string();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Whether gnuplot finished the image: a PNG ends with its IEND chunk, an SVG with </svg>.
bool complete_image(const std::string& path) {
  const std::string bytes = read_file(path);
  static const std::string iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
  const auto ends_with = [&](const std::string& tail) {
    return bytes.size() >= tail.size() && bytes.compare(bytes.size() - tail.size(), tail.size(), tail) == 0;
  };
  const auto last = bytes.find_last_not_of(" \n\r\t");
  return ends_with(iend) || (last != std::string::npos && last >= 5 && bytes.compare(last - 5, 6, "</svg>") == 0);
}

bool disk_full(const std::string& folder) {
  struct statvfs info {};
  return ::statvfs(folder.c_str(), &info) == 0 && info.f_bavail == 0;
}

// Runs `gnuplot SCRIPT` (found on PATH, no shell) with its messages going to `messages`.
// Returns gnuplot's exit status; throws std::runtime_error when it cannot be started.
int run_gnuplot(const std::string& script, const std::string& messages) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, messages.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = "gnuplot", argument = plain_path(script);
  char* argv[] = {program.data(), argument.data(), nullptr};
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, "gnuplot", &files, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&files);
  if (started != 0) {
    throw std::runtime_error("cannot run gnuplot (" + std::string(std::strerror(started)) +
                             "); the figures need it: apt-get install gnuplot-nox");
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) throw std::runtime_error("lost the gnuplot process: " + std::string(std::strerror(errno)));
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

std::string GnuplotFigure::text(const std::string& text) {
  std::string out;
  bool open = false;  // inside a single-quoted piece
  const auto piece = [&](const std::string& literal) {
    if (open) out += "'";
    open = false;
    out += (out.empty() ? "" : ".") + literal;
  };
  for (unsigned char c : text) {
    if (c < 0x20 || c == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\%03o", c == 0 ? '?' : c);
      piece(c == '\n' ? std::string("\"\\n\"") : "\"" + std::string(escaped) + "\"");
      continue;
    }
    if (!open) {
      out += (out.empty() ? "'" : ".'");
      open = true;
    }
    out += c == '\'' ? std::string("''") : std::string(1, static_cast<char>(c));
  }
  if (open) out += "'";
  if (out.empty()) out = "''";
  return out + " noenhanced";
}

void GnuplotFigure::datablock(const std::string& name, const std::vector<std::vector<double>>& rows) {
  std::ostringstream out;
  out << "$" << name << " << EOD\n";
  for (const auto& row : rows) {
    for (std::size_t k = 0; k < row.size(); ++k) out << (k ? " " : "") << format_number(row[k]);
    out << "\n";
  }
  out << "EOD\n";
  data_ += out.str();
}

void GnuplotFigure::line(const std::string& text) {
  bool quoted = false;
  std::string code;  // the text outside single-quoted strings
  for (char c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      throw std::logic_error("GnuplotFigure::line: a control character in a script line (use GnuplotFigure::text): " + text);
    }
    if (c == '\'') quoted = !quoted;
    else if (!quoted) code += c;
  }
  if (code.find('`') != std::string::npos || code.find("system") != std::string::npos) {
    throw std::logic_error("GnuplotFigure::line: a command substitution in a script line (use GnuplotFigure::text): " + text);
  }
  body_ += text + "\n";
}

std::string GnuplotFigure::script(const std::string& png, const std::string& svg) const {
  std::ostringstream out;
  out << data_;
  out << "set terminal pngcairo size " << width_ << "," << height_ << " enhanced font 'DejaVu Sans,11'\n";
  out << "set output " << path_literal(png) << "\n" << body_ << "unset output\n";
  out << "set terminal svg size " << width_ << "," << height_ << " enhanced font 'DejaVu Sans,11' background '#ffffff'\n";
  out << "set output " << path_literal(svg) << "\n" << body_ << "unset output\n";
  return out.str();
}

void GnuplotFigure::render(const std::string& stem, OutputTransaction& outputs, const std::string& argument) const {
  const std::string png = stem + ".png", svg = stem + ".svg", gp = stem + ".gp";
  // The saved script names the final files, so `gnuplot STEM.gp` in their folder redraws the figure.
  outputs.stage(gp, script(fs::path(png).filename().string(), fs::path(svg).filename().string()), argument);
  const std::string png_tmp = outputs.reserve(png, argument), svg_tmp = outputs.reserve(svg, argument);
  // gnuplot runs its own copy of the script, which writes the temporaries; its messages go to a
  // file beside them, so that a failure can say what gnuplot said.
  OutputTransaction scratch;  // never committed: removed on every path out of here
  const std::string run_script = scratch.reserve(stem + ".render.gp", argument);
  const std::string messages = scratch.reserve(stem + ".gnuplot.log", argument);
  {
    std::ofstream out(run_script, std::ios::binary);
    errno = 0;
    out << script(png_tmp, svg_tmp);
    out.close();
    if (!out) {
      throw InvalidArgument(argument, "cannot write '" + gp + "': " + (errno != 0 ? std::strerror(errno) : "write failed"));
    }
  }
  const int status = run_gnuplot(run_script, messages);
  for (const std::string* path : {&png, &svg}) {
    const std::string& temporary = *path == png ? png_tmp : svg_tmp;
    if (status == 0 && complete_image(temporary)) continue;
    if (disk_full(folder_of(*path))) throw InvalidArgument(argument, "cannot write '" + *path + "': " + std::strerror(ENOSPC));
    std::string said = read_file(messages);
    while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
    throw std::runtime_error("gnuplot did not finish " + *path + " (exit status " + std::to_string(status) + ")" +
                             (said.empty() ? std::string() : ": " + said));
  }
}

void GnuplotFigure::render(const std::string& stem) const {
  OutputTransaction outputs;
  render(stem, outputs);
  outputs.commit();
}

}  // namespace geomsim
