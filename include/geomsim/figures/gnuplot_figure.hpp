#pragma once
// One figure as a gnuplot script, rendered by gnuplot to PNG and SVG, and with paper_sizes()
// also to PDF (vector) at the widths of a journal's one column (3.5 in, STEM.pdf) and two
// columns (7 in, STEM-2col.pdf), each as high as the PNG's aspect ratio makes it.
//
// The script holds its data inline (gnuplot 5 datablocks), so the saved FILE.gp reproduces
// the figure by itself. Rendering is all-or-nothing: the script and every image are staged
// as temporaries and renamed into place only when gnuplot has finished them all.
//
// The house style, set before the body for every terminal: line types 1-8 are the Okabe-Ito
// colour-blind-safe palette (the yellow last) with eight dash types and point types, so `lt k`
// tells curves apart in colour, dash and marker alike; and the variables gs_width, gs_height
// (the terminal's size in points: a PNG or SVG pixel counts as one) and gs_font (the font size
// in points), from which a body places things in screen coordinates that hold at every size.
//
// No string from outside (a title from sims/, a model's description, an output path) may
// reach the script as code: text() turns it into a gnuplot string that is shown as it is,
// render() quotes the output paths itself (path_literal()) and refuses a stem with a control
// character, which no single-quoted gnuplot string can hold, and line() refuses what only
// injected text would hold (a line break, a backquote or a system() call outside a
// single-quoted string).
#include <string>
#include <vector>

namespace geomsim {

class OutputTransaction;

class GnuplotFigure {
 public:
  GnuplotFigure(int width, int height) : width_(width), height_(height) {}

  // Also render STEM.pdf (3.5 in wide, at least `one_column_height` in high: a figure whose key
  // goes under it there needs more than the 2.4 in default) and STEM-2col.pdf (7 in wide).
  void paper_sizes(bool on = true, double one_column_height = 2.4) {
    pdf_ = on;
    one_column_height_ = one_column_height;
  }
  bool has_paper_sizes() const { return pdf_; }
  // The files render() writes for `stem`: STEM.gp, STEM.png, STEM.svg (and the PDFs).
  std::vector<std::string> files(const std::string& stem) const;
  // The colour of line type k >= 1 (the palette repeats after 8), as "#rrggbb".
  static std::string colour(int k);

  // `text` as a gnuplot string that the figure shows literally, followed by `noenhanced`:
  // single-quoted pieces (inside which gnuplot substitutes neither `command` nor @macro) with
  // every ' doubled, line breaks as "\n" and other control characters as octal escapes. For
  // `set title T`, `set xlabel T`, `set label T at ...`, `plot ... title T` and
  // `set multiplot ... title T`.
  static std::string text(const std::string& text);
  // A file name as a single-quoted gnuplot string for `set output`, a relative one as ./PATH (gnuplot
  // reads a name starting with '<' or '|' as a command, and expands a leading '~'), every '
  // doubled. A single-quoted string holds no escapes, so a name with a control character (a line
  // break would end the command and run the rest as gnuplot code) cannot be written: throws
  // InvalidArgument(argument) for it (support/plain_text.hpp) instead.
  static std::string path_literal(const std::string& path, const std::string& argument = "out");
  // A title and its subtitle (the fixed parameters) as one gnuplot string that fits the terminal
  // it is drawn on: an expression that picks, from gs_width and gs_font, the subtitle alone
  // (wrapped at 48 characters) on a one-column PDF (a paper's caption holds the title; without a
  // subtitle, the title wrapped at 40 characters), the title wrapped at 90 characters over the
  // subtitle wrapped at 85 on a two-column PDF, and both as they are on the page's PNG and SVG.
  // wrapped_lines is the number of lines it then takes, as an expression.
  static std::string wrapped_text(const std::string& title, const std::string& subtitle = "");
  static std::string wrapped_lines(const std::string& title, const std::string& subtitle = "");
  // Script lines that set `axis` ("x" or "y") tics on round steps (1, 2, 5 or 10 times a power
  // of ten) over `range`, about one label per 10 characters across or 2.5 lines up of the
  // `share` of the terminal the plot takes, so that no size crowds its labels.
  void tics(const std::string& axis, double range, double share = 0.7);
  // Script lines that set the key to `wide` on a terminal of 100 characters or more (the page's
  // PNG and SVG, the two-column PDF) and under the plot, in `columns` columns, on a narrower one
  // (the one-column PDF), where a key beside or inside the plot would cover it.
  void key(const std::string& wide, int columns = 1);

  // $name << EOD ... EOD with one row per inner vector; an empty row starts a new block
  // (gnuplot's blank line: a gap in a line plot, or a new scan line for splot).
  void datablock(const std::string& name, const std::vector<std::vector<double>>& rows);
  // One line of the plot script (set ..., plot ...). Throws std::logic_error when it holds a
  // control character, or a backquote or "system" outside single quotes: strings from outside
  // go through text().
  void line(const std::string& text);

  // Stages files(stem) into `outputs` (committed by the caller, with its
  // other files). Throws InvalidArgument(argument) naming the file when one cannot be written
  // (a full disk is said so), or, before anything is written, when `stem` holds a control
  // character; ComputationFailed when gnuplot cannot be started (none on PATH: with the package to
  // install; any other reason, such as a gnuplot that is not executable: the system's words and
  // the program tried); and std::runtime_error when gnuplot fails.
  void render(const std::string& stem, OutputTransaction& outputs, const std::string& argument = "out") const;
  // The same, committed at once.
  void render(const std::string& stem) const;

 private:
  struct Target {
    std::string path, terminal;  // the image and its `set terminal` line
    double width_pt, height_pt, font_pt;
  };
  std::vector<Target> targets(const std::string& stem) const;
  std::string script(const std::vector<Target>& targets) const;
  int width_, height_;
  bool pdf_ = false;
  double one_column_height_ = 2.4;
  std::string data_, body_;
};

}  // namespace geomsim
