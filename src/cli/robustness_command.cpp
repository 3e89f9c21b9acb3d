#include "robustness_command.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli_support.hpp"
#include "evaluation_output.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/train/data/image_files.hpp"

namespace geomsim::cli {
using nlohmann::json;

void add_robustness_options(CLI::App& c, RobustnessCommandOptions& o) {
  c.footer(
      "Methods (seed 004 Table 4; every one ends in the same end model, see the README):\n"
      "  erm              cross-entropy on the class labels\n"
      "  jtt              ERM for --jtt-epochs, then its errors upsampled --jtt-upweight times\n"
      "  george           the ERM model's embeddings clustered per class, then Group DRO on the clusters\n"
      "  supcon, thanos   the same with a SupCon or THANOS encoder (--encoder-epochs)\n"
      "  cclk-fair        the same with a CCL-K Fair encoder conditioned on the background (spurious only)\n"
      "  groupdro-oracle  Group DRO on the true groups\n"
      "Model selection: worst-group accuracy on validation over the method's own groups (pseudo-groups for\n"
      "jtt and the clustering methods, true groups for the oracle only, plain accuracy for erm).\n"
      "With --checkpoint FILE, the first stage is saved in FILE.stage1 and the end model in FILE every epoch;\n"
      "a run with the same options resumes, one with other options is refused.");
  c.add_option("--dataset", o.dataset.dataset, "undersampled (Bag kept at --rare-fraction) or spurious (a framed background)")->required();
  c.add_option("--method", o.method, "erm, jtt, george, supcon, thanos, groupdro-oracle or cclk-fair")->required();
  c.add_option("--data", o.data, "folder with Fashion-MNIST's IDX files (default: Debian's dataset-fashion-mnist)");
  c.add_option("--train-per-subclass", o.dataset.train_per_subclass, "training images per Fashion-MNIST label")->capture_default_str();
  c.add_option("--validation-per-subclass", o.dataset.validation_per_subclass, "validation images per label")->capture_default_str();
  c.add_option("--test-per-subclass", o.dataset.test_per_subclass, "test images per label")->capture_default_str();
  c.add_option("--rare-fraction", o.dataset.rare_fraction, "undersampled: Bag's share in training, in (0, 1]")->capture_default_str();
  c.add_option("--agreement", o.dataset.agreement, "spurious: training images whose background agrees with the class, in [0.5, 1]")
      ->capture_default_str();
  c.add_option("--frame-width", o.dataset.frame_width, "spurious: the frame's width in pixels, 1..6")->capture_default_str();
  c.add_option("--data-seed", o.dataset.seed, "seed of the data set's draw")->capture_default_str();
  c.add_option("--model", o.model, "encoder of every network: mlp, cnn or vit")->capture_default_str();
  c.add_option("--width", o.width, "hidden width")->capture_default_str();
  c.add_option("--embedding-dim", o.embedding_dim, "embedding (feature) size")->capture_default_str();
  c.add_option("--epochs", o.epochs, "end model (and GEORGE's ERM model): epochs")->capture_default_str();
  c.add_option("--batch-size", o.batch_size, "end model: batch size")->capture_default_str();
  c.add_option("--lr", o.learning_rate, "end model: SGD learning rate")->capture_default_str();
  c.add_option("--momentum", o.momentum, "end model: SGD momentum in [0, 0.999]")->capture_default_str();
  c.add_option("--l2", o.l2, "end model: L2 penalty (SGD weight decay)")->capture_default_str();
  c.add_option("--dro-eta", o.dro_eta, "Group DRO: step size of the group weights")->capture_default_str();
  c.add_option("--dro-adjustment", o.dro_adjustment, "Group DRO: C of the group adjustment C / sqrt(n_g)")->capture_default_str();
  c.add_option("--jtt-epochs", o.jtt_epochs, "JTT: epochs of the first ERM model (T)")->capture_default_str();
  c.add_option("--jtt-upweight", o.jtt_upweight, "JTT: copies of each error-set example (lambda_up)")->capture_default_str();
  c.add_option("--encoder-epochs", o.encoder_epochs, "supcon, thanos, cclk-fair: encoder epochs")->capture_default_str();
  c.add_option("--encoder-batch-size", o.encoder_batch_size, "encoder batch size (two views each)")->capture_default_str();
  c.add_option("--encoder-lr", o.encoder_lr, "encoder AdamW learning rate")->capture_default_str();
  c.add_option("--encoder-weight-decay", o.encoder_weight_decay, "encoder AdamW weight decay")->capture_default_str();
  c.add_option("--tau", o.tau, "encoder temperature > 0")->capture_default_str();
  c.add_option("--alpha", o.alpha, "thanos: L_spread's weight of cNCE, in [0, 1]")->capture_default_str();
  c.add_option("--kernel-lambda", o.kernel_lambda, "cclk-fair: lambda of (K_Z + lambda I)^-1 K_Z")->capture_default_str();
  c.add_option("--reconstruction-weight", o.reconstruction_weight, "thanos: weight of the autoencoder's loss")->capture_default_str();
  c.add_option("--pca-components", o.pca_components, "clustering: principal components kept")->capture_default_str();
  c.add_option("--max-clusters", o.max_clusters, "clustering: largest k tried per class")->capture_default_str();
  c.add_option("--min-silhouette", o.min_silhouette, "clustering: below this silhouette for every k >= 2, one cluster")->capture_default_str();
  c.add_option("--silhouette-points", o.silhouette_points, "clustering: the silhouette's subsample per class")->capture_default_str();
  c.add_option("--seed", o.seed, "seed of the training (initial weights, orders, augmentations, clustering)")->capture_default_str();
  c.add_option("--threads", o.threads, "CPU threads for libtorch (0: all cores)")->capture_default_str();
  c.add_option("--checkpoint", o.checkpoint, "end-model checkpoint FILE (and FILE.stage1), written every epoch; resumed when present");
  c.add_option("--stop-after", o.stop_after, "stop after this many epochs of both stages (resume later with --checkpoint)");
  c.add_option("--json", o.json_path, "write the run as JSON to FILE");
  c.add_flag("--quiet,-q", o.quiet, "print nothing on stdout");
}

json robustness_parameters(const RobustnessCommandOptions& o) {
  const auto& d = o.dataset;
  return {{"dataset", d.dataset},
          {"method", o.method},
          {"data", o.data.empty() ? std::string(train::kFashionMnistDir) : o.data},
          {"train_per_subclass", d.train_per_subclass},
          {"validation_per_subclass", d.validation_per_subclass},
          {"test_per_subclass", d.test_per_subclass},
          {"rare_fraction", d.rare_fraction},
          {"agreement", d.agreement},
          {"frame_width", d.frame_width},
          {"data_seed", d.seed},
          {"model", o.model},
          {"width", o.width},
          {"embedding_dim", o.embedding_dim},
          {"epochs", o.epochs},
          {"batch_size", o.batch_size},
          {"lr", o.learning_rate},
          {"momentum", o.momentum},
          {"l2", o.l2},
          {"dro_eta", o.dro_eta},
          {"dro_adjustment", o.dro_adjustment},
          {"jtt_epochs", o.jtt_epochs},
          {"jtt_upweight", o.jtt_upweight},
          {"encoder_epochs", o.encoder_epochs},
          {"encoder_batch_size", o.encoder_batch_size},
          {"encoder_lr", o.encoder_lr},
          {"encoder_weight_decay", o.encoder_weight_decay},
          {"tau", o.tau},
          {"alpha", o.alpha},
          {"kernel_lambda", o.kernel_lambda},
          {"reconstruction_weight", o.reconstruction_weight},
          {"pca_components", o.pca_components},
          {"max_clusters", o.max_clusters},
          {"min_silhouette", o.min_silhouette},
          {"silhouette_points", o.silhouette_points},
          {"seed", o.seed}};
}

train::RobustnessOptions robustness_library_options(const RobustnessCommandOptions& o) {
  train::RobustnessOptions r;
  r.method = o.method;
  r.model.kind = o.model;
  r.model.width = o.width;
  r.model.embedding_dim = o.embedding_dim;
  r.end.epochs = o.epochs;
  r.end.batch_size = o.batch_size;
  r.end.learning_rate = o.learning_rate;
  r.end.momentum = o.momentum;
  r.end.l2 = o.l2;
  r.end.dro.step_size = o.dro_eta;
  r.end.dro.adjustment = o.dro_adjustment;
  r.jtt_epochs = o.jtt_epochs;
  r.jtt_upweight = o.jtt_upweight;
  r.encoder.epochs = o.encoder_epochs;
  r.encoder.batch_size = o.encoder_batch_size;
  r.encoder.learning_rate = o.encoder_lr;
  r.encoder.weight_decay = o.encoder_weight_decay;
  r.encoder.loss_options.tau = o.tau;
  r.encoder.loss_options.alpha = o.alpha;
  r.encoder.loss_options.kernel_lambda = o.kernel_lambda;
  r.encoder.reconstruction_weight = o.reconstruction_weight;
  r.clustering.pca_components = o.pca_components;
  r.clustering.max_clusters = o.max_clusters;
  r.clustering.min_silhouette = o.min_silhouette;
  r.clustering.max_silhouette_points = o.silhouette_points;
  r.seed = o.seed;
  r.checkpoint = o.checkpoint;
  r.stop_after = o.stop_after;
  r.run_description = robustness_parameters(o).dump();
  return r;
}

namespace {

json accuracy_json(const GroupAccuracy& a, const train::GroupedData& d) {
  json groups = json::array();
  for (std::size_t g = 0; g < a.per_group.size(); ++g) {
    groups.push_back({{"group", g},
                      {"name", d.group_names[g]},
                      {"class", d.class_of_group[g]},
                      {"count", a.counts[g]},
                      {"accuracy", a.counts[g] > 0 ? json(a.per_group[g]) : json(nullptr)}});
  }
  return {{"per_group", groups},
          {"worst_group_accuracy", a.worst},
          {"worst_group", a.worst_group},
          {"worst_group_name", d.group_names[static_cast<std::size_t>(a.worst_group)]},
          {"average_accuracy", a.average}};
}

json end_model_epochs_json(const train::EndModelResult& r) {
  json epochs = json::array();
  for (const auto& e : r.epochs) {
    epochs.push_back({{"epoch", e.epoch},
                      {"loss", e.loss},
                      {"validation_worst_group", e.validation_worst},
                      {"validation_average", e.validation_average},
                      {"seconds", e.seconds}});
  }
  return {{"epochs", epochs}, {"resumed_epochs", r.resumed_epochs}, {"best_epoch", r.best_epoch}, {"finished", r.finished}};
}

json dataset_json(const train::GroupedData& d, const train::RobustnessDataOptions& o) {
  const auto count = [](const torch::Tensor& groups, std::size_t g) { return groups.eq(static_cast<int64_t>(g)).sum().item<int64_t>(); };
  json groups = json::array();
  for (std::size_t g = 0; g < d.group_names.size(); ++g) {
    groups.push_back({{"group", g},
                      {"name", d.group_names[g]},
                      {"class", d.class_of_group[g]},
                      {"train", count(d.train.groups, g)},
                      {"validation", count(d.validation.groups, g)},
                      {"test", count(d.test.groups, g)}});
  }
  json out = {{"name", d.dataset}, {"classes", d.class_names}, {"groups", groups}, {"attribute", d.has_attribute() ? json(d.attribute_name) : json(nullptr)}};
  if (o.dataset == "undersampled") out["rare_subclass"] = d.group_names[train::kUndersampledSubclass];
  return out;
}

}  // namespace

json robustness_run(const RobustnessCommandOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  train::validate(o.dataset);
  const json parameters = robustness_parameters(o);
  const std::string folder = o.data.empty() ? train::kFashionMnistDir : o.data;
  std::vector<NamedPath> paths = {{"json", o.json_path}, {"checkpoint", o.checkpoint},
                                  {"checkpoint", train::first_stage_checkpoint(o.checkpoint)}};
  for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
    for (const std::string suffix : {".gz", ""}) {
      const auto path = std::filesystem::path(folder) / (name + suffix);
      if (std::filesystem::exists(path)) paths.push_back({"data", path.string()});
    }
  }
  require_distinct_files(paths);
  if (!o.checkpoint.empty()) require_writable_path(o.checkpoint, "checkpoint");
  const train::RobustnessOptions options = robustness_library_options(o);
  train::validate(options, o.dataset.dataset == "spurious");
  set_torch_threads(o.threads);
  const train::LabelledImages train_source = train::load_fashion_mnist(folder, true);
  const train::LabelledImages test_source = train::load_fashion_mnist(folder, false);
  const train::GroupedData data = train::build_robustness_data(train_source, test_source, o.dataset);

