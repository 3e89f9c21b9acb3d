#include "geomsim/theory/collapsed_transfer.hpp"

#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim {

CollapsedTransferLoss collapsed_transfer_loss(int K, int m, double q) {
  require_at_least("K", K, 2);
  require_at_least("m", m, 1);
  require_in_closed_range("q", q, 0.0, 1.0);
  const double c_K = -1.0 / (K - 1.0);
  const double C = static_cast<double>(m) * K;
  // log(m e + (C - m) e^{c_K}) = 1 + log(m + (C - m) e^{c_K - 1}).
  const double log_partition = 1.0 + std::log(m + (C - m) * std::exp(c_K - 1.0));
  return {log_partition - c_K - (1.0 - c_K) * q, log_partition - 1.0, log_partition - c_K};
}

CollapsedTransferLoss collapsed_original_task_loss(int K, double q) { return collapsed_transfer_loss(K, 1, q); }

}  // namespace geomsim
