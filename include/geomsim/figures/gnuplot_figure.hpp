#pragma once
// One figure as a gnuplot script, rendered by gnuplot to PNG and SVG.
//
// The script holds its data inline (gnuplot 5 datablocks), so the saved FILE.gp reproduces
// the figure by itself. Rendering is all-or-nothing: the script and both images are staged
// as temporaries and renamed into place only when gnuplot has finished both images.
//
// No string from outside (a title from sims/, a model's description, an output path) may
// reach the script as code: text() turns it into a gnuplot string that is shown as it is,
// render() quotes the output paths itself, and line() refuses what only injected text would
// hold (a line break, a backquote or a system() call outside a single-quoted string).
#include <string>
#include <vector>

namespace geomsim {

class OutputTransaction;

class GnuplotFigure {
 public:
  GnuplotFigure(int width, int height) : width_(width), height_(height) {}

  // `text` as a gnuplot string that the figure shows literally, followed by `noenhanced`:
  // single-quoted pieces (inside which gnuplot substitutes neither `command` nor @macro) with
  // every ' doubled, line breaks as "\n" and other control characters as octal escapes. For
  // `set title T`, `set xlabel T`, `set label T at ...`, `plot ... title T` and
  // `set multiplot ... title T`.
  static std::string text(const std::string& text);

  // $name << EOD ... EOD with one row per inner vector; an empty row starts a new block
  // (gnuplot's blank line: a gap in a line plot, or a new scan line for splot).
  void datablock(const std::string& name, const std::vector<std::vector<double>>& rows);
  // One line of the plot script (set ..., plot ...). Throws std::logic_error when it holds a
  // control character, or a backquote or "system" outside single quotes: strings from outside
  // go through text().
  void line(const std::string& text);

  // Stages STEM.gp, STEM.png and STEM.svg into `outputs` (committed by the caller, with its
  // other files). Throws InvalidArgument(argument) naming the file when one cannot be written
  // (a full disk is said so), and std::runtime_error when gnuplot is missing or fails.
  void render(const std::string& stem, OutputTransaction& outputs, const std::string& argument = "out") const;
  // The same, committed at once.
  void render(const std::string& stem) const;

 private:
  std::string script(const std::string& png, const std::string& svg) const;
  int width_, height_;
  std::string data_, body_;
};

}  // namespace geomsim
