// geomsim_gpu_bench: the GPU measurements of the GPU check (tests/gpu/gpu_check.sh), as one JSON
// object. Each timing is against a peer measured in the same run on the same machine.
//   training: samples/s of geomsim's training step (two augmented views, encoder, L_spread,
//     AdamW) for the CNN, geomsim's ViT and seed 004's ViT size (Appendix F.2: "7 multi-head
//     attention layers with 8 attention heads and hidden MLP size of 256": width 128), at batch
//     256 and 1024, in float32 and with the encoder under bf16 autocast (the loss in float32);
//     the second of two epochs, so that start-up costs are not counted; with its steps' time by
//     phase (TrainOptions::time_phases: CUDA events at the phases' ends), in milliseconds per
//     step: phases_ms_per_step {augmentation, forward, loss, backward, optimizer, other}, measured
//     in the same run (seven event records a step, a few microseconds);
//   epoch: one full Fashion-MNIST training epoch (60 000 images; the real images when
//     --fashion-mnist names their folder, else random images of the same shape), CNN, batch 256,
//     with the second epoch's phases_ms_per_step;
//   objective: L_spread and its gradient (train::TensorSpreadObjective) at N = 10^5, d = 128 in
//     float64, against the GPU's own GEMM of the same size (the N x N x d product of the same
//     tiles into one reused tile), and at N = 2 10^4 against the core on this machine's CPUs.
// Usage: geomsim_gpu_bench --out FILE [--fashion-mnist DIR] [--quick] [--device cpu]
#include <torch/torch.h>
#include <torch/version.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <omp.h>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/objectives/spread_loss.hpp"
#include "geomsim/train/data/cuda_runtime.hpp"
#include "geomsim/train/data/image_files.hpp"
#include "geomsim/train/losses/streamed_contrastive_loss.hpp"
#include "geomsim/train/losses/tensor_spread_objective.hpp"
#include "geomsim/train/training/trainer.hpp"

using nlohmann::json;
using namespace geomsim::train;

