#include "geomsim/train/distributed/data_parallel.hpp"
#include "geomsim/train/training/evaluation.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "geomsim/metrics/calibration.hpp"
#include "geomsim/metrics/ridge_regression.hpp"
#include "geomsim/metrics/subgroup_recovery.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_corruptions.hpp"
#include "geomsim/train/data/tensor_points.hpp"

namespace geomsim::train {
namespace {

void check_pair(const torch::Tensor& embeddings, const torch::Tensor& labels, const char* what) {
  if (embeddings.dim() != 2 || labels.dim() != 1 || embeddings.size(0) != labels.size(0) || embeddings.size(0) == 0) {
    throw InvalidArgument(what, "needs N x d embeddings and N labels, N >= 1");
  }
}

}  // namespace

torch::Tensor embed(Encoder& encoder, const torch::Tensor& images, int64_t batch_size, Autoencoder autoencoder) {
  require_at_least("batch_size", batch_size, 1);
  if (!encoder && !autoencoder) throw InvalidArgument("model", "needs an encoder or an autoencoder to embed with");
  torch::NoGradGuard no_grad;
  if (encoder) encoder->eval();
  if (autoencoder) autoencoder->eval();
  const auto device = (encoder ? encoder->parameters() : autoencoder->parameters()).front().device();
  const auto unit = torch::nn::functional::NormalizeFuncOptions().dim(1);
  std::vector<torch::Tensor> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    const int64_t count = std::min(batch_size, images.size(0) - start);
    const auto x = images.narrow(0, start, count).to(device);
    torch::Tensor z;
    if (!encoder) {
      z = torch::nn::functional::normalize(autoencoder->encode(x), unit);
    } else {
      z = encoder->forward(x);
      if (autoencoder) z = torch::cat({z, torch::nn::functional::normalize(autoencoder->encode(x), unit)}, 1) / std::sqrt(2.0);
    }
    parts.push_back(z.to(torch::kCPU));
  }
  return torch::cat(parts);
}

torch::Tensor embed(Encoder& encoder, const torch::Tensor& images, const DistributedContext& job, Autoencoder autoencoder) {
  if (!job.distributed() || images.size(0) == 0) return embed(encoder, images, 1024, autoencoder);
  return gather_row_shards(job, images.size(0), [&](int64_t first, int64_t count) {
           return embed(encoder, images.narrow(0, first, count), 1024, autoencoder);
         }).to(torch::kCPU);
}

torch::Tensor classifier_logits(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& images, int64_t batch_size) {
  require_at_least("batch_size", batch_size, 1);
  if (!encoder || !head) throw InvalidArgument("model", "needs an encoder and a classifier head");
  torch::NoGradGuard no_grad;
  encoder->eval();
  head->eval();
  const auto device = encoder->parameters().front().device();
  std::vector<torch::Tensor> parts;
  for (int64_t start = 0; start < images.size(0); start += batch_size) {
    const int64_t count = std::min(batch_size, images.size(0) - start);
    parts.push_back(head->forward(encoder->features(images.narrow(0, start, count).to(device))).to(torch::kCPU));
  }
  if (parts.empty()) return torch::zeros({0, head->options.out_features()});
  return torch::cat(parts);
}

torch::nn::Linear fit_linear_probe(const torch::Tensor& train_x, const torch::Tensor& train_y, int64_t classes, int64_t steps,
                                   double learning_rate, uint64_t seed) {
  check_pair(train_x, train_y, "probe");
  torch::manual_seed(seed);
  torch::nn::Linear probe(train_x.size(1), classes);
  torch::optim::Adam optimizer(probe->parameters(), torch::optim::AdamOptions(learning_rate));
  const auto x = train_x.detach().to(torch::kFloat), y = train_y.to(torch::kLong);
  for (int64_t step = 0; step < steps; ++step) {
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(probe->forward(x), y);
    loss.backward();
    optimizer.step();
  }
  return probe;
}

