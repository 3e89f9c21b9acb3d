#include "robustness_command.hpp"

#include <iostream>
#include <memory>
#include <sstream>

#include "cli_support.hpp"
#include "local_ranks.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/robustness/robustness_methods.hpp"

namespace geomsim::cli {
namespace {

// "erm, jtt, ... or cclk-fair": the robustness methods' table, in its order.
std::string method_choices() {
  const auto names = train::robustness_method_names();
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace

using nlohmann::json;

void add_robustness_options(CLI::App& c, RobustnessRunOptions& o) {
  c.footer(
      "Methods (seed 004 Table 4; every one ends in the same end model, see docs/tutorials/robustness.md):\n"
      "  erm              cross-entropy on the class labels\n"
      "  jtt              ERM for --jtt-epochs, then its errors upsampled --jtt-upweight times\n"
      "  george           the ERM model's embeddings clustered per class, then Group DRO on the clusters\n"
      "  supcon, thanos   the same with a SupCon or THANOS encoder (--encoder-epochs)\n"
      "  spread           the same with an L_spread encoder (SupCon + cNCE, --alpha): seed 000's Table 3\n"
      "  cclk-fair        the same with a CCL-K Fair encoder conditioned on the background (spurious only)\n"
      "  groupdro-oracle  Group DRO on the true groups\n"
      "Model selection: worst-group accuracy on validation over the method's own groups (pseudo-groups for\n"
      "jtt and the clustering methods, true groups for the oracle only, plain accuracy for erm).\n"
      "With --checkpoint FILE, the first stage is saved in FILE.stage1 and the end model in FILE every epoch;\n"
      "a run with the same options resumes, one with other options is refused.");
  c.add_option("--dataset", o.dataset.dataset, "undersampled (Bag kept at --rare-fraction) or spurious (a framed background)")->required();
  c.add_option("--method", o.run.method, method_choices())->required();
  c.add_option("--data", o.data, "folder with Fashion-MNIST's IDX files (default: Debian's dataset-fashion-mnist)");
  c.add_option("--train-per-subclass", o.dataset.train_per_subclass, "training images per Fashion-MNIST label")->capture_default_str();
  c.add_option("--validation-per-subclass", o.dataset.validation_per_subclass, "validation images per label")->capture_default_str();
  c.add_option("--test-per-subclass", o.dataset.test_per_subclass, "test images per label")->capture_default_str();
  c.add_option("--rare-fraction", o.dataset.rare_fraction, "undersampled: Bag's share in training, in (0, 1]")->capture_default_str();
  c.add_option("--agreement", o.dataset.agreement, "spurious: training images whose background agrees with the class, in [0.5, 1]")
      ->capture_default_str();
  c.add_option("--frame-width", o.dataset.frame_width, "spurious: the frame's width in pixels, 1..6")->capture_default_str();
  c.add_option("--data-seed", o.dataset.seed, "seed of the data set's draw")->capture_default_str();
  c.add_option("--model", o.run.model.kind, "encoder of every network: mlp, cnn or vit")->capture_default_str();
  c.add_option("--width", o.run.model.width, "hidden width")->capture_default_str();
  c.add_option("--embedding-dim", o.run.model.embedding_dim, "embedding (feature) size")->capture_default_str();
  c.add_option("--epochs", o.run.end.epochs, "end model (and GEORGE's ERM model): epochs")->capture_default_str();
  c.add_option("--batch-size", o.run.end.batch_size, "end model: batch size")->capture_default_str();
  c.add_option("--lr", o.run.end.learning_rate, "end model: SGD learning rate")->capture_default_str();
  c.add_option("--momentum", o.run.end.momentum, "end model: SGD momentum in [0, 0.999]")->capture_default_str();
  c.add_option("--l2", o.run.end.l2, "end model: L2 penalty (SGD weight decay)")->capture_default_str();
  c.add_option("--dro-eta", o.run.end.dro.step_size, "Group DRO: step size of the group weights")->capture_default_str();
  c.add_option("--dro-adjustment", o.run.end.dro.adjustment, "Group DRO: C of the group adjustment C / sqrt(n_g)")->capture_default_str();
  c.add_option("--jtt-epochs", o.run.jtt_epochs, "JTT: epochs of the first ERM model (T)")->capture_default_str();
  c.add_option("--jtt-upweight", o.run.jtt_upweight, "JTT: copies of each error-set example (lambda_up)")->capture_default_str();
  c.add_option("--encoder-epochs", o.run.encoder.epochs, "supcon, spread, thanos, cclk-fair: encoder epochs")->capture_default_str();
  c.add_option("--encoder-batch-size", o.run.encoder.batch_size, "encoder batch size (two views each)")->capture_default_str();
  c.add_option("--encoder-lr", o.run.encoder.learning_rate, "encoder AdamW learning rate")->capture_default_str();
  c.add_option("--encoder-weight-decay", o.run.encoder.weight_decay, "encoder AdamW weight decay")->capture_default_str();
  c.add_option("--tau", o.run.encoder.loss_options.tau, "encoder temperature > 0")->capture_default_str();
  c.add_option("--alpha", o.run.encoder.loss_options.alpha, "spread, thanos: L_spread's weight of cNCE, in [0, 1]")->capture_default_str();
  c.add_option("--kernel-lambda", o.run.encoder.loss_options.kernel_lambda, "cclk-fair: lambda of (K_Z + lambda I)^-1 K_Z")->capture_default_str();
  c.add_option("--reconstruction-weight", o.run.encoder.reconstruction_weight, "thanos: weight of the autoencoder's loss")->capture_default_str();
  c.add_option("--pca-components", o.run.clustering.pca_components, "clustering: principal components kept")->capture_default_str();
  c.add_option("--max-clusters", o.run.clustering.max_clusters, "clustering: largest k tried per class")->capture_default_str();
  c.add_option("--min-silhouette", o.run.clustering.min_silhouette, "clustering: below this silhouette for every k >= 2, one cluster")->capture_default_str();
  c.add_option("--silhouette-points", o.run.clustering.max_silhouette_points, "clustering: the silhouette's subsample per class")->capture_default_str();
  c.add_option("--seed", o.run.seed, "seed of the training (initial weights, orders, augmentations, clustering)")->capture_default_str();
  c.add_option("--threads", o.threads, "CPU threads for libtorch (0: all cores)")->capture_default_str();
  // --device's text lives only until it is resolved, once, when the command line is complete.
  const auto device = std::make_shared<std::string>("auto");
  add_device_options(c, *device, o.run.device_explicit, o.run.sync_every);
  add_data_parallel_options(c, o.nproc_per_node, o.distributed_timeout);
  c.add_option("--checkpoint", o.run.checkpoint, "end-model checkpoint FILE (and FILE.stage1), written every epoch; resumed when present");
  c.add_option("--stop-after", o.run.stop_after, "stop after this many epochs of both stages (resume later with --checkpoint)");
  c.add_option("--json", o.json_path, "write the run as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
  c.parse_complete_callback([&o, device] { o.run.device = train::resolve_device(*device); });  // the command's edge
}

int run_robustness_command(const RobustnessRunOptions& o) {
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  if (o.nproc_per_node > 1) {  // bad options refused once, before any rank starts
    train::validate(o.run, o.dataset.dataset == "spurious");
    train::require_encoder_batch_divides(o.run.method, o.run.encoder.batch_size, o.nproc_per_node);
  }
  if (const auto status = run_as_local_ranks(o.nproc_per_node, o.distributed_timeout)) return *status;
  const train::DistributedContext job = train_experiments::join_data_parallel_job(o.distributed_timeout, o.run.device);
  const json out = robustness_run(o, job);
  if (!job.is_main()) return 0;  // every rank has the result; rank 0 writes and prints
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (o.quiet) return 0;
  std::ostringstream text;
  text << "geomsim robustness: " << o.run.method << " on " << o.dataset.dataset << " (" << o.run.model.kind << ", seed " << o.run.seed << ", "
       << out["device"].get<std::string>() << ")\n";
  const json& seen = out["labels_seen"];
  if (!seen["representation"].is_null()) text << "  labels seen, first stage:  " << seen["representation"].get<std::string>() << "\n";
  text << "  labels seen, end model:    " << seen["end_model"].get<std::string>() << "\n"
       << "  labels seen, selection:    " << seen["model_selection"].get<std::string>() << "\n";
  if (!out["clusters"].is_null()) {
    text << "  clusters per class:       ";
    for (const auto& c : out["clusters"]["per_class"]) text << " " << c["name"].get<std::string>() << ": " << c["k"].get<int>() << ";";
    text << "\n";
  }
  if (!out["subgroup_f1"].is_null()) text << "  subgroup F1 (training):    " << fixed(out["subgroup_f1"]["train"].get<double>(), 4) << "\n";
  if (!out["finished"].get<bool>()) {
    text << "  stopped early (--stop-after): resume with the same --checkpoint\n";
  } else {
    const json& t = out["test"];
    for (const auto& g : t["per_group"]) {
      text << "  test accuracy, " << g["name"].get<std::string>() << " (" << g["count"].get<int64_t>() << "): "
           << (g["accuracy"].is_null() ? std::string("no examples") : fixed(g["accuracy"].get<double>(), 4)) << "\n";
    }
    text << "  worst-group test accuracy: " << fixed(t["worst_group_accuracy"].get<double>(), 4) << " ("
         << t["worst_group_name"].get<std::string>() << ")\n"
         << "  average test accuracy:     " << fixed(t["average_accuracy"].get<double>(), 4) << "\n";
  }
  text << "  time                       " << fixed(out["seconds"].get<double>(), 3) << " s\n";
  std::cout << text.str() << std::flush;
  return 0;
}

}  // namespace geomsim::cli
