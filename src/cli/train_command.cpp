#include "train_command.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/experiments/sweep.hpp"
#include "geomsim/figures/gnuplot_figure.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/train/evaluation.hpp"
#include "geomsim/train/label_hierarchy.hpp"
#include "geomsim/train/trainer.hpp"

namespace geomsim::cli {
using nlohmann::json;

void add_train_options(CLI::App& c, TrainCommandOptions& o) {
  c.footer(
      "Recipes (seed 004's Table 3, scaled to a CPU):\n"
      "  SupCon:    geomsim train --loss supcon --tau 0.5\n"
      "  L_spread:  geomsim train --loss spread --alpha 0.5 --tau 0.5\n"
      "  SimCLR:    geomsim train --loss simclr --tau 0.5   (no labels)\n"
      "  CE:        geomsim train --loss ce\n"
      "  THANOS:    geomsim train --loss thanos --alpha 0.5   (L_spread + class-conditional autoencoder)\n"
      "  ablation:  geomsim train --loss thanos --general-autoencoder   (one decoder for all classes)\n"
      "  SupCon + InfoNCE: --loss supcon+simclr;  SupCon L_in: --loss supcon-in\n"
      "  seed 000:  geomsim train --loss attract-repel --alpha 0.5   (alpha weights L_attract)\n"
      "  CCL-K:     geomsim train --loss cclk-weak | cclk-fair | cclk-hardneg --kernel-lambda 0.1\n"
      "Coarse labels come from --hierarchy; the fine labels (the data set's classes) are the subclasses of\n"
      "the coarse-to-fine evaluation. --train-samples and --epochs set the budget. With --checkpoint the\n"
      "model is saved every epoch; `geomsim eval`, `measure` and `lipschitz` read it. A resume must repeat the options\n"
      "the checkpoint was trained with (the other --stop-after excepted).\n"
      "Exit status: 0 done, 2 bad input (nothing is written), 3 the training diverged (a non-finite loss; the last\n"
      "checkpoint is kept and nothing else is written).");
  add_data_options(c, o.data);
  c.add_option("--model", o.model, "encoder: mlp, cnn or vit")->capture_default_str();
  c.add_option("--loss", o.loss, train::train_loss_list())->capture_default_str();
  c.add_option("--reconstruction-weight", o.reconstruction_weight, "THANOS: weight of the autoencoder's reconstruction loss")
      ->capture_default_str();
  c.add_option("--kernel-lambda", o.kernel_lambda, "CCL-K: lambda of (K_Z + lambda I)^-1 K_Z")->capture_default_str();
  c.add_option("--kernel-bandwidth", o.kernel_bandwidth, "CCL-K HardNeg: Gaussian kernel bandwidth on the embeddings")
      ->capture_default_str();
  c.add_option("--gamma", o.gamma, "Theorem 3's margin gamma > 1 for the gamma-margin error and the bound")->capture_default_str();
  c.add_flag("--general-autoencoder", o.general_autoencoder, "THANOS ablation: one decoder for all classes");
  c.add_option("--alpha", o.alpha, "L_spread's weight of cNCE, in [0, 1]")->capture_default_str();
  c.add_option("--tau", o.tau, "temperature in [" + format_number(kMinTemperature) + ", " + format_number(kMaxTemperature) + "]")
      ->capture_default_str();
  c.add_flag("--exclude-partner", o.exclude_partner, "cNCE's denominator without a(x) (eq. 3) instead of with it (eq. 10)");
  c.add_option("--epochs", o.epochs, "epochs of the cosine schedule, in [1, " + std::to_string(train::kMaxEpochs) + "]")->capture_default_str();
  c.add_option("--stop-after", o.stop_after, "stop after this many epochs (resume later with --checkpoint)");
  c.add_option("--batch-size", o.batch_size, "samples per step (two views each)")->capture_default_str();
  c.add_option("--lr", o.learning_rate, "AdamW learning rate, in (0, " + format_number(train::kMaxLearningRate) + "]")->capture_default_str();
  c.add_option("--weight-decay", o.weight_decay, "AdamW weight decay")->capture_default_str();
  c.add_option("--embedding-dim", o.embedding_dim, "embedding size, >= 2 (refused when the model would not fit in memory)")->capture_default_str();
  c.add_option("--width", o.width, "hidden width of the encoder, >= 4 (refused when the model would not fit in memory)")->capture_default_str();
  c.add_option("--seed", o.seed, "seed of everything random (>= 0)")->capture_default_str()->check(non_negative_integer());
  c.add_option("--threads", o.threads, "CPU threads for libtorch, from 0 (all cores) to the number of cores")->capture_default_str();
  c.add_option("--train-samples", o.train_samples, "use this many training images (0: all 60000)")->capture_default_str();
  c.add_option("--test-samples", o.test_samples, "evaluate on this many test images (0: all 10000)")->capture_default_str();
  c.add_option("--checkpoint", o.checkpoint, "checkpoint file, written every epoch; an existing one is resumed");
  c.add_option("--json", o.json_path, "write the run (parameters, epochs, evaluation) as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
}

namespace {

// One training run and its evaluation, as the JSON object `geomsim train` writes.
json train_and_evaluate(const TrainCommandOptions& given) {
  const auto start = std::chrono::steady_clock::now();
  TrainCommandOptions o = given;
  o.data.hierarchy = data_hierarchy(given.data);  // the data's default when not given
  const train::LabelHierarchy hierarchy = train::resolve_hierarchy(o.data.hierarchy);
  train::EncoderOptions model;
  model.kind = o.model;
  model.embedding_dim = o.embedding_dim;
  model.width = o.width;
  const json run = {{"data", data_source(o.data)}, {"hierarchy", o.data.hierarchy}, {"loss", o.loss},
                    {"alpha", o.alpha},            {"tau", o.tau},                {"seed", o.seed},
                    {"train_samples", o.train_samples}};
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
  t.kernel_lambda = o.kernel_lambda;
  t.kernel_bandwidth = o.kernel_bandwidth;
  t.run_description = run.dump();
  train::validate(t);
  train::require_margin_gamma(o.gamma);
  if (!o.checkpoint.empty()) require_writable_path(o.checkpoint, "checkpoint");
  set_torch_threads(o.threads);
  const LabelledSplit training = load_split(o.data, true, o.train_samples, o.seed, "train-samples");
  const LabelledSplit test = load_split(o.data, false, o.test_samples, o.seed + 7, "test-samples");
  model.channels = training.images.size(1);  // 3 for CIFAR
  model.image_size = training.images.size(3);
  if (training.images.size(2) != model.image_size) throw InvalidArgument("images", "must be square");
  train::validate(model);
  // Before building the model: --width or --embedding-dim 10^8 would end in std::bad_alloc.
  require_memory(o.embedding_dim > o.width ? "embedding-dim" : "width",
                 train::training_memory_bytes(model, std::max<int64_t>(o.batch_size, 1024)),
                 "training the " + o.model + " encoder (weights, gradients, AdamW's state and a batch's activations)");

  torch::manual_seed(o.seed);
  train::Encoder encoder(model);
  train::Autoencoder autoencoder{nullptr};
  if (o.loss == "thanos") {
    train::AutoencoderOptions ae;
    ae.classes = hierarchy.num_coarse();
    ae.class_conditional = !o.general_autoencoder;
    ae.image_size = model.image_size;
    ae.channels = model.channels;
    autoencoder = train::Autoencoder(ae);
  }
  const bool progress = !o.quiet && isatty(fileno(stderr)) != 0;
  const train::TrainResult result =
      train::train_encoder(encoder, training.images, training.coarse, hierarchy.num_coarse(), t,
                           train::default_augmentations(model.channels, model.image_size),
                           [&](const std::string& line) {
                             if (progress) std::cerr << "geomsim train: " << line << "\n";
                           },
                           autoencoder);
  const auto train_z = train::embed(encoder, training.images, 1024, autoencoder);
  const auto test_z = train::embed(encoder, test.images, 1024, autoencoder);
  const train::TransferEvaluation evaluation =
      train::evaluate_transfer(train_z, training.coarse, training.fine, test_z, test.coarse, test.fine, o.seed, o.gamma);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  json epochs = json::array();
  for (const auto& e : result.epochs) {
    epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}, {"samples_per_second", e.samples_per_second}});
  }
  const bool finished = static_cast<int64_t>(result.epochs.size()) == o.epochs;
  json out = {{"command", "train"},
              {"parameters",
               {{"data", data_source(o.data)}, {"hierarchy", o.data.hierarchy}, {"model", o.model}, {"loss", o.loss},
                {"alpha", o.alpha}, {"tau", o.tau}, {"include_partner", !o.exclude_partner},
                {"reconstruction_weight", o.reconstruction_weight}, {"general_autoencoder", o.general_autoencoder},
                {"kernel_lambda", o.kernel_lambda}, {"kernel_bandwidth", o.kernel_bandwidth}, {"epochs", o.epochs},
                {"batch_size", o.batch_size}, {"lr", o.learning_rate}, {"weight_decay", o.weight_decay},
                {"embedding_dim", o.embedding_dim}, {"width", o.width}, {"seed", o.seed}, {"threads", torch::get_num_threads()},
                {"train_samples", training.images.size(0)}, {"test_samples", test.images.size(0)}, {"checkpoint", o.checkpoint}}},
              {"device", result.device},
              {"resumed_epochs", result.resumed_epochs},
              {"finished", finished},
              {"epochs", epochs},
              {"evaluation", evaluation_json(evaluation)},
              {"seconds", seconds}};
  return out;
}

}  // namespace

