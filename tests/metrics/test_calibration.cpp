// Expected calibration error (metrics/calibration.hpp) against sums done by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "geomsim/metrics/calibration.hpp"
#include "geomsim/support/errors.hpp"

using geomsim::expected_calibration_error;
using geomsim::InvalidArgument;

TEST_CASE("Expected calibration error is the bins' weighted gap between accuracy and confidence", "[metrics][calibration]") {
  // Calibrated: ten predictions at confidence 0.8 (one bin), eight of them right.
  std::vector<double> c(10, 0.8);
  std::vector<bool> right = {true, true, true, true, true, true, true, true, false, false};
  CHECK(expected_calibration_error(c, right) == Approx(0.0).margin(1e-15));
  // Overconfident: confidence 1, half right: |0.5 - 1| = 0.5.
  CHECK(expected_calibration_error(std::vector<double>(4, 1.0), {true, false, true, false}) == Approx(0.5).epsilon(1e-15));
  // Two bins of M = 2: (0, 0.5] holds 0.3 (wrong) and 0.5 (right): |1 - 0.8| = 0.2;
  // (0.5, 1] holds 0.9, 0.7 (both right) and 0.6 (wrong): |2 - 2.2| = 0.2. ECE = (0.2 + 0.2) / 5.
  CHECK(expected_calibration_error({0.3, 0.5, 0.9, 0.7, 0.6}, {false, true, true, true, false}, 2) == Approx(0.08).epsilon(1e-14));
  // The same with one bin: |3 - 3.0| / 5 = 0: one bin hides the miscalibration two reveal.
  CHECK(expected_calibration_error({0.3, 0.5, 0.9, 0.7, 0.6}, {false, true, true, true, false}, 1) == Approx(0.0).margin(1e-15));
  // A confidence of 0 is in the first bin; one on a bin's upper edge (1/3 of M = 3) in that bin.
  CHECK(expected_calibration_error({0.0, 1.0 / 3.0}, {false, false}, 3) == Approx((1.0 / 3.0) / 2).epsilon(1e-14));
  CHECK(expected_calibration_error({0.0, 1.0 / 3.0, 0.5}, {false, false, true}, 3) == Approx((1.0 / 3.0 + 0.5) / 3).epsilon(1e-14));
}

TEST_CASE("Expected calibration error refuses mismatched or out-of-range confidences", "[metrics][calibration][errors]") {
  CHECK_THROWS_AS(expected_calibration_error({}, {}), InvalidArgument);
  CHECK_THROWS_AS(expected_calibration_error({0.5, 0.5}, {true}), InvalidArgument);
  CHECK_THROWS_AS(expected_calibration_error({1.5}, {true}), InvalidArgument);
  CHECK_THROWS_AS(expected_calibration_error({-0.1}, {true}), InvalidArgument);
  CHECK_THROWS_AS(expected_calibration_error({std::nan("")}, {true}), InvalidArgument);
  CHECK_THROWS_AS(expected_calibration_error({0.5}, {true}, 0), InvalidArgument);
}
