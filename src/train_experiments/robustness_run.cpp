#include "geomsim/train_experiments/robustness_run.hpp"
#include "geomsim/train_experiments/train_run.hpp"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <functional>
#include <limits>
#include <type_traits>

#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/json_input.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/train/checkpoints/run_checkpoint.hpp"
#include "geomsim/train/data/image_files.hpp"
#include "geomsim/train_experiments/image_data.hpp"
#include "geomsim/train/training/torch_threads.hpp"

namespace geomsim::train_experiments {

using nlohmann::json;

namespace {

// One parameter of a run: its key, and how it is read from and written into the options.
struct Parameter {
  const char* key;
  std::function<json(const RobustnessRunOptions&)> get;
  std::function<void(RobustnessRunOptions&, const json&)> set;
};

// A JSON value as a T, or InvalidArgument("definition") naming the key and the type it needs.
template <class T>
T parameter_value(const char* key, const json& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    if (value.is_string()) return value.get<std::string>();
    throw InvalidArgument("definition", std::string("parameter '") + key + "' must be a string, got " + json_excerpt(value));
  } else if constexpr (std::is_integral_v<T>) {
    if (value.is_number_integer() && (std::is_signed_v<T> || value.get<long long>() >= 0) &&
        value.get<long double>() >= static_cast<long double>(std::numeric_limits<T>::lowest()) &&
        value.get<long double>() <= static_cast<long double>(std::numeric_limits<T>::max())) {
      return value.get<T>();
    }
    throw InvalidArgument("definition", std::string("parameter '") + key + "' must be a whole number" +
                                            (std::is_signed_v<T> ? "" : " >= 0") + ", got " + json_excerpt(value));
  } else {
    if (value.is_number()) return value.get<T>();
    throw InvalidArgument("definition", std::string("parameter '") + key + "' must be a number, got " + json_excerpt(value));
  }
}

// The parameter `key` at the place `field` gives in the options.
template <class T>
Parameter parameter(const char* key, T& (*field)(RobustnessRunOptions&)) {
  return {key, [field](const RobustnessRunOptions& o) { return json(field(const_cast<RobustnessRunOptions&>(o))); },
          [key, field](RobustnessRunOptions& o, const json& value) { field(o) = parameter_value<T>(key, value); }};
}

// Every option that changes a run's result, by its command-line name with '_' for '-', in the
// order of the JSON's "parameters" ("data" first, which has a default of its own).
const std::vector<Parameter>& parameters() {
  // Each as a place in the options: [](RobustnessRunOptions& o) -> auto& { return o.run.end.epochs; }.
  static const std::vector<Parameter> table = {
      parameter("dataset", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.dataset; }),
      parameter("method", +[](RobustnessRunOptions& o) -> auto& { return o.run.method; }),
      parameter("train_per_subclass", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.train_per_subclass; }),
      parameter("validation_per_subclass", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.validation_per_subclass; }),
      parameter("test_per_subclass", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.test_per_subclass; }),
      parameter("rare_fraction", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.rare_fraction; }),
      parameter("agreement", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.agreement; }),
      parameter("frame_width", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.frame_width; }),
      parameter("data_seed", +[](RobustnessRunOptions& o) -> auto& { return o.dataset.seed; }),
      parameter("model", +[](RobustnessRunOptions& o) -> auto& { return o.run.model.kind; }),
      parameter("width", +[](RobustnessRunOptions& o) -> auto& { return o.run.model.width; }),
      parameter("embedding_dim", +[](RobustnessRunOptions& o) -> auto& { return o.run.model.embedding_dim; }),
      parameter("epochs", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.epochs; }),
      parameter("batch_size", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.batch_size; }),
      parameter("lr", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.learning_rate; }),
      parameter("momentum", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.momentum; }),
      parameter("l2", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.l2; }),
      parameter("dro_eta", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.dro.step_size; }),
      parameter("dro_adjustment", +[](RobustnessRunOptions& o) -> auto& { return o.run.end.dro.adjustment; }),
      parameter("jtt_epochs", +[](RobustnessRunOptions& o) -> auto& { return o.run.jtt_epochs; }),
      parameter("jtt_upweight", +[](RobustnessRunOptions& o) -> auto& { return o.run.jtt_upweight; }),
      parameter("encoder_epochs", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.epochs; }),
      parameter("encoder_batch_size", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.batch_size; }),
      parameter("encoder_lr", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.learning_rate; }),
      parameter("encoder_weight_decay", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.weight_decay; }),
      parameter("tau", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.loss_options.tau; }),
      parameter("alpha", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.loss_options.alpha; }),
      parameter("kernel_lambda", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.loss_options.kernel_lambda; }),
      parameter("reconstruction_weight", +[](RobustnessRunOptions& o) -> auto& { return o.run.encoder.reconstruction_weight; }),
      parameter("pca_components", +[](RobustnessRunOptions& o) -> auto& { return o.run.clustering.pca_components; }),
      parameter("max_clusters", +[](RobustnessRunOptions& o) -> auto& { return o.run.clustering.max_clusters; }),
      parameter("min_silhouette", +[](RobustnessRunOptions& o) -> auto& { return o.run.clustering.min_silhouette; }),
      parameter("silhouette_points", +[](RobustnessRunOptions& o) -> auto& { return o.run.clustering.max_silhouette_points; }),
      parameter("seed", +[](RobustnessRunOptions& o) -> auto& { return o.run.seed; }),
  };
  return table;
}

}  // namespace