int run_train(const TrainCommandOptions& o) {
  std::vector<NamedPath> files = data_files(o.data);
  files.push_back({"checkpoint", o.checkpoint});  // read (resume) and written: one file by design
  files.push_back({"json", o.json_path});
  require_distinct_files(files);
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  const json out = train_and_evaluate(o);
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (!o.quiet) {
    const json& p = out["parameters"];
    std::ostringstream text;
    text << "geomsim train: " << o.model << " on " << p["data"].get<std::string>() << ", " << p["hierarchy"].get<std::string>() << " (" << p["train_samples"].get<int64_t>()
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
    text << evaluation_text(out["evaluation"]) << "  time" << std::string(36, ' ') << fixed(out["seconds"].get<double>(), 3) << " s\n";
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
  // Options of `geomsim train` that train-sweep does not use must not be given as if they did something.
  if (!o.train.checkpoint.empty()) throw InvalidArgument("checkpoint", "is not used by train-sweep (each alpha trains from scratch)");
  if (!o.train.json_path.empty()) throw InvalidArgument("json", "is not written by train-sweep (its results are STEM.csv)");
  std::vector<NamedPath> files = data_files(o.train.data);
  for (auto& file : stem_files("out", o.out, {".csv", ".png", ".svg", ".gp"})) files.push_back(file);
  require_distinct_files(files);
  require_writable_path(o.out + ".csv", "out");
  const int K = train::resolve_hierarchy(data_hierarchy(o.train.data)).num_coarse();
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
    csv += format_number(alphas[k]) + "," + format_number(spread) + "," + (e["sigma_over_spread"].is_null() ? std::string() : format_number(e["sigma_over_spread"].get<double>())) +
           "," + format_number(e["coarse_accuracy_linear_probe"].get<double>()) + "," +
           format_number(e["fine_accuracy_linear_probe"].get<double>()) + "," + format_number(simulated[k].spread) + "," +
           simulated[k].geometry + "\n";
    trained_rows.push_back({alphas[k], spread});
    simulated_rows.push_back({alphas[k], simulated[k].spread});
  }
  GnuplotFigure fig(900, 560);
  fig.datablock("trained", trained_rows);
  fig.datablock("simulated", simulated_rows);
  fig.line("set title " + GnuplotFigure::text("Spread against α: trained " + o.train.model + " on " + data_source(o.train.data) +
                                               ", " + data_hierarchy(o.train.data) + " vs the simulated optimum (K = " +
                                               std::to_string(K) + ", d = " + std::to_string(d) + ", τ = " +
                                               format_number(o.train.tau) + ")"));
  fig.line("set xlabel 'α (weight of cNCE)'; set ylabel 'spread s_f(y)'; set grid; set key top left box opaque");
  fig.line("set yrange [0:*]");
  fig.line("plot $trained using 1:2 with linespoints lw 2 pt 7 title 'trained encoder (test set)', "
           "$simulated using 1:2 with linespoints lw 2 pt 5 dt 2 title 'simulated optimum, n_y = " + std::to_string(o.sim_ny) + "'");
  OutputTransaction outputs;  // the CSV and the figure land together or not at all
  outputs.stage(o.out + ".csv", csv, "out");
  fig.render(o.out, outputs);
  outputs.commit();
  if (!o.train.quiet) std::cout << "geomsim train-sweep: " << alphas.size() << " alphas written to " << o.out << ".csv and .png\n";
  return 0;
}

}  // namespace geomsim::cli
