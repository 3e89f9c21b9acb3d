#include "geomsim/train_experiments/spread_figure.hpp"

#include <algorithm>
#include <stdexcept>

#include "geomsim/figures/line_figure.hpp"

namespace geomsim::train_experiments {

int max_spread_references() { return kMaxLineCurves - 2; }

GnuplotFigure spread_figure(const SpreadFigure& f) {
  const std::size_t n = f.alphas.size();
  if (n == 0 || f.trained.size() != n || f.simulated.size() != n || (!f.trained_sd.empty() && f.trained_sd.size() != n)) {
    throw std::logic_error("spread_figure: the curves need one value per alpha");
  }
  if (static_cast<int>(f.references.size()) > max_spread_references()) throw std::logic_error("spread_figure: too many reference methods");
  LineFigureSpec spec;
  spec.title = f.title;
  spec.subtitle = f.subtitle;
  spec.xlabel = "α (weight of cNCE)";
  spec.ylabel = "spread s_f(y)";
  spec.legend = {f.trained_legend, f.simulated_legend};
  LinePanel panel;
  LineCurve trained, simulated;
  trained.style = 1, simulated.style = 2;
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return f.alphas[a] < f.alphas[b]; });
  trained.errors.clear();
  for (const std::size_t k : order) {
    if (!f.trained_sd.empty()) trained.errors.push_back(f.trained_sd[k]);
    trained.points.emplace_back(f.alphas[k], f.trained[k]);
    simulated.points.emplace_back(f.alphas[k], f.simulated[k]);
  }
  panel.curves = {trained, simulated};
  for (const auto& [legend, spread] : f.references) {
    spec.legend.push_back(legend);
    LineCurve flat;
    flat.style = static_cast<int>(spec.legend.size());
    for (const std::size_t k : order) flat.points.emplace_back(f.alphas[k], spread);
    panel.curves.push_back(flat);
  }
  const double threshold = static_cast<double>(f.K) / (2.0 * f.K - 1.0);
  if (f.K >= 2 && threshold >= f.alphas[order.front()] && threshold <= f.alphas[order.back()]) {
    panel.markers.push_back({threshold, 0});
    spec.marker_legend = "α = K/(2K−1)";
  }
  spec.panels = {panel};
  return line_figure(spec);
}

}  // namespace geomsim::train_experiments
