#pragma once
// Machinery shared by the training experiments of sims/ (geomsim-torch `experiment`): the
// context a runner gets, the named training methods of the paper's tables, planned runs, and
// running a plan against the run cache with progress.
//
// A runner plans its runs (options to train with + the run's parameters as a cache row), and
// run_plan trains each run the cache (NAME.csv) lacks, in plan order: it measures the run
// (the runner's hook adds metrics to the row), appends the row and rewrites the cache
// atomically, so an interrupted experiment loses at most the run in progress.
#include <functional>
#include <optional>
#include <ostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/experiments/run_cache.hpp"
#include "geomsim/experiments/shard.hpp"
#include "geomsim/train_experiments/train_run.hpp"

namespace geomsim::train_experiments {

struct ExperimentContext {
  std::string definition_path;  // sims/NAME.json as given
  std::string name;             // the definition's name: the stem of every output
  std::string title;
  std::string out_dir;          // where NAME.csv, NAME.md and the figures go
  bool smoke = false;           // the definition's "smoke" overrides are applied
  // Where every run trains (train::TrainOptions::device, device_explicit, sync_every): a choice of
  // the machine, not of the definition, so not a parameter of the cache's rows; each row records
  // the device it ran on in its "device" cell. Resolved once, from --device, by run_experiment.
  torch::Device device = torch::kCPU;
  bool device_given = false;
  int64_t sync_every = 50;
  // The data-parallel job the experiment runs as (data_parallel_job.hpp; one process by
  // default), on `device`: every rank walks the same plan, trains and measures every run with
  // the others (so that they reach each run's collectives together), and rank 0 alone caches,
  // prints, draws and writes the page. Like the device, the
  // number of ranks is not a parameter of the rows (a run on W ranks equals one process up to
  // the order of its sums); each row records it in its "world_size" cell.
  train::DistributedContext job;
  // The options of a run of the plan, on this context's device.
  TrainRunOptions on_device(TrainRunOptions options) const;
  // The shard of the definition's runs this process trains (--shard; the whole plan by
  // default): a job array's tasks share the plan, each trains the runs whose index in the
  // plan is its shard's, into the one cache they share (RunCache::add), and none writes the
  // page, which `geomsim report --only NAME` (or the experiment without --shard) writes from the
  // cache once every shard has finished.
  Shard shard;
  // Which runs of a plan to train: those of this process's shard that rank 0 decided to train
  // from its reading of the cache. `mine` is this rank's decision for
  // every run of the plan; the result is the same on every rank.
  std::vector<bool> agreed_runs(const std::vector<bool>& mine) const;
  // "geomsim experiment NAME: R runs, C cached in FILE[ (S of them from other pages)], T to
  // train[ in shard i/n]\n" on log().
  void log_plan(std::size_t runs, std::size_t cached, std::size_t shared, std::size_t to_train, const std::string& cache_path) const;
  // Whether this process writes the page: rank 0 of the whole plan.
  bool writes_page() const { return job.is_main() && shard.whole(); }
  // std::cerr on rank 0; a stream that prints nothing on the other ranks.
  std::ostream& log() const;
  std::string stem() const;     // out_dir/name
  // "geomsim report --sims DIR --out DIR --only NAME [--smoke]", for the page.
  std::string regenerate_command() const;
};

// A method of the paper's tables: a loss and an autoencoder mode, with what it is called and
// which labels it trains on.
struct TrainingMethod {
  std::string name;         // as definitions name it: "thanos"
  std::string label;        // the paper's row: "SupCon + cNCE + cAuto (THANOS)"
  std::string loss;         // TrainRunOptions::loss
  std::string autoencoder;  // TrainRunOptions::autoencoder ("none" without one)
  std::string labels_seen;  // the labels its training uses
  bool uses_alpha = false, uses_tau = true;  // whether its loss reads alpha, tau (the loss registry says)
  // CCL-K's conditioning (TrainRunOptions::cond_kernel, condition_on); empty: the base options'.
  std::string cond_kernel = {}, condition_on = {};
  // Seed 000's noisy labels (TrainRunOptions::noise_handling): "correct" (the geometric correction
  // at the label noise rate) or "debias" (the noise-aware weights at 1 - the rate); empty: neither.
  std::string noise_handling = {};
};
const std::vector<TrainingMethod>& training_methods();
// Throws InvalidArgument("definition") for an unknown name, listing the known ones.
const TrainingMethod& training_method(const std::string& name);

// A definition's number of clusters (cond_clusters): a whole number >= 1, else
// InvalidArgument("definition").
int64_t cluster_count(double value);

// Whether the method discretises its conditioning attributes (TrainRunOptions::cond_clusters):
// a loss that reads labels and no kernel (fair-infonce, weaksup-infonce) conditioned on
// attributes. Such a method takes the base options' cond_clusters; every other one none.
bool clusters_attributes(const TrainingMethod& method);

// The options of one run of `method`: its loss and autoencoder on top of `base`; the base's joint
// cross-entropy head (TrainRunOptions::head) only for a method whose loss is a contrastive batch
// loss (not ce, not the autoencoder alone).
TrainRunOptions method_options(const TrainRunOptions& base, const TrainingMethod& method);
// ... and the grid point: the method (by name), encoder, seed, hierarchy, alpha and tau.
TrainRunOptions run_options(const TrainRunOptions& base, const std::string& method, const std::string& encoder,
                                std::uint64_t seed, const std::string& hierarchy, double alpha, double tau);

// The parameters every training run records (its cache row before metrics): the data,
// hierarchy, encoder, method, loss, autoencoder, alpha, tau, augmentation, budget and recipe.
RunRow training_parameters(const std::string& method, const TrainRunOptions& options);

// Which runs of a plan to train. Each planned row gets its run id (stamp_run_id with
// `measures`); a run is kept when this page's cache holds it at its results version, or when
// another page's cache in the same folder does (OtherPagesRuns): rank 0 then adds that row to
// this cache for the runs of its shard, so that two definitions holding the same run share one
// computation and give the same numbers. A forced run is trained anyway. The choice is rank 0's
// (agreed_runs), and is logged (log_plan).
struct RunChoice {
  std::vector<std::optional<RunRow>> cached;  // each run's row, when kept
  std::vector<bool> chosen;                   // train it
  std::size_t to_train = 0;
};
RunChoice choose_runs(const std::vector<RunRow*>& planned, const std::vector<bool>& forced, RunCache& cache,
                      const ExperimentContext& context, const std::string& measures);

struct PlannedRun {
  PlannedRun(TrainRunOptions o, RunRow p, std::string l) : options(std::move(o)), parameters(std::move(p)), label(std::move(l)) {}
  TrainRunOptions options;
  RunRow parameters;  // what identifies and describes the run (no metrics)
  std::string label;  // for progress: "thanos fmnist-2 cnn seed 1"
  bool force = false;  // train even when cached (a runner that needs the trained model itself)
  // When set: after training, the cosine heatmap of its test embeddings (experiment heatmaps).
  std::string heatmap_stem, heatmap_title;
  int heatmap_per_subclass = 10;
};

// A definition's "heatmaps": a list of selectors ({"method": "spread", "seed": 0, ...}), each
// naming one planned run by its parameters. Each chosen run gets the heatmap of its test
// embeddings (`heatmap_per_subclass` images of every subclass, default 10), sorted by class
// then subclass, in OUT/NAME-heatmap-K.png (K = 1, 2, ...), and is trained again when that
// figure is missing even if cached. Returns the file names (NAME-heatmap-K.png) and captions.
// Throws InvalidArgument("definition") when a selector matches no run or several.
std::vector<std::pair<std::string, std::string>> plan_heatmaps(const nlohmann::json& definition, std::vector<PlannedRun>& plan,
                                                               const ExperimentContext& context);

// Adds the metrics every transfer evaluation gives: coarse accuracy, the two coarse-to-fine
// probes, s_f, sigma_f, sigma_f/s_f (mean and max over subclasses), subgroup F1, the
// gamma-margin error, the final training loss, samples/s and the seconds.
void add_transfer_metrics(const TrainedRun& run, RunRow& row);

// What a page measures of each trained run beyond its transfer metrics: `add` adds its metrics
// to the row, and `name` says what they are, for the run's id ("" when `add` is empty; two
// pages whose measures have one name add the same metrics to the same run).
struct RunMeasure {
  std::string name;
  std::function<void(const PlannedRun&, TrainedRun&, RunRow&)> add;
};

// Trains the plan's runs that choose_runs does not keep, in order, with progress on stderr
// when it is a terminal. `measure` adds metrics to a new run's row after its transfer metrics.
// Returns every planned run's row (cached or new), in plan order.
std::vector<RunRow> run_plan(std::vector<PlannedRun>& plan, RunCache& cache, const ExperimentContext& context,
                             const RunMeasure& measure = {});

// Every page starts alike: its title, the definition and the command that regenerates it (a
// smoke grid says so), and the paper's words.
ExperimentPage begin_page(const nlohmann::json& definition, const ExperimentContext& context);
// ... and ends alike: the heatmaps (file, caption), the definition's claims evaluated in each
// scope (one scope {} for none), its notes (not on smoke grids), a closing paragraph (where the
// data are), and the page written atomically to NAME.md.
void end_page(ExperimentPage& page, const nlohmann::json& definition, const ExperimentContext& context, const RunTable& table,
              const std::vector<Selector>& scopes, const std::vector<std::pair<std::string, std::string>>& heatmaps,
              const std::string& closing);
// Writes a text file atomically (a figure's data, a page).
void write_text_file(const std::string& path, const std::string& text);

// The cell's mean ± sd over seeds (scaled, with `decimals` decimals), or "—" without runs.
std::string cell_text(const RunTable& table, const Selector& where, const std::string& metric, double scale, int decimals);

// The training seconds of the rows (their "seconds" metric summed).
double total_seconds(const std::vector<RunRow>& rows);

// Reading a definition's parameters: a string, a number, a bool, or a list of them (a single
// value is a list of one). Throw InvalidArgument("definition") naming the parameter.
std::vector<std::string> string_list(const nlohmann::json& parameters, const std::string& key);
std::vector<double> number_list(const nlohmann::json& parameters, const std::string& key);
std::vector<bool> bool_list(const nlohmann::json& parameters, const std::string& key);
std::vector<std::uint64_t> seed_list(const nlohmann::json& parameters, const std::string& key);
int64_t integer_parameter(const nlohmann::json& parameters, const std::string& key, int64_t lo);
double number_parameter(const nlohmann::json& parameters, const std::string& key);
std::string string_parameter(const nlohmann::json& parameters, const std::string& key, const std::string& fallback = "");

// The common training options of a definition's "parameters": train_images, test_images,
// epochs, recipe, embedding_dim, width, gamma, threads, autoencoder_dropout, label_smoothing,
// the joint head's head_weight, head_label_smoothing, head_dropout, head_labelled_share, ...
TrainRunOptions base_training_options(const nlohmann::json& parameters);

}  // namespace geomsim::train_experiments
