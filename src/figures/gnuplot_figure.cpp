#include "geomsim/figures/gnuplot_figure.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <cmath>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/interrupt_cleanup.hpp"
#include "geomsim/support/plain_text.hpp"


namespace geomsim {
namespace {
namespace fs = std::filesystem;

// A relative path as ./PATH: gnuplot reads a name starting with '<' as "the output of this
// command" (also for the script it is given to run), one starting with '|' as "pipe into this
// command", and expands a leading '~'.
std::string plain_path(const std::string& path) { return !path.empty() && path[0] == '/' ? path : "./" + path; }

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

// Whether gnuplot finished the image: a PNG ends with its IEND chunk, an SVG with </svg>, a
// PDF with %%EOF.
bool complete_image(const std::string& path) {
  const std::string bytes = read_file(path);
  static const std::string iend("\0\0\0\0IEND\xae\x42\x60\x82", 12);
  const auto ends_with = [&](const std::string& tail) {
    return bytes.size() >= tail.size() && bytes.compare(bytes.size() - tail.size(), tail.size(), tail) == 0;
  };
  const auto last = bytes.find_last_not_of(" \n\r\t");
  return ends_with(iend) || (last != std::string::npos && last >= 5 && bytes.compare(last - 5, 6, "</svg>") == 0) ||
         (last != std::string::npos && last >= 4 && bytes.compare(last - 4, 5, "%%EOF") == 0);
}

// Whether the folder's file system has no room left for a new file: no free byte, or no free
// inode (a file system out of inodes refuses every new file with ENOSPC too).
bool no_room(const std::string& folder) {
  struct statvfs info {};
  return ::statvfs(folder.c_str(), &info) == 0 && (info.f_bavail == 0 || (info.f_files > 0 && info.f_favail == 0));
}

// What posix_spawnp("gnuplot") tried to start: the first PATH folder's gnuplot, or "" when no
// folder of PATH has one.
std::string gnuplot_on_path() {
  const char* path = std::getenv("PATH");
  const std::string folders = path != nullptr ? path : "";
  for (std::size_t begin = 0; begin <= folders.size();) {
    const std::size_t end = std::min(folders.find(':', begin), folders.size());
    const std::string folder = end > begin ? folders.substr(begin, end - begin) : ".";  // an empty entry is the working folder
    std::error_code error;
    if (fs::exists(fs::path(folder) / "gnuplot", error)) return (fs::path(folder) / "gnuplot").string();
    begin = end + 1;
  }
  return "";
}

// Why gnuplot could not be started (posix_spawnp's error `error`): no gnuplot on PATH is a
// missing package; a file system with no room for its messages file (`messages`, beside the
// figure) is the figure's write failing, InvalidArgument(argument); anything else (a gnuplot that
// is not executable, no memory or processes left) is said as the system says it, naming what was
// started, with no advice to install what is installed.
[[noreturn]] void refuse_start(int error, const std::string& messages, const std::string& argument) {
  if (error == ENOSPC || error == EDQUOT) {
    throw InvalidArgument(argument, "cannot write in '" + folder_of(messages) + "' (the file of gnuplot's messages, beside the figure): " +
                                        std::strerror(error));
  }
  const char* path = std::getenv("PATH");
  const std::string searched = path != nullptr ? "PATH=" + std::string(path) : std::string("PATH unset");
  if (error == ENOENT) {
    throw ComputationFailed("cannot start gnuplot: no gnuplot program in the folders of " + searched +
                            "; the figures need it: apt-get install gnuplot-nox");
  }
  const std::string program = gnuplot_on_path();
  throw ComputationFailed("cannot start gnuplot (" + (program.empty() ? "searched for in " + searched : program + ", the first on PATH") +
                          "): " + std::strerror(error));
}

// Runs `gnuplot SCRIPT` (found on PATH, no shell) with its messages going to `messages`.
// Returns gnuplot's exit status; throws (refuse_start) when it cannot be started.
int run_gnuplot(const std::string& script, const std::string& messages, const std::string& output_argument) {
  posix_spawn_file_actions_t files;
  posix_spawn_file_actions_init(&files);
  posix_spawn_file_actions_addopen(&files, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&files, STDERR_FILENO, messages.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = "gnuplot", script_argument = plain_path(script);
  char* argv[] = {program.data(), script_argument.data(), nullptr};
  pid_t pid = 0;
  // gnuplot writes our temporaries: on an interrupt it is stopped before they are removed.
  RegisteredChild child;
  const int started = spawn_registered_child(child, pid, "gnuplot", /*search_path=*/true, &files, argv);
  posix_spawn_file_actions_destroy(&files);
  if (started != 0) refuse_start(started, messages, output_argument);
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
    if (is_control_character(static_cast<char>(c))) {
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

namespace {

// `text` broken at spaces into lines of at most `width` characters (UTF-8 counted by character;
// a longer word stays whole), keeping its own line breaks.
std::string wrap(const std::string& raw, std::size_t width) {
  // "n_y = 8" stays on one line: the spaces around '=' do not break.
  std::string text;
  for (std::size_t k = 0; k < raw.size(); ++k) {
    const bool glued = raw[k] == ' ' && ((k + 1 < raw.size() && raw[k + 1] == '=') || (k > 0 && raw[k - 1] == '='));
    text += glued ? '\x01' : raw[k];
  }
  std::string out, line, word;
  std::size_t line_chars = 0, word_chars = 0;
  const auto end_word = [&] {
    if (word.empty()) return;
    if (line_chars > 0 && line_chars + 1 + word_chars > width) {
      out += line + "\n";
      line.clear();
      line_chars = 0;
    }
    line += (line_chars > 0 ? " " : "") + word;
    line_chars += (line_chars > 0 ? 1 : 0) + word_chars;
    word.clear();
    word_chars = 0;
  };
  for (unsigned char c : text) {
    if (c == ' ' || c == '\n') {
      end_word();
      if (c == '\n') {
        out += line + "\n";
        line.clear();
        line_chars = 0;
      }
      continue;
    }
    word += static_cast<char>(c);
    word_chars += (c & 0xc0) != 0x80 ? 1 : 0;
  }
  end_word();
  out += line;
  std::replace(out.begin(), out.end(), '\x01', ' ');
  return out;
}

std::string without_noenhanced(const std::string& expression) { return expression.substr(0, expression.size() - std::string(" noenhanced").size()); }

std::size_t lines_of(const std::string& text) { return 1 + static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

// The terminal's width in characters, as a gnuplot expression.
const char* kColumns = "(gs_width / (0.62 * gs_font))";

}  // namespace

namespace {
// The three forms of a title and subtitle, narrow to wide. The one-column PDF holds about 50
// characters of DejaVu Sans a line and the two-column one about 87: a longer subtitle is
// wrapped there too.
std::vector<std::string> title_forms(const std::string& title, const std::string& subtitle) {
  const auto joined = [](const std::string& t, const std::string& s) { return t.empty() ? s : s.empty() ? t : t + "\n" + s; };
  return {subtitle.empty() ? wrap(title, 40) : wrap(subtitle, 48), joined(wrap(title, 90), wrap(subtitle, 85)), joined(title, subtitle)};
}
}  // namespace

std::string GnuplotFigure::wrapped_text(const std::string& title, const std::string& subtitle) {
  const auto forms = title_forms(title, subtitle);
  return std::string("(") + kColumns + " < 70 ? " + without_noenhanced(GnuplotFigure::text(forms[0])) + " : " + kColumns +
         " < 115 ? " + without_noenhanced(GnuplotFigure::text(forms[1])) + " : " + without_noenhanced(GnuplotFigure::text(forms[2])) +
         ") noenhanced";
}

std::string GnuplotFigure::wrapped_lines(const std::string& title, const std::string& subtitle) {
  const auto forms = title_forms(title, subtitle);
  return std::string("(") + kColumns + " < 70 ? " + std::to_string(lines_of(forms[0])) + " : " + kColumns + " < 115 ? " +
         std::to_string(lines_of(forms[1])) + " : " + std::to_string(lines_of(forms[2])) + ")";
}

void GnuplotFigure::tics(const std::string& axis, double range, double share) {
  line("tics_at_least_2(x) = x < 2 ? 2 : x");
  line("tics_nice(x) = (tics_m = 10**floor(log10(x)), tics_f = x / tics_m, (tics_f < 1.5 ? 1 : tics_f < 3.5 ? 2 : tics_f < 7.5 ? 5 : 10) * tics_m)");
  const std::string room = axis == "x" ? std::string(kColumns) + " * " + format_number(share) + " / 10"
                                       : "gs_height / (1.35 * gs_font) * " + format_number(share) + " / 2.5";
  line("set " + axis + "tics tics_nice(1.0 * " + format_number(range) + " / tics_at_least_2(floor(" + room + ")))");
}

void GnuplotFigure::key(const std::string& wide, int columns) {
  line(std::string("if (") + kColumns + " < 100) {");
  line("  set key outside below center horizontal Left reverse samplen 2.5 maxcols " + std::to_string(columns));
  line("} else {");
  line("  set key " + wide);
  line("}");
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
    if (is_control_character(c)) {
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

std::string GnuplotFigure::path_literal(const std::string& path, const std::string& argument) {
  require_no_control_characters(path, argument);  // never emitted: a single-quoted string cannot escape one
  const std::string name = plain_path(path);
  std::string out = "'";
  for (char c : name) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string GnuplotFigure::colour(int k) {
  // Okabe & Ito (2008), "Color Universal Design": blue, vermillion, bluish green, reddish
  // purple, orange, sky blue, black, and the yellow last (hard to see on white).
  static const char* palette[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442"};
  return palette[(k - 1 + 8 * 1000) % 8];
}

std::vector<GnuplotFigure::Target> GnuplotFigure::targets(const std::string& stem) const {
  const double w = width_, h = height_;
  std::vector<Target> out;
  const auto sized = [](double width, double height, const char* unit) {
    std::ostringstream size;
    size << " size " << width << unit << "," << height << unit;
    return size.str();
  };
  out.push_back({stem + ".png", "pngcairo" + sized(w, h, "") + " enhanced font 'DejaVu Sans,11'", w, h, 11});
  out.push_back({stem + ".svg", "svg" + sized(w, h, "") + " enhanced font 'DejaVu Sans,11' background '#ffffff'", w, h, 11});
  if (pdf_) {
    // As high as the PNG's aspect makes it, but never lower than a panel with its labels needs.
    for (const auto& [suffix, inches, font, lowest] : {std::tuple<const char*, double, double, double>{".pdf", 3.5, 7, one_column_height_},
                                                       std::tuple<const char*, double, double, double>{"-2col.pdf", 7.0, 8, 2.6}}) {
      const double height_in = std::max(lowest, std::round(inches * h / w * 100.0) / 100.0);
      std::ostringstream terminal;
      terminal << "pdfcairo" << sized(inches, height_in, "in") << " enhanced font 'DejaVu Sans," << font << "' linewidth 0.6";
      out.push_back({stem + suffix, terminal.str(), inches * 72.0, height_in * 72.0, font});
    }
  }
  return out;
}

std::vector<std::string> GnuplotFigure::files(const std::string& stem) const {
  std::vector<std::string> out{stem + ".gp"};
  for (const auto& t : targets(stem)) out.push_back(t.path);
  return out;
}

std::string GnuplotFigure::script(const std::vector<Target>& targets) const {
  std::ostringstream out;
  out << data_;
  static const int dashes[] = {1, 2, 4, 5, 3, 6, 7, 8};
  static const int points[] = {7, 5, 9, 11, 13, 15, 4, 6};
  for (const auto& t : targets) {
    out << "set terminal " << t.terminal << "\n";
    out << "set output " << path_literal(t.path) << "\n";
    out << "reset\n";  // nothing the previous image's body set carries over
    out << "gs_width = " << t.width_pt << "; gs_height = " << t.height_pt << "; gs_font = " << t.font_pt << "\n";
    for (int k = 1; k <= 8; ++k) {
      out << "set linetype " << k << " lc rgb '" << colour(k) << "' lw 1.5 dt " << dashes[k - 1] << " pt " << points[k - 1]
          << " ps 0.8\n";
    }
    out << body_ << "unset output\n";
  }
  return out.str();
}

void GnuplotFigure::render(const std::string& stem, OutputTransaction& outputs, const std::string& argument) const {
  // Every file's name starts with the stem: one with a control character is refused before
  // anything is staged (path_literal would refuse it too, but only once the script is built).
  require_no_control_characters(stem, argument);
  // The saved script names the final files, so `gnuplot STEM.gp` in their folder redraws the figure.
  std::vector<Target> final_targets = targets(stem), run_targets = final_targets;
  for (auto& t : final_targets) t.path = fs::path(t.path).filename().string();
  const std::string gp = stem + ".gp";
  outputs.stage(gp, script(final_targets), argument);
  for (auto& t : run_targets) t.path = outputs.reserve(t.path, argument);
  // gnuplot runs its own copy of the script, which writes the temporaries; its messages go to a
  // file beside them, so that a failure can say what gnuplot said.
  OutputTransaction scratch;  // never committed: removed on every path out of here
  const std::string run_script = scratch.reserve(stem + ".render.gp", argument);
  const std::string messages = scratch.reserve(stem + ".gnuplot.log", argument);
  {
    errno = 0;  // before the open: a file system out of inodes fails there
    std::ofstream out(run_script, std::ios::binary);
    out << script(run_targets);
    out.close();
    if (!out) {
      throw InvalidArgument(argument, "cannot write '" + gp + "': " + (errno != 0 ? std::strerror(errno) : "write failed"));
    }
  }
  const int status = run_gnuplot(run_script, messages, argument);
  // The first image gnuplot did not finish, which a failure names (the first image when it failed
  // with every one finished): gnuplot writes them in turn and stops at the first it cannot.
  const std::vector<Target> wanted = targets(stem);
  std::size_t unfinished = 0;
  while (unfinished < wanted.size() && complete_image(run_targets[unfinished].path)) ++unfinished;
  if (status == 0 && unfinished == wanted.size()) return;
  const std::string& path = wanted[unfinished < wanted.size() ? unfinished : 0].path;
  if (no_room(folder_of(path))) throw InvalidArgument(argument, "cannot write '" + path + "': " + std::strerror(ENOSPC));
  std::string said = read_file(messages);
  while (!said.empty() && (said.back() == '\n' || said.back() == ' ')) said.pop_back();
  throw std::runtime_error("gnuplot did not finish " + path + " (exit status " + std::to_string(status) + ")" +
                           (said.empty() ? std::string() : ": " + said));
}

void GnuplotFigure::render(const std::string& stem) const {
  OutputTransaction outputs;
  render(stem, outputs);
  outputs.commit();
}

}  // namespace geomsim
