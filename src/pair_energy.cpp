#include "geomsim/pair_energy.hpp"

#include <cmath>
#include <string>

#include "geomsim/errors.hpp"

namespace geomsim {

PairEnergy::PairEnergy(Index count) : count_(count) { require_at_least("N", count, 2); }

double PairEnergy::evaluate(const Eigen::Ref<const Matrix>& U) const { return compute(U, nullptr); }

double PairEnergy::evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const {
  return compute(U, &gradient);
}

// Row i sums phi over j > i for the value and phi' over all j != i for its own gradient
// column, so threads never write to the same column and the fixed-order serial sum of
// the row values makes the result independent of the thread count.
double PairEnergy::compute(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix>* gradient) const {
  if (U.cols() != count_) {
    throw InvalidArgument("points", "must have " + std::to_string(count_) + " columns, got " + std::to_string(U.cols()));
  }
  const Index N = count_;
  Vector row_value(N);
#pragma omp parallel for schedule(dynamic, 16) if (N >= 256)
  for (Index i = 0; i < N; ++i) {
    double value = 0.0;
    Vector g = Vector::Zero(U.rows());
    for (Index j = 0; j < N; ++j) {
      if (j == i) continue;
      const double D = (U.col(i) - U.col(j)).squaredNorm();
      double dphi = 0.0;
      const double phi = potential(D, gradient != nullptr ? &dphi : nullptr);
      if (j > i) value += phi;
      if (gradient != nullptr) g += (2.0 * dphi) * (U.col(i) - U.col(j));
    }
    row_value[i] = value;
    if (gradient != nullptr) (*gradient).col(i) = g;
  }
  return row_value.sum();
}

RieszEnergy::RieszEnergy(Index count, double s) : PairEnergy(count), s_(s) {
  require_finite("s", s);
  if (s < 0.0) throw InvalidArgument("s", "must be >= 0, got " + format_number(s));
}

double RieszEnergy::potential(double D, double* derivative) const {
  if (s_ == 0.0) {  // logarithmic energy
    if (derivative != nullptr) *derivative = -0.5 / D;
    return -0.5 * std::log(D);
  }
  const double phi = std::pow(D, -0.5 * s_);
  if (derivative != nullptr) *derivative = -0.5 * s_ * phi / D;
  return phi;
}

GaussianEnergy::GaussianEnergy(Index count, double t) : PairEnergy(count), t_(t) { require_positive("t", t); }

double GaussianEnergy::potential(double D, double* derivative) const {
  const double phi = std::exp(-t_ * D);
  if (derivative != nullptr) *derivative = -t_ * phi;
  return phi;
}

}  // namespace geomsim
