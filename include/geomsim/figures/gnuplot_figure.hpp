#pragma once
// One figure as a gnuplot script, rendered through gnuplot-iostream to PNG and SVG.
//
// The script holds its data inline (gnuplot 5 datablocks), so the saved FILE.gp reproduces
// the figure by itself. Rendering is all-or-nothing: gnuplot writes temporaries, which are
// renamed into place only when both images exist and are non-empty.
#include <string>
#include <vector>

namespace geomsim {

class GnuplotFigure {
 public:
  GnuplotFigure(int width, int height) : width_(width), height_(height) {}

  // $name << EOD ... EOD with one row per inner vector; an empty row starts a new block
  // (gnuplot's blank line: a gap in a line plot, or a new scan line for splot).
  void datablock(const std::string& name, const std::vector<std::vector<double>>& rows);
  // One line of the plot script (set ..., plot ...).
  void line(const std::string& text);

  // Writes STEM.png, STEM.svg and STEM.gp. Throws std::runtime_error when gnuplot fails.
  void render(const std::string& stem) const;

 private:
  int width_, height_;
  std::string data_, body_;
};

}  // namespace geomsim