namespace {

// The device measured: cuda:0, or the CPU (--device cpu) to try the program where there is no GPU.
torch::Device g_device(torch::kCUDA, 0);

// An epoch's time per phase of its steps, in milliseconds per step.
json phases_per_step(const EpochRecord& epoch) {
  json phases = json::object();
  const double steps = static_cast<double>(std::max<int64_t>(epoch.phases.steps, 1));
  for (int k = 0; k < kStepPhases; ++k) {
    phases[step_phase_names()[static_cast<std::size_t>(k)]] = epoch.phases.ms[static_cast<std::size_t>(k)] / steps;
  }
  return phases;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Samples per second of the second epoch of a run over `n` random images.
json training_throughput(const EncoderOptions& model, const std::string& label, int64_t batch, const std::string& precision,
                         int64_t n) {
  torch::manual_seed(0);
  const torch::Tensor images = torch::rand({n, 1, 28, 28});
  const torch::Tensor labels = torch::remainder(torch::arange(n, torch::kLong), 10);
  TrainOptions o;
  o.epochs = 2;
  o.batch_size = batch;
  o.device = g_device;
  o.precision = precision;
  o.time_phases = true;
  Encoder encoder(model);
  const TrainResult r = train_encoder(encoder, images, labels, 10, o, AugmentationOptions{});
  return {{"model", label},       {"batch", batch}, {"precision", precision}, {"images", n},
          {"samples_per_second", r.epochs.back().samples_per_second}, {"epoch_seconds", r.epochs.back().seconds},
          {"phases_ms_per_step", phases_per_step(r.epochs.back())}};
}

// `limit` > 0: only the first `limit` images (a quick try of the program).
json full_epoch(const std::string& fashion_mnist, int64_t limit) {
  torch::Tensor images, labels;
  std::string source;
  if (!fashion_mnist.empty()) {
    const LabelledImages data = load_fashion_mnist(fashion_mnist, true);
    const auto n = static_cast<int64_t>(data.labels.size());
    images = torch::from_blob(const_cast<std::uint8_t*>(data.images.data.data()), {n, 1, 28, 28}, torch::kUInt8)
                 .to(torch::kFloat) / 255.0;
    labels = torch::tensor(std::vector<int64_t>(data.labels.begin(), data.labels.end()), torch::kLong);
    source = "Fashion-MNIST training split from " + fashion_mnist;
  } else {
    torch::manual_seed(1);
    images = torch::rand({60000, 1, 28, 28});
    labels = torch::remainder(torch::arange(60000, torch::kLong), 10);
    source = "random images of Fashion-MNIST's shape (no --fashion-mnist)";
  }
  if (limit > 0) {
    images = images.narrow(0, 0, limit);
    labels = labels.narrow(0, 0, limit);
  }
  TrainOptions o;
  o.epochs = 2;
  o.batch_size = 256;
  o.device = g_device;
  o.time_phases = true;
  EncoderOptions cnn;
  Encoder encoder(cnn);
  const TrainResult r = train_encoder(encoder, images, labels, 10, o, AugmentationOptions{});
  return {{"images", images.size(0)},
          {"data", source},
          {"model", "cnn"},
          {"batch", 256},
          {"first_epoch_seconds", r.epochs[0].seconds},
          {"second_epoch_seconds", r.epochs[1].seconds},
          {"samples_per_second", r.epochs[1].samples_per_second},
          {"phases_ms_per_step", phases_per_step(r.epochs[1])}};
}

// One evaluation of the objective with gradient on the GPU, median of `reps` after a warm-up,
// and the GEMM of the same tiles.
struct ObjectiveTiming {
  double seconds = 0.0, loss = 0.0;
  torch::Tensor gradient;
};

ObjectiveTiming time_objective(const TensorSpreadObjective& objective, const torch::Tensor& points, int reps) {
  DeviceTimer timer(g_device);
  std::vector<double> seconds;
  ObjectiveTiming out;
  for (int rep = 0; rep <= reps; ++rep) {
    timer.start();
    out.loss = objective.evaluate_points(points, &out.gradient).total();
    const double s = timer.stop();
    if (rep > 0) seconds.push_back(s);
  }
  out.seconds = median(seconds);
  return out;
}

json objective_against_gemm(int64_t N, int64_t d, int reps) {
  std::vector<int> labels(static_cast<std::size_t>(N));
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int>(i % 10);
  const TensorSpreadObjective objective(labels, 0.64, 0.5, g_device);
  torch::manual_seed(2);
  const torch::Tensor points =
      torch::nn::functional::normalize(torch::randn({N, d}, torch::TensorOptions().dtype(torch::kFloat64).device(g_device)),
                                       torch::nn::functional::NormalizeFuncOptions().dim(1));
  DeviceTimer timer(g_device);
  std::vector<double> gemm_seconds;
  const ObjectiveTiming aten = time_objective(objective, points, reps);
  const double loss = aten.loss;
  const auto [rows, columns] = objective.tiles();
  torch::Tensor tile = torch::empty({std::min(rows, N), std::min(columns, N)}, points.options());
  for (int rep = 0; rep <= reps; ++rep) {
    timer.start();
    for (int64_t r0 = 0; r0 < N; r0 += rows) {
      for (int64_t c0 = 0; c0 < N; c0 += columns) {
        const int64_t nr = std::min(rows, N - r0), nc = std::min(columns, N - c0);
        torch::Tensor out = tile.narrow(0, 0, nr).narrow(1, 0, nc);
        at::mm_out(out, points.narrow(0, r0, nr), points.narrow(0, c0, nc).t());
      }
    }
    const double s = timer.stop();
    if (rep > 0) gemm_seconds.push_back(s);
  }
  const double t_objective = aten.seconds, t_gemm = median(gemm_seconds);
  const double flops = 2.0 * static_cast<double>(N) * static_cast<double>(N) * static_cast<double>(d);
  json row = {{"N", N},
              {"d", d},
              {"dtype", "float64"},
              {"tiles", {rows, columns}},
              {"loss", loss},
              {"objective_and_gradient_seconds", t_objective},
              {"gemm_seconds", t_gemm},
              {"gemm_tflops", flops / t_gemm / 1e12},
              {"ratio_to_gemm", t_objective / t_gemm},
              {"target_ratio", 4.0}};  // issue 48: at most 4 GEMMs' time (the floor is about 3)
  if (contrastive_cuda_kernels_built()) {  // the fused element-wise kernels (built with the engine's)
    const TensorSpreadObjective fused_objective(labels, 0.64, 0.5, g_device, {}, /*cuda_kernels=*/true);
    const ObjectiveTiming fused = time_objective(fused_objective, points, reps);
    row["fused_kernels"] = {
        {"objective_and_gradient_seconds", fused.seconds},
        {"ratio_to_gemm", fused.seconds / t_gemm},
        {"loss", fused.loss},
        {"loss_difference", std::abs(fused.loss - aten.loss)},
        {"gradient_difference", (fused.gradient - aten.gradient).abs().max().item<double>() /
                                    aten.gradient.abs().max().item<double>()}};
  }
  return row;
}

// The same evaluation on the GPU and by the core on this machine's CPUs (all threads).
json gpu_against_core(int64_t N, int64_t d) {
  std::vector<int> labels(static_cast<std::size_t>(N));
  for (std::size_t i = 0; i < labels.size(); ++i) labels[i] = static_cast<int>(i % 10);
  const geomsim::Matrix U = geomsim::random_uniform_sphere(static_cast<int>(d), N, 3);
  const geomsim::SpreadLoss core(labels, 0.64, 0.5);
  const TensorSpreadObjective on_gpu(labels, 0.64, 0.5, g_device);
  geomsim::Matrix g_core(d, N), g_gpu(d, N);
  on_gpu.evaluate_with_gradient(U, g_gpu);  // warm-up
  auto start = std::chrono::steady_clock::now();
  const double f_gpu = on_gpu.evaluate_with_gradient(U, g_gpu);
  const double t_gpu = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  start = std::chrono::steady_clock::now();
  const double f_core = core.evaluate_with_gradient(U, g_core);
  const double t_core = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return {{"N", N},
          {"d", d},
          {"gpu_seconds_with_transfers", t_gpu},
          {"core_seconds", t_core},
          {"core_threads", omp_get_max_threads()},
          {"speedup", t_core / t_gpu},
          {"loss_difference", std::abs(f_gpu - f_core)},
          {"gradient_max_difference", (g_gpu - g_core).cwiseAbs().maxCoeff()},
          {"gradient_max", g_core.cwiseAbs().maxCoeff()}};
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path, fashion_mnist;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--out" && i + 1 < argc) {
      out_path = argv[++i];
    } else if (arg == "--fashion-mnist" && i + 1 < argc) {
      fashion_mnist = argv[++i];
    } else if (arg == "--quick") {
      quick = true;
    } else if (arg == "--device" && i + 1 < argc && std::string(argv[i + 1]) == "cpu") {
      g_device = torch::Device(torch::kCPU);
      ++i;
    } else {
      std::cerr << "usage: geomsim_gpu_bench --out FILE [--fashion-mnist DIR] [--quick] [--device cpu]\n";
      return 2;
    }
  }
  if (out_path.empty()) {
    std::cerr << "geomsim_gpu_bench: --out FILE is required\n";
    return 2;
  }
  if (g_device.is_cuda() && !torch::cuda::is_available()) {
    std::cout << "geomsim_gpu_bench: no CUDA device: nothing measured\n";
    return 77;
  }
  json report;
  const auto memory = cuda_memory(g_device);
  report["device"] = {{"cuda_devices", torch::cuda::device_count()},
                      {"memory_bytes", memory ? memory->total_bytes : 0.0},
                      {"torch", TORCH_VERSION}};
  const auto save = [&] {  // after every section, so that a run stopped midway leaves what it measured
    std::ofstream(out_path) << report.dump(2) << "\n";
  };
  try {
    report["objective"] = json::array();
    for (const int64_t N : quick ? std::vector<int64_t>{2000} : std::vector<int64_t>{20000, 100000}) {
      report["objective"].push_back(objective_against_gemm(N, 128, quick ? 1 : 3));
      std::cout << report["objective"].back().dump() << std::endl;
      save();
    }
    report["objective_vs_core"] = gpu_against_core(quick ? 2000 : 20000, 128);
    std::cout << report["objective_vs_core"].dump() << std::endl;
    save();
    EncoderOptions cnn, vit, vit_paper;
    vit.kind = "vit";
    vit_paper.kind = "vit";
    vit_paper.width = 128;
    vit_paper.vit_layers = 7;
    vit_paper.vit_heads = 8;
    report["training"] = json::array();
    for (const auto& [model, label] : std::vector<std::pair<EncoderOptions, std::string>>{
             {cnn, "cnn"}, {vit, "vit (geomsim: 2 layers, 4 heads, width 128)"}, {vit_paper, "vit (seed 004 F.2: 7 layers, 8 heads, width 128)"}}) {
      for (const int64_t batch : {256, 1024}) {
        for (const std::string precision : {"float32", "bf16"}) {
          report["training"].push_back(training_throughput(model, label, quick ? batch / 8 : batch, precision,
                                                           quick ? batch / 4 : 16 * batch));
          std::cout << report["training"].back().dump() << std::endl;
          save();
        }
      }
    }
    {
      report["epoch"] = full_epoch(fashion_mnist, quick ? 2048 : 0);
      std::cout << report["epoch"].dump() << std::endl;
      save();
    }
  } catch (const std::exception& e) {
    report["error"] = std::string(e.what()).substr(0, 2000);
    save();
    std::cerr << "geomsim_gpu_bench: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
