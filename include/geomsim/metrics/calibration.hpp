#pragma once
// Expected calibration error of a classifier's confidences (Guo, Pleiss, Sun & Weinberger, "On
// Calibration of Modern Neural Networks", ICML 2017, §2): the confidences (each prediction's
// largest class probability) are put in M equal-width bins, bin m holding ((m - 1)/M, m/M] (and
// the first also 0), and
//   ECE = sum_m |B_m| / n * |acc(B_m) - conf(B_m)|,
// with acc the fraction of correct predictions and conf the mean confidence in the bin. Seed 001
// reports "the Expected Calibration Error" by corruption severity (§4.2, Fig. 5; supplement,
// Table 4); the 15 bins here are Guo et al.'s choice.
#include <vector>

namespace geomsim {

inline constexpr int kCalibrationBins = 15;

// Throws InvalidArgument naming "confidence" for sizes that differ, no prediction, or a confidence
// outside [0, 1] or not finite, and "bins" below 1.
double expected_calibration_error(const std::vector<double>& confidence, const std::vector<bool>& correct,
                                  int bins = kCalibrationBins);

}  // namespace geomsim
