#include "train_command.hpp"

#include <iostream>
#include <memory>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "local_ranks.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/image_attributes.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/training/trainer.hpp"

namespace geomsim::cli {
using nlohmann::json;

namespace {

// A loss parameter's help, from the loss registry: its meaning, range and the losses that read it.
std::string parameter_help(const std::string& name) {
  const train::LossParameter& parameter = train::loss_parameter(name);
  std::string readers;
  for (const auto& entry : train::loss_registry()) {
    if (entry.reads(name)) readers += (readers.empty() ? "" : ", ") + entry.name;
  }
  return parameter.meaning + " (" + parameter.range + "; read by --loss " + readers + ")";
}

// The losses with their one-line help, from the registry.
std::string losses_footer() {
  std::string text = "Losses (--loss):\n";
  for (const auto& entry : train::loss_registry()) {
    text += "  " + entry.name + std::string(entry.name.size() < 21 ? 21 - entry.name.size() : 1, ' ') + entry.help + "\n";
  }
  return text;
}

}  // namespace

void add_train_options(CLI::App& c, TrainRunOptions& o) {
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
      "  joint cross-entropy head (seed 004 §5: \"We jointly optimize all contrastive losses ... with a\n"
      "             cross-entropy loss head ... with dropout as well as label smoothing\"; F.3: \"A dropout rate\n"
      "             of 0.05\"; seed 000 E.3.2: \"training with 20% labels to cross entropy\"):\n"
      "             geomsim train --loss supcon --head-weight 1 [--head-labelled-share 0.2]\n"
      "  ablations: --autoencoder general (no labels) | per-class (one decoder per class); --no-augmentation\n"
      "  the paper's optimiser (Appendix F.3): --recipe paper   (AdamW lr 3e-4, no weight decay, batch 128)\n"
      "  SupCon + InfoNCE: --loss supcon+simclr;  SupCon L_in: --loss supcon-in\n"
      "  seed 000:  geomsim train --loss attract-repel --alpha 0.5   (alpha weights L_attract)\n"
      "  CCL-K:     geomsim train --loss cclk-weak | cclk-fair | cclk-hardneg --kernel-lambda 0.1\n"
      "             kernels (seed 002 Tables 2, 5, 7): --cond-kernel cosine | rbf --cond-bandwidth 1 | laplacian |\n"
      "             linear | polynomial --cond-degree 3 --cond-offset 1\n"
      "             attributes as the only supervision: --loss cclk-weak --condition-on attributes:ink,aspect,intensity\n"
      "             (ink mass, bounding-box aspect, mean inked intensity, standardised; or fine: the fine label one-hot)\n"
      "  002's conditional InfoNCE (eqs. 3-5): --loss weaksup-infonce | fair-infonce | hardneg-infonce\n"
      "  triplet (000 eq. A7): --loss triplet;  Table 9: --loss clip-positives --clip-cosine 0.5 |\n"
      "             weighted-positives --positive-weight 0.5 | upweighted-negatives --negative-weight 2\n"
      "  the released code's conventions: --loss spread-thanos-code [--clip-pos 1] | cclk-weak-released |\n"
      "             cclk-fair-released;  SupContrast's: --loss supcon --base-temperature 0.07\n"
      "Coarse labels come from --hierarchy; the fine labels (the data set's classes) are the subclasses of\n"
      "the coarse-to-fine evaluation. --train-samples and --epochs set the budget. With --checkpoint the\n"
      "model is saved every epoch; `geomsim eval`, `measure` and `lipschitz` read it. A resume must repeat the options\n"
      "the checkpoint was trained with (the other --stop-after excepted).\n"
      "Exit status: 0 done, 2 bad input (nothing is written), 3 the training diverged (a non-finite loss; the last\n"
      "checkpoint is kept and nothing else is written), or a data-parallel rank failed.\n" + losses_footer());
  add_data_options(c, o.data);
  train::TrainOptions& t = o.train;
  c.add_option("--model", o.model.kind, "encoder: mlp, cnn or vit")->capture_default_str();
  c.add_option("--loss", t.loss, "one of the losses listed below: " + train::train_loss_list())->capture_default_str();
  // Every loss parameter, from the loss registry: bound to the one LossOptions the trainer reads.
  for (const train::LossParameter& p : train::loss_parameters()) {
    train::LossOptions& loss = t.loss_options;
    if (p.flag) {
      c.add_flag_function("--" + p.name, [&loss, &p](int64_t count) { p.set(loss, count > 0 ? 1.0 : 0.0); }, parameter_help(p.name));
    } else {
      c.add_option_function<double>("--" + p.name, [&loss, &p](const double& value) { p.set(loss, value); }, parameter_help(p.name))
          ->default_val(p.get(loss));
    }
  }
  c.add_option("--cond-kernel", t.loss_options.cond_kernel,
               "CCL-K's kernel K_Z on the conditioning values: " + train::conditioning_kernel_list() +
                   " (seed 002's default: cosine; read by --loss " + train::condition_reader_list() + ")")
      ->capture_default_str();
  c.add_option("--condition-on", o.condition_on,
               "what CCL-K's kernel conditions on: labels (the coarse training labels, one-hot) or attributes:NAME[,NAME...] "
               "with names among " + train::image_attribute_list() +
                   " (derived from the images; no labels but fine's; read by --loss " + train::condition_reader_list() +
                   ", or through --cond-clusters)")
      ->capture_default_str();
  c.add_option("--cond-clusters", o.cond_clusters,
               "K >= 1: the K k-means clusters of the --condition-on attributes replace the labels of a loss that reads "
               "labels and no kernel (weaksup-infonce, fair-infonce: seed 002's discretised z, §4.2); 0: the labels")
      ->capture_default_str();
  c.add_option("--label-noise", o.label_noise,
               "RATE in [0, 1]: seed 000's symmetric noise, each training label the loss sees replaced by another with chance "
               "RATE (the probes are fit on the clean labels)")
      ->capture_default_str();
  c.add_option("--reconstruction-weight", t.reconstruction_weight, "THANOS: weight of the autoencoder's reconstruction loss")
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
  c.add_option("--head-weight", t.head.weight,
               "weight of the seeds' joint cross-entropy head, a linear classifier on the encoder's features trained with any "
               "contrastive loss (seed 004 §5, F.2-F.3; seed 000 §5.1); its test accuracy is reported. 0: no head")
      ->capture_default_str();
  c.add_option("--head-label-smoothing", t.head.label_smoothing,
               "label smoothing of the joint head's cross-entropy, in [0, 1) (the seeds give no value)")
      ->capture_default_str();
  c.add_option("--head-dropout", t.head.dropout, "dropout rate before the joint head, in [0, 1) (seed 004 F.3: 0.05)")
      ->capture_default_str();
  c.add_option("--head-labelled-share", t.head.labelled_share,
               "share of the training samples whose (clean) labels the joint head sees, in (0, 1], fixed by --seed (seed 000 "
               "E.3.2: 0.2)")
      ->capture_default_str();
  c.add_flag("--no-augmentation", o.no_augmentation, "train on the images as they are: the two views are identical");
  c.add_flag("--corruptions", o.corruptions,
             "also score the fine labels' linear probe on the test images under 4 corruptions at 5 severities (noise, "
             "impulse noise, blur, contrast, as ImageNet-C), with its expected calibration error (seed 001 §4.2)");
  c.add_option("--recipe", o.recipe, "geomsim (lr 1e-3, weight decay 1e-4, batch 256), paper (Appendix F.3's coarse training: "
                                     "AdamW lr 3e-4, no weight decay, batch 128) or paper-transfer (F.3's transfer runs: lr "
                                     "1e-3, no weight decay, batch 128); explicit --lr, --weight-decay, --batch-size, "
                                     "--cosine-period win");
  c.add_option("--cosine-period", t.cosine_period_epochs, "T_max of the cosine schedule in epochs (0: the run's epochs)")->capture_default_str();
  c.add_option("--epochs", t.epochs, "epochs of the cosine schedule, in [1, " + std::to_string(train::kMaxEpochs) + "]")->capture_default_str();
  c.add_option("--stop-after", t.stop_after, "stop after this many epochs (resume later with --checkpoint)");
  c.add_option("--batch-size", t.batch_size, "samples per step (two views each)")->capture_default_str();
  c.add_option("--lr", t.learning_rate, "AdamW learning rate, in (0, " + format_number(train::kMaxLearningRate) + "]")->capture_default_str();
  c.add_option("--weight-decay", t.weight_decay, "AdamW weight decay")->capture_default_str();
  c.add_option("--embedding-dim", o.model.embedding_dim, "embedding size, >= 2 (refused when the model would not fit in memory)")->capture_default_str();
  c.add_option("--width", o.model.width, "hidden width of the encoder, >= 4 (refused when the model would not fit in memory)")->capture_default_str();
  c.add_option("--seed", t.seed, "seed of everything random (>= 0)")->capture_default_str()->check(non_negative_integer());
  c.add_option("--threads", o.threads, "CPU threads for libtorch, from 0 (all cores) to the number of cores")->capture_default_str();
  // --device's text lives only until it is resolved, once, when the command line is complete.
  const auto device = std::make_shared<std::string>("auto");
  add_device_options(c, *device, t.device_explicit, t.sync_every);
  c.add_option("--precision", t.precision,
               "float32, or bf16: the encoder's forward pass under bfloat16 autocast (for a GPU; on the CPU it runs, "
               "slower), the losses and the weights in float32")
      ->capture_default_str();
  add_data_parallel_options(c, o.nproc_per_node, o.distributed_timeout);
  c.add_option("--train-samples", o.train_samples, "use this many training images (0: all 60000)")->capture_default_str();
  c.add_option("--test-samples", o.test_samples, "evaluate on this many test images (0: all 10000)")->capture_default_str();
  c.add_option("--checkpoint", t.checkpoint, "checkpoint file, written every epoch; an existing one is resumed");
  c.add_option("--json", o.json_path, "write the run (parameters, epochs, evaluation) as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
  c.parse_complete_callback([&c, &o, device] {
    // A loss parameter given to a loss that does not read it would change nothing: refused, naming
    // it and what the loss reads (as geomsim.torch's losses do).
    for (const train::LossParameter& p : train::loss_parameters()) {
      if (c.count("--" + p.name) > 0) train::require_loss_reads(o.train.loss, p.name);
    }
    // Likewise the joint head's settings without the head.
    if (o.train.head.weight == 0.0) {  // a bad --head-weight is refused by its own check
      for (const std::string name : {"head-label-smoothing", "head-dropout", "head-labelled-share"}) {
        if (c.count("--" + name) > 0) {
          throw InvalidArgument(name, "changes nothing without the joint head: give --head-weight > 0 as well");
        }
      }
    }
    // The command's edge: the recipe under the values given, and the device resolved, once.
    if (!o.recipe.empty()) {
      const train::TrainOptions given = o.train;
      train::apply_recipe(train::train_recipe(o.recipe), o.train);
      if (c.count("--lr") > 0) o.train.learning_rate = given.learning_rate;
      if (c.count("--weight-decay") > 0) o.train.weight_decay = given.weight_decay;
      if (c.count("--batch-size") > 0) o.train.batch_size = given.batch_size;
      if (c.count("--cosine-period") > 0) o.train.cosine_period_epochs = given.cosine_period_epochs;
    }
    o.train.device = train::resolve_device(*device);
  });
}

int run_train(const TrainRunOptions& o) {
  validate(o);  // every option, and their contradictions, before any file is looked for or any rank starts
  std::vector<NamedPath> files = data_files(o.data);
  files.push_back({"checkpoint", o.train.checkpoint});  // read (resume) and written: one file by design
  files.push_back({"json", o.json_path});
  require_distinct_files(files);
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  if (o.nproc_per_node > 1 && o.train.batch_size % o.nproc_per_node != 0) {  // the recipe's batch, unless given
    throw InvalidArgument("batch-size", "must divide among the " + std::to_string(o.nproc_per_node) +
                                            " ranks of --nproc-per-node (each takes an equal share of every batch), got " +
                                            std::to_string(o.train.batch_size));
  }
  if (const auto status = run_as_local_ranks(o.nproc_per_node, o.distributed_timeout)) return *status;
  const TrainedRun run = train_run(o);
  if (run.rank != 0) return 0;  // a rank other than 0 of a data-parallel job: rank 0 writes and prints
  const json out = train_run_json(o, run);
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (!o.quiet) {
    const json& p = out["parameters"];
    std::ostringstream text;
    const train::LossOptions& loss = o.train.loss_options;
    text << "geomsim train: " << o.model.kind << " on " << p["data"].get<std::string>() << ", " << p["hierarchy"].get<std::string>() << " (" << p["train_samples"].get<int64_t>()
         << " train, " << p["test_samples"].get<int64_t>() << " test images), loss " << o.train.loss << ", tau " << loss.tau;
    if (train::loss_entry(o.train.loss).reads("alpha")) text << ", alpha " << loss.alpha;
    if (autoencoder_mode(o) != "none") text << ", " << autoencoder_mode(o) << " autoencoder";
    if (o.train.head.enabled()) {
      text << ", cross-entropy head (weight " << format_number(o.train.head.weight) << ", on "
           << format_number(100 * o.train.head.labelled_share) << " % of the labels)";
    }
    if (o.no_augmentation) text << ", no augmentation";
    text << ", " << out["device"].get<std::string>() << "\n";
    for (const auto& epoch : out["epochs"]) {
      text << "  epoch " << epoch["epoch"].get<int64_t>() << ": loss " << fixed(epoch["loss"].get<double>(), 6) << ", "
           << fixed(epoch["samples_per_second"].get<double>(), 4) << " samples/s\n";
    }
    if (!out["finished"].get<bool>()) {
      text << "  stopped after " << out["epochs"].size() << " of " << o.train.epochs << " epochs (--stop-after)\n";
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
  c.add_option("--out", o.out, "output stem: writes STEM.csv, STEM.png, STEM.svg, STEM.pdf (3.5 in wide), STEM-2col.pdf (7 in), STEM.gp")
      ->required()
      ->check(no_control_characters());
}

int run_train_sweep(const TrainSweepOptions& o) {
  const bool progress = !o.train.quiet;
  const std::size_t alphas = train_sweep(o, [&](const std::string& line) {
    if (progress) std::cerr << "geomsim train-sweep: " << line << "\n";
  });
  if (!o.train.quiet) std::cout << "geomsim train-sweep: " << alphas << " alphas written to " << o.out << ".csv, .png, .svg, .pdf, -2col.pdf and .gp\n";
  return 0;
}

}  // namespace geomsim::cli
