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
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/training/trainer.hpp"

namespace geomsim::cli {
using nlohmann::json;

void add_train_options(CLI::App& c, TrainCommandOptions& o) {
  c.footer(
      "Recipes (seed 004's Table 3, scaled to a CPU):\n"
      "  SupCon:    geomsim train --loss supcon --tau 0.5\n"
      "  L_spread:  geomsim train --loss spread --alpha 0.5 --tau 0.5\n"
      "  SimCLR:    geomsim train --loss simclr --tau 0.5   (no labels)\n"
      "  CE:        geomsim train --loss ce\n"
      "  THANOS:    geomsim train --loss thanos --alpha 0.5   (L_spread + seed 004 §5's autoencoder: one\n"
      "             decoder, MSE + a label-smoothed cross-entropy head, dropout)\n"
      "  cAuto:     geomsim train --loss autoencoder   (that autoencoder alone);  gAuto: add --autoencoder general\n"
      "  SupCon + cAuto: geomsim train --loss supcon --autoencoder joint\n"
      "  ablations: --autoencoder general (no labels) | per-class (one decoder per class); --no-augmentation\n"
      "  the paper's optimiser (Appendix F.3): --recipe paper   (AdamW lr 3e-4, no weight decay, batch 128)\n"
      "  SupCon + InfoNCE: --loss supcon+simclr;  SupCon L_in: --loss supcon-in\n"
      "  seed 000:  geomsim train --loss attract-repel --alpha 0.5   (alpha weights L_attract)\n"
      "  CCL-K:     geomsim train --loss cclk-weak | cclk-fair | cclk-hardneg --kernel-lambda 0.1\n"
      "  002's conditional InfoNCE (eqs. 3-5): --loss weaksup-infonce | fair-infonce | hardneg-infonce\n"
      "  triplet (000 eq. A7): --loss triplet;  Table 9: --loss clip-positives --clip-cosine 0.5 |\n"
      "             weighted-positives --positive-weight 0.5 | upweighted-negatives --negative-weight 2\n"
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
  c.add_option("--clip-cosine", o.clip_cosine, "clip-positives: the largest cosine a positive counts with in the numerator")
      ->capture_default_str();
  c.add_option("--positive-weight", o.positive_weight, "weighted-positives: weight of the other positives in L_sup's denominator")
      ->capture_default_str();
  c.add_option("--negative-weight", o.negative_weight, "upweighted-negatives: weight of the negatives in L_sup's denominator")
      ->capture_default_str();
  c.add_option("--gamma", o.gamma, "Theorem 3's margin gamma > 1 for the gamma-margin error and the bound")->capture_default_str();
  c.add_option("--autoencoder", o.autoencoder,
               "autoencoder trained alongside and concatenated: joint (seed 004 §5: one decoder, MSE + cross-entropy "
               "head; the default for thanos and autoencoder), per-class (one decoder per class), general (no labels), "
               "or none (the default for the other losses)");
  c.add_flag("--general-autoencoder", o.general_autoencoder, "the same as --autoencoder general");
  c.add_option("--autoencoder-dropout", o.autoencoder_dropout, "dropout rate after the autoencoder's hidden layer (F.3: 0.05)")
      ->capture_default_str();
  c.add_option("--label-smoothing", o.label_smoothing, "label smoothing of the joint autoencoder's cross-entropy head")
      ->capture_default_str();
  c.add_flag("--no-augmentation", o.no_augmentation, "train on the images as they are: the two views are identical");
  c.add_option("--recipe", o.recipe, "geomsim (lr 1e-3, weight decay 1e-4, batch 256), paper (Appendix F.3's coarse training: "
                                     "AdamW lr 3e-4, no weight decay, batch 128) or paper-transfer (F.3's transfer runs: lr "
                                     "1e-3, no weight decay, batch 128); explicit --lr, --weight-decay, --batch-size, "
                                     "--cosine-period win");
  c.add_option("--cosine-period", o.cosine_period, "T_max of the cosine schedule in epochs (0: the run's epochs)")->capture_default_str();
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
  c.parse_complete_callback([&c, &o] {
    o.learning_rate_given = c.count("--lr") > 0;
    o.weight_decay_given = c.count("--weight-decay") > 0;
    o.batch_size_given = c.count("--batch-size") > 0;
    o.cosine_period_given = c.count("--cosine-period") > 0;
  });
}

std::string autoencoder_mode(const TrainCommandOptions& o) {
  if (o.general_autoencoder && !o.autoencoder.empty() && o.autoencoder != "general") {
    throw InvalidArgument("general-autoencoder", "contradicts --autoencoder " + o.autoencoder);
  }
  if (o.general_autoencoder) return "general";
  if (!o.autoencoder.empty()) return o.autoencoder;
  return o.loss == "thanos" || o.loss == "autoencoder" ? "joint" : "none";
}

train::TrainOptions trainer_options(const TrainCommandOptions& o) {
  train::TrainOptions t;
  if (!o.recipe.empty()) train::apply_recipe(train::train_recipe(o.recipe), t);
  if (o.recipe.empty() || o.learning_rate_given) t.learning_rate = o.learning_rate;
  if (o.recipe.empty() || o.weight_decay_given) t.weight_decay = o.weight_decay;
  if (o.recipe.empty() || o.batch_size_given) t.batch_size = o.batch_size;
  if (o.recipe.empty() || o.cosine_period_given) t.cosine_period_epochs = o.cosine_period;
  t.loss = o.loss;
  t.loss_options.alpha = o.alpha;
  t.loss_options.tau = o.tau;
  t.loss_options.include_partner = !o.exclude_partner;
  t.epochs = o.epochs;
  t.seed = o.seed;
  t.checkpoint = o.checkpoint;
  t.stop_after = o.stop_after;
  t.reconstruction_weight = o.reconstruction_weight;
  t.loss_options.kernel_lambda = o.kernel_lambda;
  t.loss_options.kernel_bandwidth = o.kernel_bandwidth;
  t.loss_options.clip_cosine = o.clip_cosine;
  t.loss_options.positive_weight = o.positive_weight;
  t.loss_options.negative_weight = o.negative_weight;
  train::validate(t);
  const std::string mode = autoencoder_mode(o);
  if (mode == "none" && (o.loss == "thanos" || o.loss == "autoencoder")) {
    throw InvalidArgument("autoencoder", "cannot be none for --loss " + o.loss);
  }
  if (mode != "none" && o.loss == "ce") throw InvalidArgument("autoencoder", "must be none for --loss ce");
  return t;
}

TrainedRun train_run(const TrainCommandOptions& given, const std::function<void(const train::StepReport&)>& on_step) {
  const auto start = std::chrono::steady_clock::now();
  TrainCommandOptions o = given;
  o.data.hierarchy = data_hierarchy(given.data);  // the data's default when not given
  TrainedRun run;
  run.hierarchy = train::resolve_hierarchy(o.data.hierarchy);
  train::EncoderOptions model;
  model.kind = o.model;
  model.embedding_dim = o.embedding_dim;
  model.width = o.width;
  const std::string mode = autoencoder_mode(o);
  const json description = {{"data", data_source(o.data)}, {"hierarchy", o.data.hierarchy}, {"loss", o.loss},
                            {"autoencoder", mode},         {"alpha", o.alpha},            {"tau", o.tau},
                            {"seed", o.seed},              {"train_samples", o.train_samples},
                            {"augmentation", !o.no_augmentation}};
  train::TrainOptions t = trainer_options(o);
  t.run_description = description.dump();
  t.on_step = on_step;
  train::require_margin_gamma(o.gamma);
  if (!o.checkpoint.empty()) require_writable_path(o.checkpoint, "checkpoint");
  set_torch_threads(o.threads);
  run.training = load_split(o.data, true, o.train_samples, o.seed, "train-samples");
  run.test = load_split(o.data, false, o.test_samples, o.seed + 7, "test-samples");
  model.channels = run.training.images.size(1);  // 3 for CIFAR
  model.image_size = run.training.images.size(3);
  if (run.training.images.size(2) != model.image_size) throw InvalidArgument("images", "must be square");
  train::validate(model);
  // Before building the model: --width or --embedding-dim 10^8 would end in std::bad_alloc.
  require_memory(o.embedding_dim > o.width ? "embedding-dim" : "width",
                 train::training_memory_bytes(model, std::max<int64_t>(o.batch_size, 1024)),
                 "training the " + o.model + " encoder (weights, gradients, AdamW's state and a batch's activations)");

  torch::manual_seed(o.seed);
  run.encoder = train::Encoder(model);
  if (mode != "none") {
    train::AutoencoderOptions ae;
    ae.classes = run.hierarchy.num_coarse();
    ae.mode = mode;
    ae.image_size = model.image_size;
    ae.channels = model.channels;
    ae.dropout = o.autoencoder_dropout;
    ae.label_smoothing = o.label_smoothing;
    train::validate(ae);
    run.autoencoder = train::Autoencoder(ae);
  }
  const train::AugmentationOptions augmentation =
      o.no_augmentation ? train::no_augmentation() : train::default_augmentations(model.channels, model.image_size);
  const bool progress = !o.quiet && isatty(fileno(stderr)) != 0;
  const auto train_start = std::chrono::steady_clock::now();
  run.result = train::train_encoder(run.encoder, run.training.images, run.training.coarse, run.hierarchy.num_coarse(), t,
                                    augmentation,
                                    [&](const std::string& line) {
                                      if (progress && !on_step) std::cerr << "geomsim train: " << line << "\n";
                                    },
                                    run.autoencoder);
  run.train_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - train_start).count();
  if (o.loss == "autoencoder") run.encoder = train::Encoder{nullptr};  // the embedding is the autoencoder's alone
  run.train_embeddings = train::embed(run.encoder, run.training.images, 1024, run.autoencoder);
  run.test_embeddings = train::embed(run.encoder, run.test.images, 1024, run.autoencoder);
  run.evaluation = train::evaluate_transfer(run.train_embeddings, run.training.coarse, run.training.fine, run.test_embeddings,
                                            run.test.coarse, run.test.fine, o.seed, o.gamma);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

namespace {

// One training run and its evaluation, as the JSON object `geomsim train` writes.
json train_and_evaluate(const TrainCommandOptions& o) {
  const TrainedRun run = train_run(o);
  const train::TrainResult& result = run.result;
  const LabelledSplit& training = run.training;
  const LabelledSplit& test = run.test;
  const train::TrainOptions t = trainer_options(o);
  json epochs = json::array();
  for (const auto& e : result.epochs) {
    epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}, {"samples_per_second", e.samples_per_second}});
  }
  const bool finished = static_cast<int64_t>(result.epochs.size()) == o.epochs;
  json out = {{"command", "train"},
              {"parameters",
               {{"data", data_source(o.data)}, {"hierarchy", data_hierarchy(o.data)}, {"model", o.model}, {"loss", o.loss},
                {"alpha", o.alpha}, {"tau", o.tau}, {"include_partner", !o.exclude_partner},
                {"reconstruction_weight", o.reconstruction_weight}, {"autoencoder", autoencoder_mode(o)},
                {"autoencoder_dropout", o.autoencoder_dropout}, {"label_smoothing", o.label_smoothing},
                {"augmentation", !o.no_augmentation}, {"recipe", o.recipe.empty() ? "geomsim" : o.recipe},
                {"cosine_period", t.cosine_period_epochs},
                {"kernel_lambda", o.kernel_lambda}, {"kernel_bandwidth", o.kernel_bandwidth}, {"clip_cosine", o.clip_cosine},
                {"positive_weight", o.positive_weight}, {"negative_weight", o.negative_weight}, {"epochs", o.epochs},
                {"batch_size", t.batch_size}, {"lr", t.learning_rate}, {"weight_decay", t.weight_decay},
                {"embedding_dim", o.embedding_dim}, {"width", o.width}, {"seed", o.seed}, {"threads", torch::get_num_threads()},
                {"train_samples", training.images.size(0)}, {"test_samples", test.images.size(0)}, {"checkpoint", o.checkpoint}}},
              {"device", result.device},
              {"resumed_epochs", result.resumed_epochs},
              {"finished", finished},
              {"epochs", epochs},
              {"evaluation", evaluation_json(run.evaluation)},
              {"seconds", run.seconds}};
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
    if (autoencoder_mode(o) != "none") text << ", " << autoencoder_mode(o) << " autoencoder";
    if (o.no_augmentation) text << ", no augmentation";
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
