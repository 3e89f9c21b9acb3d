#include "train_command.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "cli_support.hpp"
#include "geomsim/atomic_output.hpp"
#include "geomsim/errors.hpp"
#include "geomsim/gnuplot_figure.hpp"
#include "geomsim/number_lists.hpp"
#include "geomsim/sweep.hpp"
#include "geomsim/random.hpp"
#include "geomsim/train/evaluation.hpp"
#include "geomsim/train/image_files.hpp"
#include "geomsim/train/label_hierarchy.hpp"
#include "geomsim/train/trainer.hpp"

namespace geomsim::cli {
namespace {

using nlohmann::json;

struct Split {
  torch::Tensor images, coarse, fine;
};

// The hierarchy's kept examples (all, or the imbalanced subset), then the first `limit` of a
// seeded shuffle (0: all), as float images in [0, 1].
Split prepare(const train::LabelledImages& data, const train::LabelHierarchy& h, int64_t limit, std::uint64_t seed) {
  std::vector<std::size_t> idx = train::kept_indices(h, data.labels, seed);
  Rng rng(seed + 1);
  rng.shuffle(idx);
  if (limit > 0 && static_cast<std::size_t>(limit) < idx.size()) idx.resize(static_cast<std::size_t>(limit));
  const auto item = static_cast<int64_t>(data.images.item_size());
  const auto all = torch::from_blob(const_cast<std::uint8_t*>(data.images.data.data()),
                                    {static_cast<int64_t>(data.images.count()), item}, torch::kUInt8);
  std::vector<int64_t> rows(idx.begin(), idx.end()), fine, coarse;
  for (std::size_t i : idx) {
    fine.push_back(data.labels[i]);
    coarse.push_back(h.coarse_of_fine[static_cast<std::size_t>(data.labels[i])]);
  }
  Split s;
  s.images = all.index_select(0, torch::tensor(rows)).to(torch::kFloat).div(255.0).view({-1, 1, 28, 28});
  s.fine = torch::tensor(fine);
  s.coarse = torch::tensor(coarse);
  return s;
}

}  // namespace

void add_train_options(CLI::App& c, TrainCommandOptions& o) {
  c.footer(
      "Recipes (seed 004's Table 3, scaled to a CPU):\n"
      "  SupCon:    geomsim train --loss supcon --tau 0.5\n"
      "  L_spread:  geomsim train --loss spread --alpha 0.5 --tau 0.5\n"
      "  SimCLR:    geomsim train --loss simclr --tau 0.5   (no labels)\n"
      "  CE:        geomsim train --loss ce\n"
      "  THANOS:    geomsim train --loss thanos --alpha 0.5   (L_spread + class-conditional autoencoder)\n"
      "  ablation:  geomsim train --loss thanos --general-autoencoder   (one decoder for all classes)\n"
      "Coarse labels come from --hierarchy; the fine labels (the 10 classes) are the subclasses of\n"
      "the coarse-to-fine evaluation. --train-samples and --epochs set the budget.");
  c.add_option("--data", o.data, "folder with Fashion-MNIST's IDX files (default: Debian's dataset-fashion-mnist)");
  c.add_option("--hierarchy", o.hierarchy, "coarse labels: fmnist-2, fmnist-4 or fmnist-4-imbalanced")->capture_default_str();
  c.add_option("--model", o.model, "encoder: mlp, cnn or vit")->capture_default_str();
  c.add_option("--loss", o.loss, "spread, supcon, simclr, ce or thanos")->capture_default_str();
  c.add_option("--reconstruction-weight", o.reconstruction_weight, "THANOS: weight of the autoencoder's reconstruction loss")
      ->capture_default_str();
  c.add_flag("--general-autoencoder", o.general_autoencoder, "THANOS ablation: one decoder for all classes");
  c.add_option("--alpha", o.alpha, "L_spread's weight of cNCE, in [0, 1]")->capture_default_str();
  c.add_option("--tau", o.tau, "temperature > 0")->capture_default_str();
  c.add_flag("--exclude-partner", o.exclude_partner, "cNCE's denominator without a(x) (eq. 3) instead of with it (eq. 10)");
  c.add_option("--epochs", o.epochs, "epochs of the cosine schedule")->capture_default_str();
  c.add_option("--stop-after", o.stop_after, "stop after this many epochs (resume later with --checkpoint)");
  c.add_option("--batch-size", o.batch_size, "samples per step (two views each)")->capture_default_str();
  c.add_option("--lr", o.learning_rate, "AdamW learning rate")->capture_default_str();
  c.add_option("--weight-decay", o.weight_decay, "AdamW weight decay")->capture_default_str();
  c.add_option("--embedding-dim", o.embedding_dim, "embedding size")->capture_default_str();
  c.add_option("--width", o.width, "hidden width of the encoder")->capture_default_str();
  c.add_option("--seed", o.seed, "seed of everything random")->capture_default_str();
  c.add_option("--threads", o.threads, "CPU threads for libtorch (0: all cores)")->capture_default_str();
  c.add_option("--train-samples", o.train_samples, "use this many training images (0: all 60000)")->capture_default_str();
  c.add_option("--test-samples", o.test_samples, "evaluate on this many test images (0: all 10000)")->capture_default_str();
  c.add_option("--checkpoint", o.checkpoint, "checkpoint file, written every epoch; an existing one is resumed");
  c.add_option("--json", o.json_path, "write the run (parameters, epochs, evaluation) as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
}

namespace {

// One training run and its evaluation, as the JSON object `geomsim train` writes.
json train_and_evaluate(const TrainCommandOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  const train::LabelHierarchy hierarchy = train::fashion_mnist_hierarchy(o.hierarchy);
  train::EncoderOptions model;
  model.kind = o.model;
  model.embedding_dim = o.embedding_dim;
  model.width = o.width;
  train::validate(model);
  train::TrainOptions t;
  t.loss = o.loss;
  t.alpha = o.alpha;
  t.tau = o.tau;
  t.include_partner = !o.exclude_partner;
  t.epochs = o.epochs;
  t.batch_size = o.batch_size;
  t.learning_rate = o.learning_rate;
  t.weight_decay = o.weight_decay;
  t.seed = o.seed;
  t.checkpoint = o.checkpoint;
  t.stop_after = o.stop_after;
  t.reconstruction_weight = o.reconstruction_weight;
  train::validate(t);
  require_at_least("train-samples", o.train_samples, 0);
  require_at_least("test-samples", o.test_samples, 0);
  if (!o.checkpoint.empty()) require_writable_path(o.checkpoint, "checkpoint");
  require_at_least("threads", o.threads, 0);
  torch::set_num_threads(o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  const std::string dir = o.data.empty() ? train::kFashionMnistDir : o.data;
  const Split training = prepare(train::load_fashion_mnist(dir, true), hierarchy, o.train_samples, o.seed);
  const Split test = prepare(train::load_fashion_mnist(dir, false), hierarchy, o.test_samples, o.seed + 7);

  torch::manual_seed(o.seed);
  train::Encoder encoder(model);
  train::Autoencoder autoencoder{nullptr};
  if (o.loss == "thanos") {
    train::AutoencoderOptions ae;
    ae.classes = hierarchy.num_coarse();
    ae.class_conditional = !o.general_autoencoder;
    autoencoder = train::Autoencoder(ae);
  }
  const bool progress = !o.quiet && isatty(fileno(stderr)) != 0;
  const train::TrainResult result =
      train::train_encoder(encoder, training.images, training.coarse, hierarchy.num_coarse(), t, train::AugmentationOptions{},
                           [&](const std::string& line) {
                             if (progress) std::cerr << "geomsim train: " << line << "\n";
                           },
                           autoencoder);
  const auto train_z = train::embed(encoder, training.images, 1024, autoencoder);
  const auto test_z = train::embed(encoder, test.images, 1024, autoencoder);
  const double coarse_accuracy = train::linear_probe_accuracy(train_z, training.coarse, test_z, test.coarse, 300, 0.05, o.seed);
  const double fine_probe = train::linear_probe_accuracy(train_z, training.fine, test_z, test.fine, 300, 0.05, o.seed);
  const double fine_mean = train::mean_classifier_accuracy(train_z, training.fine, test_z, test.fine);
  const train::EmbeddingGeometry geometry = train::embedding_geometry(test_z, test.coarse, test.fine);
  const double subgroup_f1 = train::subgroup_recovery_f1(test_z, test.coarse, test.fine, o.seed);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  json epochs = json::array();
  for (const auto& e : result.epochs) {
    epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}, {"samples_per_second", e.samples_per_second}});
  }
  const bool finished = static_cast<int64_t>(result.epochs.size()) == o.epochs;
  json out = {{"command", "train"},
              {"parameters",
               {{"data", dir}, {"hierarchy", o.hierarchy}, {"model", o.model}, {"loss", o.loss}, {"alpha", o.alpha},
                {"tau", o.tau}, {"include_partner", !o.exclude_partner}, {"reconstruction_weight", o.reconstruction_weight},
                {"general_autoencoder", o.general_autoencoder}, {"epochs", o.epochs}, {"batch_size", o.batch_size},
                {"lr", o.learning_rate}, {"weight_decay", o.weight_decay}, {"embedding_dim", o.embedding_dim},
                {"width", o.width}, {"seed", o.seed}, {"threads", torch::get_num_threads()}, {"train_samples", training.images.size(0)},
                {"test_samples", test.images.size(0)}, {"checkpoint", o.checkpoint}}},
              {"device", result.device},
              {"resumed_epochs", result.resumed_epochs},
              {"finished", finished},
              {"epochs", epochs},
              {"evaluation",
               {{"coarse_accuracy_linear_probe", coarse_accuracy},
                {"fine_accuracy_linear_probe", fine_probe},
                {"fine_accuracy_mean_classifier", fine_mean},
                {"spread", geometry.spread},
                {"subclass_sigma", geometry.subclass_sigma},
                {"sigma_over_spread", geometry.sigma_over_spread},
                {"subgroup_recovery_f1", subgroup_f1}}},
              {"seconds", seconds}};
  return out;
}

}  // namespace

