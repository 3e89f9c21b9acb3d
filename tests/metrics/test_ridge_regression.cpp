// Ridge regression (metrics/ridge_regression.hpp) against exact recoveries and the
// one-dimensional closed form.
#include <catch2/catch.hpp>

#include <limits>

#include "geomsim/metrics/ridge_regression.hpp"
#include "geomsim/support/errors.hpp"

using namespace geomsim;

TEST_CASE("Ridge regression recovers an exact affine map as lambda goes to 0", "[metrics][ridge]") {
  // Y = X A + 1 bᵀ with X of full column rank: the fit is A and b up to lambda's bias.
  Matrix x(6, 2);
  x << 1, 0, 0, 1, 1, 1, 2, -1, -1, 3, 0.5, 0.25;
  Matrix a(2, 3);
  a << 1, -2, 0.5, 3, 0, -1;
  const Eigen::RowVector3d b(0.1, -0.2, 7);
  const Matrix y = (x * a).rowwise() + b;
  const RidgeFit fit = fit_ridge(x, y, 1e-14);
  CHECK((fit.weights - a).cwiseAbs().maxCoeff() < 1e-10);
  CHECK((fit.intercept.transpose() - b).cwiseAbs().maxCoeff() < 1e-10);
  CHECK(mean_squared_error(ridge_predict(fit, x), y) < 1e-20);
}

TEST_CASE("Ridge regression in one dimension is S_xy / (S_xx + n lambda)", "[metrics][ridge]") {
  Matrix x(4, 1), y(4, 1);
  x << 0, 1, 2, 5;
  y << 1, 1, 4, 6;
  const double lambda = 0.3;
  // x̄ = 2, ȳ = 3; S_xx = 4 + 1 + 0 + 9 = 14; S_xy = (-2)(-2) + (-1)(-2) + 0 + 3 * 3 = 15.
  const double w = 15.0 / (14.0 + 4 * lambda), b = 3.0 - w * 2.0;
  const RidgeFit fit = fit_ridge(x, y, lambda);
  CHECK(fit.weights(0, 0) == Approx(w).epsilon(1e-15));
  CHECK(fit.intercept(0) == Approx(b).epsilon(1e-15));
  Matrix at(2, 1);
  at << 10, -1;
  const Matrix p = ridge_predict(fit, at);
  CHECK(p(0, 0) == Approx(10 * w + b).epsilon(1e-15));
  // The error of the predictions on the training rows, summed by hand.
  double sum = 0;
  for (int i = 0; i < 4; ++i) sum += (w * x(i, 0) + b - y(i, 0)) * (w * x(i, 0) + b - y(i, 0));
  CHECK(mean_squared_error(ridge_predict(fit, x), y) == Approx(sum / 4).epsilon(1e-14));
  // A representation that carries nothing (constant) predicts the targets' mean: the MSE is
  // their variance.
  const RidgeFit none = fit_ridge(Matrix::Ones(4, 1), y, lambda);
  CHECK(mean_squared_error(ridge_predict(none, Matrix::Ones(4, 1)), y) == Approx((4.0 + 4.0 + 1.0 + 9.0) / 4).epsilon(1e-14));
}

TEST_CASE("Ridge regression refuses bad input", "[metrics][ridge]") {
  const Matrix x = Matrix::Ones(3, 2), y = Matrix::Ones(3, 1);
  CHECK_THROWS_AS(fit_ridge(Matrix(0, 2), Matrix(0, 1), 0.1), InvalidArgument);
  CHECK_THROWS_AS(fit_ridge(x, Matrix::Ones(2, 1), 0.1), InvalidArgument);
  CHECK_THROWS_AS(fit_ridge(x, y, 0.0), InvalidArgument);
  CHECK_THROWS_AS(fit_ridge(x, y, std::numeric_limits<double>::quiet_NaN()), InvalidArgument);
  Matrix bad = x;
  bad(1, 1) = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(fit_ridge(bad, y, 0.1), InvalidArgument);
  CHECK_THROWS_AS(ridge_predict(fit_ridge(x, y, 0.1), Matrix::Ones(3, 3)), InvalidArgument);
  CHECK_THROWS_AS(mean_squared_error(Matrix::Ones(2, 1), Matrix::Ones(3, 1)), InvalidArgument);
}