json robustness_parameters(const RobustnessRunOptions& o) {
  json out = {{"data", o.data.empty() ? std::string(train::kFashionMnistDir) : o.data}};
  for (const Parameter& p : parameters()) out[p.key] = p.get(o);
  return out;
}

RobustnessRunOptions robustness_options_from_parameters(const json& values, RobustnessRunOptions o) {
  if (!values.is_object()) throw InvalidArgument("definition", "the robustness parameters must be a JSON object");
  for (const auto& [key, value] : values.items()) {
    if (key == "data") {
      o.data = parameter_value<std::string>("data", value);
      continue;
    }
    const auto& table = parameters();
    const auto found = std::find_if(table.begin(), table.end(), [&](const Parameter& p) { return key == p.key; });
    if (found == table.end()) {
      std::string known = "data";
      for (const Parameter& p : table) known += std::string(", ") + p.key;
      throw InvalidArgument("definition", "'" + key.substr(0, 80) + "' is not a robustness option (" + known + ")");
    }
    found->set(o, value);
  }
  return o;
}

train::RobustnessOptions robustness_command_defaults() {
  train::RobustnessOptions r;
  r.model.kind = "mlp";
  r.model.width = 128;
  r.model.embedding_dim = 32;
  r.encoder.epochs = 10;
  r.encoder.batch_size = 128;
  r.encoder.learning_rate = 1e-3;
  r.encoder.weight_decay = 1e-4;
  return r;
}

void validate(const RobustnessRunOptions& o) {
  train::validate(o.dataset);
  train::validate(o.run, o.dataset.dataset == "spurious");
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

json robustness_run(const RobustnessRunOptions& o, const train::DistributedContext& job) {
  const auto start = std::chrono::steady_clock::now();
  train::validate(o.dataset);
  const json parameters = robustness_parameters(o);
  const train::RobustnessOptions& given = o.run;
  const std::string folder = o.data.empty() ? train::kFashionMnistDir : o.data;
  std::vector<NamedPath> paths = {{"json", o.json_path}, {"checkpoint", given.checkpoint},
                                  {"checkpoint", train::first_stage_checkpoint(given.checkpoint)}};
  for (const char* name : {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
    for (const std::string suffix : {".gz", ""}) {
      const auto path = std::filesystem::path(folder) / (name + suffix);
      if (std::filesystem::exists(path)) paths.push_back({"data", path.string()});
    }
  }
  require_distinct_files(paths);
  if (!given.checkpoint.empty()) require_writable_path(given.checkpoint, "checkpoint");
  train::RobustnessOptions options = given;
  options.run_description = parameters.dump();
  require_job_device(job, options.device);
  options.distributed = job;
  train::validate(options, o.dataset.dataset == "spurious");
  set_rank_threads(o.threads);
  const train::LabelledImages train_source = train::load_fashion_mnist(folder, true);
  const train::LabelledImages test_source = train::load_fashion_mnist(folder, false);
  const train::GroupedData data = train::build_robustness_data(train_source, test_source, o.dataset);
  // Once the files have been read as data: their contents, so that a resume on others is refused.
  DataOptions files;
  files.data = folder;
  json described = json::parse(options.run_description);
  described[train::kInputContentsKey] = input_contents(files);
  options.run_description = described.dump();

  const train::RobustnessResult r = train::run_robustness(data, options, progress_lines("geomsim robustness", o.quiet, job));

  const train::RobustnessMethod& method = train::robustness_method(given.method);
  const train::LabelsSeen& seen = method.labels;
  json stages = json::object();
  if (r.encoder_stage) {
    json epochs = json::array();
    for (const auto& e : r.encoder_stage->epochs) {
      epochs.push_back({{"epoch", e.epoch}, {"loss", e.loss}, {"seconds", e.seconds}});
    }
    stages["encoder"] = {{"loss", given.method}, {"epochs", epochs},
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
    recovery = {{"pseudo_groups", method.groups == train::RobustnessGroups::first_model_errors ? "class x first-model error" : "clusters"},
                {"train", r.recovery_train->macro_f1},
                {"train_per_group", r.recovery_train->f1_per_subclass},
                {"validation", r.recovery_validation->macro_f1}};
  }
  json out = {{"command", "robustness"},
              {"parameters", parameters},
              {"threads", torch::get_num_threads()},
              {"checkpoint", given.checkpoint},
              {"dataset", dataset_json(data, o.dataset)},
              {"labels_seen",
               {{"representation", seen.representation.empty() ? json(nullptr) : json(seen.representation)},
                {"end_model", seen.end_model},
                {"model_selection", seen.model_selection}}},
              {"device", train::device_name(options.device)},
              {"world_size", job.world_size()},
              {"stages", stages},
              {"jtt_error_set_size", method.groups == train::RobustnessGroups::first_model_errors && r.first_model && r.first_model->finished ? json(r.error_set_size) : json(nullptr)},
              {"selection_groups", r.selection_groups},
              {"clusters", clusters},
              {"subgroup_f1", recovery},
              {"finished", r.finished},
              {"validation", r.validation ? accuracy_json(*r.validation, data) : json(nullptr)},
              {"test", r.test ? accuracy_json(*r.test, data) : json(nullptr)}};
  out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace geomsim::train_experiments