int run_train(const TrainCommandOptions& o) {
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  const json out = train_and_evaluate(o);
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (!o.quiet) {
    const json& p = out["parameters"];
    const json& e = out["evaluation"];
    std::ostringstream text;
    text << "geomsim train: " << o.model << " on Fashion-MNIST " << o.hierarchy << " (" << p["train_samples"].get<int64_t>()
         << " train, " << p["test_samples"].get<int64_t>() << " test images), loss " << o.loss << ", tau " << o.tau;
    if (o.loss == "spread" || o.loss == "thanos") text << ", alpha " << o.alpha;
    if (o.loss == "thanos") text << (o.general_autoencoder ? ", general autoencoder" : ", class-conditional autoencoder");
    text << ", " << out["device"].get<std::string>() << "\n";
    for (const auto& epoch : out["epochs"]) {
      text << "  epoch " << epoch["epoch"].get<int64_t>() << ": loss " << fixed(epoch["loss"].get<double>(), 6) << ", "
           << fixed(epoch["samples_per_second"].get<double>(), 4) << " samples/s\n";
    }
    if (!out["finished"].get<bool>()) {
      text << "  stopped after " << out["epochs"].size() << " of " << o.epochs << " epochs (--stop-after)\n";
    }
    text << "  coarse accuracy (linear probe)          " << fixed(e["coarse_accuracy_linear_probe"].get<double>(), 4) << "\n"
         << "  coarse-to-fine accuracy (linear probe)  " << fixed(e["fine_accuracy_linear_probe"].get<double>(), 4) << "\n"
         << "  coarse-to-fine accuracy (mean classif.) " << fixed(e["fine_accuracy_mean_classifier"].get<double>(), 4) << "\n"
         << "  spread s_f(y)                           " << fixed(e["spread"].get<double>(), 4) << "\n"
         << "  subclass sigma_f(z)                     " << fixed(e["subclass_sigma"].get<double>(), 4) << "\n"
         << "  sigma_f(z) / s_f(y)                     " << fixed(e["sigma_over_spread"].get<double>(), 4) << "\n"
         << "  subgroup recovery (k-means macro F1)    " << fixed(e["subgroup_recovery_f1"].get<double>(), 4) << "\n"
         << "  time                                    " << fixed(out["seconds"].get<double>(), 3) << " s\n";
    std::cout << text.str() << std::flush;
  }
  return 0;
}

