#include "geomsim/metrics/ridge_regression.hpp"

#include <cmath>
#include <string>

#include <Eigen/Cholesky>

#include "geomsim/support/errors.hpp"

namespace geomsim {

RidgeFit fit_ridge(const Matrix& x, const Matrix& y, double lambda) {
  if (x.rows() < 1 || x.cols() < 1) throw InvalidArgument("representations", "must hold at least one row and one column");
  if (!x.allFinite()) throw InvalidArgument("representations", "must be finite");
  if (y.rows() != x.rows() || y.cols() < 1) {
    throw InvalidArgument("targets", "must hold one row per representation (" + std::to_string(x.rows()) + "), got " +
                                         std::to_string(y.rows()));
  }
  if (!y.allFinite()) throw InvalidArgument("targets", "must be finite");
  if (!(lambda > 0.0) || !std::isfinite(lambda)) throw InvalidArgument("lambda", "must be > 0 and finite");
  const Eigen::RowVectorXd x_mean = x.colwise().mean(), y_mean = y.colwise().mean();
  const Matrix xc = x.rowwise() - x_mean, yc = y.rowwise() - y_mean;
  Matrix gram = xc.transpose() * xc;
  gram.diagonal().array() += lambda * static_cast<double>(x.rows());
  RidgeFit fit;
  fit.weights = gram.ldlt().solve(xc.transpose() * yc);
  fit.intercept = (y_mean - x_mean * fit.weights).transpose();
  return fit;
}

Matrix ridge_predict(const RidgeFit& fit, const Matrix& x) {
  if (x.cols() != fit.weights.rows()) {
    throw InvalidArgument("representations", "must have " + std::to_string(fit.weights.rows()) + " columns, as the fit's, got " +
                                                 std::to_string(x.cols()));
  }
  return (x * fit.weights).rowwise() + fit.intercept.transpose();
}

double mean_squared_error(const Matrix& predicted, const Matrix& truth) {
  if (predicted.rows() != truth.rows() || predicted.cols() != truth.cols() || truth.size() == 0) {
    throw InvalidArgument("targets", "must have the predictions' shape and at least one entry");
  }
  return (predicted - truth).squaredNorm() / static_cast<double>(truth.size());
}

}  // namespace geomsim