double linear_probe_accuracy(const torch::Tensor& train_x, const torch::Tensor& train_y, const torch::Tensor& test_x,
                             const torch::Tensor& test_y, int64_t steps, double learning_rate, uint64_t seed) {
  check_pair(train_x, train_y, "probe");
  check_pair(test_x, test_y, "probe");
  const int64_t classes = std::max(train_y.max().item<int64_t>(), test_y.max().item<int64_t>()) + 1;
  auto probe = fit_linear_probe(train_x, train_y, classes, steps, learning_rate, seed);
  torch::NoGradGuard no_grad;
  const auto predicted = probe->forward(test_x.to(torch::kFloat)).argmax(1);
  return predicted.eq(test_y.to(torch::kLong)).to(torch::kDouble).mean().item<double>();
}

double mean_classifier_accuracy(const torch::Tensor& train_x, const torch::Tensor& train_y, const torch::Tensor& test_x,
                                const torch::Tensor& test_y) {
  check_pair(train_x, train_y, "mean classifier");
  check_pair(test_x, test_y, "mean classifier");
  const int64_t classes = std::max(train_y.max().item<int64_t>(), test_y.max().item<int64_t>()) + 1;
  const auto y = train_y.to(torch::kLong);
  auto sums = torch::zeros({classes, train_x.size(1)}, train_x.options()).index_add_(0, y, train_x);
  const auto counts = torch::bincount(y, {}, classes).to(train_x.dtype()).clamp_min(1).unsqueeze(1);
  const auto W = sums / counts;
  const auto predicted = torch::matmul(test_x, W.t()).argmax(1);
  return predicted.eq(test_y.to(torch::kLong)).to(torch::kDouble).mean().item<double>();
}


double background_colour_mse(const torch::Tensor& train_z, const torch::Tensor& train_colours, const torch::Tensor& test_z,
                             const torch::Tensor& test_colours) {
  // to_points gives d x N; the regression takes the rows as samples.
  const Matrix train_x = to_points(train_z).transpose(), test_x = to_points(test_z).transpose();
  const Matrix train_y = to_points(train_colours).transpose() * 255.0, test_y = to_points(test_colours).transpose() * 255.0;
  const RidgeFit fit = fit_ridge(train_x, train_y, kColourRidgeLambda);
  return mean_squared_error(ridge_predict(fit, test_x), test_y);
}

double subgroup_recovery_f1(const torch::Tensor& embeddings, const torch::Tensor& coarse, const torch::Tensor& fine,
                            uint64_t seed) {
  check_pair(embeddings, coarse, "subgroups");
  check_pair(embeddings, fine, "subgroups");
  return subgroup_recovery(to_points(embeddings), to_ints(coarse), to_ints(fine), seed).macro_f1;
}

EmbeddingGeometry embedding_geometry(const torch::Tensor& embeddings, const torch::Tensor& coarse, const torch::Tensor& fine,
                                     double gamma, const torch::Tensor& reference, const torch::Tensor& reference_fine) {
  check_pair(embeddings, coarse, "geometry");
  check_pair(embeddings, fine, "geometry");
  require_margin_gamma(gamma);
  if (!reference.defined()) return measure_embedding_geometry(to_points(embeddings), to_ints(coarse), to_ints(fine), gamma);
  check_pair(reference, reference_fine, "reference");
  const Matrix reference_points = to_points(reference);
  const std::vector<int> reference_labels = to_ints(reference_fine);
  return measure_embedding_geometry(to_points(embeddings), to_ints(coarse), to_ints(fine), gamma, &reference_points, &reference_labels);
}

