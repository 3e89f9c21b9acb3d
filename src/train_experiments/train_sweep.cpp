#include "geomsim/train_experiments/train_sweep.hpp"

#include <algorithm>

#include "geomsim/experiments/sweep.hpp"
#include "geomsim/support/atomic_output.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/file_identity.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/train/data/label_hierarchy.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/figures/cosine_heatmap.hpp"
#include "geomsim/train_experiments/spread_figure.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

std::size_t train_sweep(const TrainSweepOptions& o, const std::function<void(const std::string&)>& progress) {
  require_one_process("geomsim train-sweep");
  const std::vector<double> alphas = parse_number_list(o.alphas, "alphas");
  for (double a : alphas) require_in_closed_range("alphas", a, 0.0, 1.0);
  require_at_least("sim-ny", o.sim_ny, 2);
  if (!train::loss_entry(o.train.train.loss).simulated) {
    std::string simulated;
    for (const auto& entry : train::loss_registry()) {
      if (entry.simulated) simulated += (simulated.empty() ? "" : " or ") + entry.name;
    }
    throw InvalidArgument("loss", "must be " + simulated + " for train-sweep (it sweeps L_spread's alpha)");
  }
  // Options of `geomsim train` that train-sweep does not use must not be given as if they did something.
  if (!o.train.train.checkpoint.empty()) throw InvalidArgument("checkpoint", "is not used by train-sweep (each alpha trains from scratch)");
  if (!o.train.json_path.empty()) throw InvalidArgument("json", "is not written by train-sweep (its results are STEM.csv)");
  if (o.train.nproc_per_node != 1) throw InvalidArgument("nproc-per-node", "is not used by train-sweep (it trains in one process)");
  std::vector<NamedPath> files = data_files(o.train.data);
  for (const auto& file : figure_files(o.out)) files.push_back({"out", file});
  require_distinct_files(files);
  require_writable_path(o.out + ".csv", "out");
  const int K = train::resolve_hierarchy(data_hierarchy(o.train.data)).num_coarse();
  const int d = static_cast<int>(o.train.model.embedding_dim);

  // The simulation: the core's optimum at the same K, d and tau.
  SweepGrid grid;
  grid.K = {K};
  grid.ny = {o.sim_ny};
  grid.d = {std::max(d, 2)};
  grid.tau = {o.train.train.loss_options.tau};
  grid.alpha = alphas;
  SolveSettings settings;
  settings.seeds = parse_seed_list(o.sim_seeds, "sim-seeds");
  const auto simulated = run_sweep(sweep_points(grid), settings, format_seed_list(settings.seeds), {});

  std::string csv = "alpha,trained_spread,trained_sigma_over_spread,trained_coarse_accuracy,trained_fine_accuracy,"
                    "simulated_spread,simulated_geometry\n";
  std::vector<double> trained;
  for (std::size_t k = 0; k < alphas.size(); ++k) {
    TrainRunOptions run = o.train;
    run.train.loss_options.alpha = alphas[k];
    run.train.checkpoint.clear();
    const json out = train_run_json(run, train_run(run));
    const json& e = out["evaluation"];
    const double spread = e["spread"].get<double>();
    if (progress) {
      progress("alpha " + format_number(alphas[k]) + ": trained spread " + format_number(spread) + ", simulated " +
               format_number(simulated[k].spread));
    }
    csv += format_number(alphas[k]) + "," + format_number(spread) + "," + (e["sigma_over_spread"].is_null() ? std::string() : format_number(e["sigma_over_spread"].get<double>())) +
           "," + format_number(e["coarse_accuracy_linear_probe"].get<double>()) + "," +
           format_number(e["fine_accuracy_linear_probe"].get<double>()) + "," + format_number(simulated[k].spread) + "," +
           simulated[k].geometry + "\n";
    trained.push_back(spread);
  }
  SpreadFigure figure;
  figure.title = "Spread against α: trained " + o.train.model.kind + " vs the simulated optimum";
  figure.subtitle = data_name(o.train.data) + " " + data_hierarchy(o.train.data) + " (K = " + std::to_string(K) + "), d = " + std::to_string(d) +
                    ", τ = " + format_number(o.train.train.loss_options.tau) + ", " + std::to_string(o.train.train.epochs) + " epochs, seed " + std::to_string(o.train.train.seed) +
                    "; simulated: n_y = " + std::to_string(o.sim_ny) + ", best of seeds " + format_seed_list(settings.seeds);
  figure.K = K;
  figure.alphas = alphas;
  figure.trained_legend = "trained encoder (test set)";
  figure.trained = trained;
  figure.simulated_legend = "simulated optimum";
  for (const auto& s : simulated) figure.simulated.push_back(s.spread);
  const GnuplotFigure fig = spread_figure(figure);
  OutputTransaction outputs;  // the CSV and the figure land together or not at all
  outputs.stage(o.out + ".csv", csv, "out");
  fig.render(o.out, outputs);
  outputs.commit();
  return alphas.size();
}

}  // namespace geomsim::train_experiments
