// Prints the alignment, uniformity and neural-collapse measures of embeddings read from text
// files, and seed 000's mean-classifier errors and Lemma 1-2 lambdas with LABELS as the strata
// and z % 2 as their classes, one "name value" line each (17 significant digits, "null" when undefined), for the
// independent numpy cross-check (measures_numpy.py). Test helper, not a user command.
//   measures_driver POINTS LABELS PREDICTIONS PAIRS T
// POINTS: N rows of d numbers; LABELS, PREDICTIONS: N integers; PAIRS: M rows "i j".
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "geomsim/metrics/alignment_uniformity.hpp"
#include "geomsim/metrics/neural_collapse.hpp"
#include "geomsim/metrics/strata_distance_bounds.hpp"

using namespace geomsim;

namespace {

std::vector<std::vector<double>> read_rows(const char* path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::vector<double> row;
    for (double v; fields >> v;) row.push_back(v);
    if (!row.empty()) rows.push_back(row);
  }
  return rows;
}

std::vector<int> read_ints(const char* path) {
  std::vector<int> out;
  for (const auto& row : read_rows(path)) {
    for (double v : row) out.push_back(static_cast<int>(v));
  }
  return out;
}

void print(const char* name, std::optional<double> value) {
  if (value) {
    std::printf("%s %.17g\n", name, *value);
  } else {
    std::printf("%s null\n", name);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::cerr << "usage: measures_driver POINTS LABELS PREDICTIONS PAIRS T\n";
    return 2;
  }
  try {
    const auto rows = read_rows(argv[1]);
    Matrix points(static_cast<Index>(rows.front().size()), static_cast<Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t r = 0; r < rows[i].size(); ++r) points(static_cast<Index>(r), static_cast<Index>(i)) = rows[i][r];
    }
    const std::vector<int> labels = read_ints(argv[2]), predictions = read_ints(argv[3]);
    std::vector<std::pair<Index, Index>> pairs;
    for (const auto& row : read_rows(argv[4])) pairs.emplace_back(static_cast<Index>(row.at(0)), static_cast<Index>(row.at(1)));
    const double t = std::stod(argv[5]);

    print("alignment", pair_alignment(points, pairs));
    print("same_class_alignment", same_class_alignment(points, labels));
    print("uniformity", uniformity(points, t));
    const NeuralCollapse nc = neural_collapse(points, labels);
    print("nc1", nc.nc1);
    print("between_rank", static_cast<double>(nc.between_rank));
    print("equinorm", nc.equinorm);
    print("equiangularity", nc.equiangularity);
    print("max_cosine_deviation", nc.max_cosine_deviation);
    print("cosine_sd", nc.cosine_sd);
    print("nc4", nearest_class_mean_agreement(points, labels, predictions));
    std::vector<int> classes;
    for (int z : labels) classes.push_back(z % 2);
    const StrataMeanClassifier strata = strata_mean_classifier(points, classes, labels);
    print("transfer_loss", strata.transfer_loss);
    print("original_loss", strata.original_loss);
    print("lemma1_lambda", smallest_strata_lambda(strata, StrataTask::coarse_to_fine, StrataDistanceForm::exact));
    print("lemma2_lambda", smallest_strata_lambda(strata, StrataTask::original, StrataDistanceForm::exact));
    print("lemma1_lambda_printed", smallest_strata_lambda(strata, StrataTask::coarse_to_fine, StrataDistanceForm::printed));
    print("lemma2_lambda_printed", smallest_strata_lambda(strata, StrataTask::original, StrataDistanceForm::printed));
  } catch (const std::exception& error) {
    std::cerr << "measures_driver: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