  const bool progress = !o.quiet && isatty(fileno(stderr)) != 0;
  const train::RobustnessResult r = train::run_robustness(data, options, [&](const std::string& line) {
    if (progress) std::cerr << "geomsim robustness: " << line << "\n";
  });

  const train::LabelsSeen seen = train::labels_seen(o.method);
  json stages = json::object();
  if (r.encoder_stage) {
    json epochs = json::array();
    for (const auto& e : r.encoder_stage->epochs) {
      epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}});
    }
    stages["encoder"] = {{"loss", o.method}, {"epochs", epochs},
                         {"resumed_epochs", r.encoder_stage->resumed_epochs}};
  }
  if (r.first_model) stages["first_model"] = end_model_epochs_json(*r.first_model);
  if (r.end_model) {
    stages["end_model"] = end_model_epochs_json(*r.end_model);
    if (!r.end_model->group_weights.empty()) stages["end_model"]["group_dro_weights"] = r.end_model->group_weights;
  }
  json clusters = nullptr;
  if (r.clusters) {
    json per_class = json::array();
    for (std::size_t y = 0; y < r.clusters->per_class.size(); ++y) {
      const auto& s = r.clusters->per_class[y];
      std::vector<int64_t> sizes(static_cast<std::size_t>(s.k), 0);
      for (int c : s.clusters) ++sizes[static_cast<std::size_t>(c)];
      json silhouettes = json::array();
      for (std::size_t j = 0; j < s.silhouettes.size(); ++j) silhouettes.push_back({{"k", j + 2}, {"silhouette", s.silhouettes[j]}});
      per_class.push_back({{"class", y}, {"name", data.class_names[y]}, {"k", s.k}, {"sizes", sizes}, {"silhouettes", silhouettes}});
    }
    clusters = {{"total", r.clusters->total}, {"per_class", per_class}};
  }
  json recovery = nullptr;
  if (r.recovery_train) {
    recovery = {{"pseudo_groups", o.method == "jtt" ? "class x first-model error" : "clusters"},
                {"train", r.recovery_train->macro_f1},
                {"train_per_group", r.recovery_train->f1_per_subclass},
                {"validation", r.recovery_validation->macro_f1}};
  }
  json out = {{"command", "robustness"},
              {"parameters", parameters},
              {"threads", torch::get_num_threads()},
              {"checkpoint", o.checkpoint},
              {"dataset", dataset_json(data, o.dataset)},
              {"labels_seen",
               {{"representation", seen.representation.empty() ? json(nullptr) : json(seen.representation)},
                {"end_model", seen.end_model},
                {"model_selection", seen.model_selection}}},
              {"device", r.end_model ? r.end_model->device : std::string(torch::cuda::is_available() ? "cuda" : "cpu")},
              {"stages", stages},
              {"jtt_error_set_size", o.method == "jtt" && r.first_model && r.first_model->finished ? json(r.error_set_size) : json(nullptr)},
              {"selection_groups", r.selection_groups},
              {"clusters", clusters},
              {"subgroup_f1", recovery},
              {"finished", r.finished},
              {"validation", r.validation ? accuracy_json(*r.validation, data) : json(nullptr)},
              {"test", r.test ? accuracy_json(*r.test, data) : json(nullptr)}};
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

int run_robustness_command(const RobustnessCommandOptions& o) {
  if (!o.json_path.empty()) require_writable_path(o.json_path, "json");
  const json out = robustness_run(o);
  OutputTransaction outputs;
  if (!o.json_path.empty()) outputs.stage(o.json_path, out.dump(2) + "\n", "json");
  outputs.commit();
  if (o.quiet) return 0;
  std::ostringstream text;
  text << "geomsim robustness: " << o.method << " on " << o.dataset.dataset << " (" << o.model << ", seed " << o.seed << ", "
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
