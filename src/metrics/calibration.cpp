#include "geomsim/metrics/calibration.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

double expected_calibration_error(const std::vector<double>& confidence, const std::vector<bool>& correct, int bins) {
  require_at_least("bins", bins, 1);
  if (confidence.empty() || confidence.size() != correct.size()) {
    throw InvalidArgument("confidence", "needs one confidence per prediction and at least one prediction; got " +
                                            std::to_string(confidence.size()) + " confidences for " +
                                            std::to_string(correct.size()) + " predictions");
  }
  std::vector<double> confidence_sum(static_cast<std::size_t>(bins), 0.0), correct_sum(confidence_sum);
  std::vector<double> count(confidence_sum);
  for (std::size_t i = 0; i < confidence.size(); ++i) {
    const double c = confidence[i];
    if (!(c >= 0.0 && c <= 1.0)) {
      throw InvalidArgument("confidence", "must be in [0, 1]; prediction " + std::to_string(i) + " has " + format_number(c));
    }
    // Bin m (from 0) holds (m/M, (m+1)/M]; a confidence of 0 goes to the first.
    const int m = c <= 0.0 ? 0 : std::min(bins - 1, static_cast<int>(std::ceil(c * bins)) - 1);
    confidence_sum[static_cast<std::size_t>(m)] += c;
    correct_sum[static_cast<std::size_t>(m)] += correct[i] ? 1.0 : 0.0;
    count[static_cast<std::size_t>(m)] += 1.0;
  }
  double ece = 0.0;
  for (std::size_t m = 0; m < count.size(); ++m) {
    if (count[m] > 0) ece += std::abs(correct_sum[m] - confidence_sum[m]);  // |B| (|acc - conf|) = |sum correct - sum conf|
  }
  return ece / static_cast<double>(confidence.size());
}

}  // namespace geomsim