namespace {

// The accuracy and expected calibration error of `logits_of` (images -> logits, N x classes) on
// the test images as they are and under every corruption at every severity, each corruption
// drawn from `seed` (corrupt_images).
template <typename LogitsOf>
CorruptionEvaluation corruption_scores(const LogitsOf& logits_of, const torch::Tensor& test_images,
                                       const torch::Tensor& test_labels, uint64_t seed) {
  const auto labels = test_labels.to(torch::kLong);
  const auto score = [&](const torch::Tensor& images) {
    const torch::Tensor logits = logits_of(images);
    torch::NoGradGuard no_grad;
    const auto probabilities = torch::softmax(logits.to(torch::kDouble), 1);
    const auto [confidence, predicted] = probabilities.max(1);
    const auto right = predicted.eq(labels.to(predicted.device()));
    const std::vector<int> hits = to_ints(right);
    const std::vector<bool> correct(hits.begin(), hits.end());
    return std::make_pair(right.to(torch::kDouble).mean().item<double>(), expected_calibration_error(to_doubles(confidence), correct));
  };
  CorruptionEvaluation out;
  std::tie(out.clean_accuracy, out.clean_ece) = score(test_images);
  const auto& corruptions = image_corruption_names();
  double error = 0.0;
  for (int severity = 1; severity <= kCorruptionSeverities; ++severity) {
    for (const auto& corruption : corruptions) {
      const auto [accuracy, ece] = score(corrupt_images(test_images, corruption, severity, seed));
      out.accuracy[static_cast<std::size_t>(severity - 1)] += accuracy / static_cast<double>(corruptions.size());
      out.ece[static_cast<std::size_t>(severity - 1)] += ece / static_cast<double>(corruptions.size());
      error += 1.0 - accuracy;
    }
  }
  out.mean_error = error / static_cast<double>(corruptions.size() * kCorruptionSeverities);
  return out;
}

}  // namespace

CorruptionEvaluation evaluate_corruptions(Encoder& encoder, Autoencoder autoencoder, const torch::Tensor& train_z,
                                          const torch::Tensor& train_fine, const torch::Tensor& test_images,
                                          const torch::Tensor& test_fine, uint64_t seed, const DistributedContext& job) {
  const int64_t classes = std::max(train_fine.max().item<int64_t>(), test_fine.max().item<int64_t>()) + 1;
  auto probe = fit_linear_probe(train_z, train_fine, classes, 300, 0.05, seed);
  const auto probe_logits = [&](const torch::Tensor& images) {
    const torch::Tensor z = embed(encoder, images, job, autoencoder);
    torch::NoGradGuard no_grad;
    return probe->forward(z.to(torch::kFloat));
  };
  return corruption_scores(probe_logits, test_images, test_fine, seed);
}

CorruptionEvaluation evaluate_head_corruptions(Encoder& encoder, torch::nn::Linear& head, const torch::Tensor& test_images,
                                               const torch::Tensor& test_labels, uint64_t seed) {
  const auto head_logits = [&](const torch::Tensor& images) { return classifier_logits(encoder, head, images); };
  return corruption_scores(head_logits, test_images, test_labels, seed);
}

TransferEvaluation evaluate_transfer(const torch::Tensor& train_z, const torch::Tensor& train_coarse,
                                     const torch::Tensor& train_fine, const torch::Tensor& test_z,
                                     const torch::Tensor& test_coarse, const torch::Tensor& test_fine, uint64_t seed,
                                     double gamma) {
  TransferEvaluation out;
  out.coarse_accuracy = linear_probe_accuracy(train_z, train_coarse, test_z, test_coarse, 300, 0.05, seed);
  out.fine_accuracy_probe = linear_probe_accuracy(train_z, train_fine, test_z, test_fine, 300, 0.05, seed);
  out.fine_accuracy_mean = mean_classifier_accuracy(train_z, train_fine, test_z, test_fine);
  out.geometry = embedding_geometry(test_z, test_coarse, test_fine, gamma, train_z, train_fine);
  out.subgroup_f1 = subgroup_recovery_f1(test_z, test_coarse, test_fine, seed);
  return out;
}

}  // namespace geomsim::train
