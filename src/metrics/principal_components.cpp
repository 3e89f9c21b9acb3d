#include "geomsim/metrics/principal_components.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim {

Matrix PrincipalComponents::project(const Matrix& points) const {
  if (points.rows() != mean.size()) {
    throw InvalidArgument("points", "must have " + std::to_string(mean.size()) + " rows, got " + std::to_string(points.rows()));
  }
  return basis.transpose() * (points.colwise() - mean);
}

PrincipalComponents principal_components(const Matrix& points, int components) {
  require_at_least("components", components, 1);
  if (points.cols() < 1 || points.rows() < 1) throw InvalidArgument("points", "must hold at least one point");
  if (!points.allFinite()) throw InvalidArgument("points", "must be finite");
  const Index d = points.rows();
  const Index p = std::min<Index>(components, d);
  PrincipalComponents pc;
  pc.mean = points.rowwise().mean();
  const Matrix centred = points.colwise() - pc.mean;
  const Matrix covariance = centred * centred.transpose() / static_cast<double>(points.cols());
  const Eigen::SelfAdjointEigenSolver<Matrix> solver(covariance);  // eigenvalues ascending
  pc.basis.resize(d, p);
  pc.variances.resize(p);
  for (Index j = 0; j < p; ++j) {
    Vector v = solver.eigenvectors().col(d - 1 - j);
    Index largest = 0;
    v.cwiseAbs().maxCoeff(&largest);
    if (v[largest] < 0) v = -v;
    pc.basis.col(j) = v;
    pc.variances[j] = std::max(0.0, solver.eigenvalues()[d - 1 - j]);
  }
  return pc;
}

}  // namespace geomsim
