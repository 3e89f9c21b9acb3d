#include "geomsim/theory/subclass_clustering_bounds.hpp"

#include <cmath>

#include "geomsim/support/errors.hpp"

namespace geomsim {
namespace {
void require_probability(const char* name, double p) {
  require_finite(name, p);
  if (!(p > 0.0 && p <= 1.0)) throw InvalidArgument(name, "must be in (0, 1], got " + format_number(p));
}

void require_failure_probability(double delta) {
  require_finite("delta", delta);
  if (!(delta > 0.0 && delta < 1.0)) throw InvalidArgument("delta", "must be in (0, 1), got " + format_number(delta));
}

void require_sample_size(double n) {
  if (!(n >= 1.0) || !std::isfinite(n)) throw InvalidArgument("n", "must be a finite number >= 1, got " + format_number(n));
}
}  // namespace

double lemma1_bound(double lipschitz, double sigma_z) {
  require_non_negative("lipschitz", lipschitz);
  require_non_negative("sigma_z", sigma_z);
  return lipschitz * sigma_z;
}

double lemma2_bound(const Lemma2Inputs& in) {
  require_positive("reverse_lipschitz", in.reverse_lipschitz);
  require_probability("p_z_given_y", in.p_z_given_y);
  require_non_negative("reconstruction_loss", in.reconstruction_loss);
  require_non_negative("rademacher", in.rademacher);
  require_non_negative("loss_bound", in.loss_bound);
  require_failure_probability(in.delta);
  require_sample_size(in.n);
  require_non_negative("sigma_z", in.sigma_z);
  const double generalisation =
      in.reconstruction_loss + 2.0 * in.rademacher + in.loss_bound * std::sqrt(std::log(1.0 / in.delta) / (2.0 * in.n));
  return 2.0 * in.reverse_lipschitz / in.p_z_given_y * std::sqrt(generalisation) + in.reverse_lipschitz * in.sigma_z;
}

double lemma3_bound(const Lemma3Inputs& in) {
  require_non_negative("augmentation_lipschitz", in.augmentation_lipschitz);
  require_probability("p_z", in.p_z);
  require_non_negative("rademacher", in.rademacher);
  require_failure_probability(in.delta);
  require_sample_size(in.n);
  require_non_negative("sigma_aug_z", in.sigma_aug_z);
  return 2.0 / in.p_z * (2.0 * in.rademacher + std::sqrt(2.0 * std::log(1.0 / in.delta) / in.n)) +
         in.augmentation_lipschitz * in.sigma_aug_z;
}

}  // namespace geomsim