void add_train_sweep_options(CLI::App& c, TrainSweepOptions& o) {
  add_train_options(c, o.train);
  c.footer("Trains with L_spread at each --alphas value (other options as for `geomsim train`), measures the\n"
           "spread s_f(y) of the test embeddings, and sets it beside the simulated optimum of the core at the same\n"
           "K (the hierarchy's classes), d (--embedding-dim) and tau, with --sim-ny points per class.");
  c.add_option("--alphas", o.alphas, "alpha values: a list or a range lo:hi:step")->required();
  c.add_option("--sim-ny", o.sim_ny, "points per class of the simulation")->capture_default_str();
  c.add_option("--sim-seeds", o.sim_seeds, "random starts of the simulation")->capture_default_str();
  c.add_option("--out", o.out, "output stem: writes STEM.csv, STEM.png, STEM.svg, STEM.gp")->required();
}

int run_train_sweep(const TrainSweepOptions& o) {
  const std::vector<double> alphas = parse_number_list(o.alphas, "alphas");
  for (double a : alphas) require_in_closed_range("alphas", a, 0.0, 1.0);
  require_at_least("sim-ny", o.sim_ny, 2);
  if (o.train.loss != "spread") throw InvalidArgument("loss", "must be spread for train-sweep (it sweeps L_spread's alpha)");
  require_writable_path(o.out + ".csv", "out");
  const int K = train::fashion_mnist_hierarchy(o.train.hierarchy).num_coarse();
  const int d = static_cast<int>(o.train.embedding_dim);

  // The simulation: the core's optimum at the same K, d and tau.
  SweepGrid grid;
  grid.K = {K};
  grid.ny = {o.sim_ny};
  grid.d = {std::max(d, 2)};
  grid.tau = {o.train.tau};
  grid.alpha = alphas;
  SolveSettings settings;
  settings.seeds = parse_seed_list(o.sim_seeds, "sim-seeds");
  const auto simulated = run_sweep(sweep_points(grid), settings, format_seed_list(settings.seeds), {});

  std::string csv = "alpha,trained_spread,trained_sigma_over_spread,trained_coarse_accuracy,trained_fine_accuracy,"
                    "simulated_spread,simulated_geometry\n";
  std::vector<std::vector<double>> trained_rows, simulated_rows;
  for (std::size_t k = 0; k < alphas.size(); ++k) {
    TrainCommandOptions run = o.train;
    run.alpha = alphas[k];
    run.checkpoint.clear();
    const json out = train_and_evaluate(run);
    const json& e = out["evaluation"];
    const double spread = e["spread"].get<double>();
    if (!o.train.quiet) {
      std::cerr << "geomsim train-sweep: alpha " << alphas[k] << ": trained spread " << fixed(spread, 4) << ", simulated "
                << fixed(simulated[k].spread, 4) << "\n";
    }
    csv += format_number(alphas[k]) + "," + format_number(spread) + "," + format_number(e["sigma_over_spread"].get<double>()) +
           "," + format_number(e["coarse_accuracy_linear_probe"].get<double>()) + "," +
           format_number(e["fine_accuracy_linear_probe"].get<double>()) + "," + format_number(simulated[k].spread) + "," +
           simulated[k].geometry + "\n";
    trained_rows.push_back({alphas[k], spread});
    simulated_rows.push_back({alphas[k], simulated[k].spread});
  }
  GnuplotFigure fig(900, 560);
  fig.datablock("trained", trained_rows);
  fig.datablock("simulated", simulated_rows);
  fig.line("set title \"Spread against α: trained " + o.train.model + " on Fashion-MNIST " + o.train.hierarchy +
           " vs the simulated optimum (K = " + std::to_string(K) + ", d = " + std::to_string(d) + ", τ = " +
           format_number(o.train.tau) + ")\"");
  fig.line("set xlabel 'α (weight of cNCE)'; set ylabel 'spread s_f(y)'; set grid; set key top left box opaque");
  fig.line("set yrange [0:*]");
  fig.line("plot $trained using 1:2 with linespoints lw 2 pt 7 title 'trained encoder (test set)', "
           "$simulated using 1:2 with linespoints lw 2 pt 5 dt 2 title 'simulated optimum, n_y = " + std::to_string(o.sim_ny) + "'");
  {
    OutputTransaction outputs;
    outputs.stage(o.out + ".csv", csv, "out");
    outputs.commit();
  }
  fig.render(o.out);
  if (!o.train.quiet) std::cout << "geomsim train-sweep: " << alphas.size() << " alphas written to " << o.out << ".csv and .png\n";
  return 0;
}

}  // namespace geomsim::cli
