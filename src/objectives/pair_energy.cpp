#include "geomsim/objectives/pair_energy.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "geomsim/manifold/pairwise_kernels.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim {

PairEnergy::PairEnergy(Index count) : count_(count) { require_at_least("N", count, 2); }

double PairEnergy::evaluate(const Eigen::Ref<const Matrix>& U) const { return compute(U, nullptr); }

double PairEnergy::evaluate_with_gradient(const Eigen::Ref<const Matrix>& U, Eigen::Ref<Matrix> gradient) const {
  return compute(U, &gradient);
}

double PairEnergy::compute(const Eigen::Ref<const Matrix>& U_in, Eigen::Ref<Matrix>* gradient) const {
  if (U_in.cols() != count_) {
    throw InvalidArgument("points", "must have " + std::to_string(count_) + " columns, got " + std::to_string(U_in.cols()));
  }
  const Index N = count_;
  const Matrix U = U_in;
  const Vector sq = U.colwise().squaredNorm().transpose();
  const Index blocks = (N + kBlock - 1) / kBlock;
  Vector block_value(blocks);
#pragma omp parallel for schedule(dynamic, 1) if (N > kBlock)
  for (Index b = 0; b < blocks; ++b) {
    const Index r0 = b * kBlock, rn = std::min(kBlock, N - r0);
    Matrix P(N, rn);  // column k: point r0 + k's pair terms with every point
    P.noalias() = U.transpose() * U.middleCols(r0, rn);
    Vector derivative, degree(rn);
    double value = 0.0;
    for (Index k = 0; k < rn; ++k) {
      const Index i = r0 + k;
      auto column = P.col(k);
      // |u_i|^2 + |u_j|^2 - 2 u_i.u_j can round below 0 for (nearly) coincident points.
      column.array() = (sq[i] + sq.array() - 2.0 * column.array()).max(0.0);
      column[i] = 1.0;  // any distance with a finite potential; the self-pair is zeroed below
      potential(column, gradient != nullptr ? &derivative : nullptr);
      column[i] = 0.0;
      value += column.sum();
      if (gradient != nullptr) {
        derivative[i] = 0.0;
        column = derivative;
        degree[k] = derivative.sum();
      }
    }
    block_value[b] = value;
    if (gradient != nullptr) {
      Matrix g(U.rows(), rn);
      g.noalias() = U * P;
      gradient->middleCols(r0, rn) = 2.0 * (U.middleCols(r0, rn) * degree.asDiagonal() - g);
    }
  }
  return 0.5 * block_value.sum();  // every pair was counted from both ends
}

RieszEnergy::RieszEnergy(Index count, double s) : PairEnergy(count), s_(s) {
  require_finite("s", s);
  if (s < 0.0) throw InvalidArgument("s", "must be >= 0, got " + format_number(s));
}

void RieszEnergy::potential(Eigen::Ref<Vector> values, Vector* derivatives) const {
  auto D = values.array();
  if (derivatives != nullptr) *derivatives = values;  // D, for phi' below
  if (s_ == 0.0) {  // logarithmic energy
    D = -0.5 * D.log();
    if (derivatives != nullptr) derivatives->array() = -0.5 * derivatives->array().inverse();
    return;
  }
  if (s_ == 1.0) {
    D = D.rsqrt();  // the Thomson problem: one vectorised operation instead of log and exp
  } else {
    D = (-0.5 * s_ * D.log()).exp();  // D^{-s/2}
  }
  if (derivatives != nullptr) derivatives->array() = -0.5 * s_ * D / derivatives->array();
}

GaussianEnergy::GaussianEnergy(Index count, double t) : PairEnergy(count), t_(t) { require_positive("t", t); }

void GaussianEnergy::potential(Eigen::Ref<Vector> values, Vector* derivatives) const {
  auto D = values.array();
  D = (-t_ * D).exp();
  if (derivatives != nullptr) *derivatives = -t_ * values;
}

}  // namespace geomsim
