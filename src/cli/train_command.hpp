#pragma once
// `geomsim train`: train an encoder on Fashion-MNIST coarse labels with one of the papers'
// losses, then evaluate coarse accuracy, coarse-to-fine transfer and the embedding geometry.
// Built only with libtorch.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "image_data.hpp"

namespace geomsim::cli {

struct TrainCommandOptions {
  DataOptions data;
  std::string model = "cnn";
  std::string loss = "spread";
  double alpha = 0.5, tau = 0.5;
  bool exclude_partner = false;
  double reconstruction_weight = 1.0;
  double kernel_lambda = 0.1, kernel_bandwidth = 1.0;
  double gamma = 1.1;  // Theorem 3's margin
  bool general_autoencoder = false;
  int64_t epochs = 1, batch_size = 256, embedding_dim = 128, width = 128;
  double learning_rate = 1e-3, weight_decay = 1e-4;
  uint64_t seed = 0;
  int64_t train_samples = 0, test_samples = 0, stop_after = 0;
  int threads = 0;  // 0: all cores
  std::string checkpoint, json_path;
  bool quiet = false;
};

void add_train_options(CLI::App& command, TrainCommandOptions& options);
int run_train(const TrainCommandOptions& options);

// `geomsim train-sweep`: L_spread training at several alpha against the simulated optimum.
struct TrainSweepOptions {
  TrainCommandOptions train;
  std::string alphas;
  int sim_ny = 8;
  std::string sim_seeds = "0:4";
  std::string out;
};
void add_train_sweep_options(CLI::App& command, TrainSweepOptions& options);
int run_train_sweep(const TrainSweepOptions& options);

}  // namespace geomsim::cli
