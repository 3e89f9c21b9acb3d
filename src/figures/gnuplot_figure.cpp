#include "geomsim/figures/gnuplot_figure.hpp"

#include <filesystem>
#include <fstream>
#include <gnuplot-iostream.h>
#include <sstream>
#include <stdexcept>

#include "geomsim/support/errors.hpp"

namespace geomsim {

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

void GnuplotFigure::line(const std::string& text) { body_ += text + "\n"; }

void GnuplotFigure::render(const std::string& stem) const {
  namespace fs = std::filesystem;
  const std::string png = stem + ".png", svg = stem + ".svg", gp = stem + ".gp";
  const std::string png_tmp = png + ".partial", svg_tmp = svg + ".partial";
  const auto script = [&](const std::string& png_out, const std::string& svg_out) {
    std::ostringstream out;
    out << data_;
    out << "set terminal pngcairo size " << width_ << "," << height_ << " enhanced font 'DejaVu Sans,11'\n";
    out << "set output '" << png_out << "'\n" << body_ << "unset output\n";
    out << "set terminal svg size " << width_ << "," << height_ << " enhanced font 'DejaVu Sans,11' background '#ffffff'\n";
    out << "set output '" << svg_out << "'\n" << body_ << "unset output\n";
    return out.str();
  };
  {
    Gnuplot gnuplot("gnuplot");
    gnuplot << script(png_tmp, svg_tmp);
    gnuplot << "exit\n";
    gnuplot.flush();
  }  // the destructor closes the pipe and waits for gnuplot
  for (const auto& path : {png_tmp, svg_tmp}) {
    std::error_code ec;
    if (!fs::exists(path, ec) || fs::file_size(path, ec) == 0) {
      fs::remove(png_tmp, ec);
      fs::remove(svg_tmp, ec);
      throw std::runtime_error("gnuplot did not write " + path + " (is gnuplot installed?)");
    }
  }
  // The saved script names the final files, so `gnuplot STEM.gp` redraws the figure.
  std::ofstream(gp) << script(fs::path(png).filename().string(), fs::path(svg).filename().string());
  fs::rename(png_tmp, png);
  fs::rename(svg_tmp, svg);
}

}  // namespace geomsim
