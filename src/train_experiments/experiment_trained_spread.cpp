// The "trained_spread" kind: Figure 2 done as the paper did it, from training. L_spread is
// trained at several alpha (and reference methods such as SupCon once per seed); the trained
// spread s_f(y) of the test embeddings is drawn against alpha, mean ± sd over seeds, beside
// the simulated optimum of the core at the same K (the hierarchy's coarse classes), d (the
// embedding dimension) and tau; cosine heatmaps of chosen runs are drawn sorted by class,
// then subclass.
//
// Parameters: hierarchy, encoder, alpha (list), seeds, tau, reference_methods (list, may be
// empty), train_images, test_images, epochs, recipe, embedding_dim, width, and "simulation":
// {"ny": 8, "seeds": "0:4"}. Top level: "claims" (axes: method, alpha; reference runs have
// alpha "none"), "heatmaps".
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/experiments/sweep.hpp"
#include "geomsim/train_experiments/spread_figure.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {
const std::vector<std::string> kTrainedSpreadAxes = {"method", "alpha"};
const std::vector<std::string> kTrainedSpreadKey = {"method", "hierarchy", "encoder", "seed", "alpha", "tau", "augmentation"};
}  // namespace

void run_trained_spread_experiment(const json& definition, const ExperimentContext& context) {
  const json& p = definition.at("parameters");
  const std::string hierarchy = string_parameter(p, "hierarchy");
  const std::string encoder = string_parameter(p, "encoder");
  const auto alphas = number_list(p, "alpha");
  for (double a : alphas) require_in_closed_range("alpha", a, 0.0, 1.0);
  const auto seeds = seed_list(p, "seeds");
  const double tau = number_parameter(p, "tau");
  const auto references = p.contains("reference_methods") && !p.at("reference_methods").empty()
                              ? string_list(p, "reference_methods") : std::vector<std::string>{};
  for (const auto& m : references) {
    if (training_method(m).uses_alpha) throw InvalidArgument("definition", "reference method " + m + " uses alpha: put its alphas in \"alpha\"");
  }
  if (static_cast<int>(references.size()) > max_spread_references()) {
    throw InvalidArgument("definition", "reference_methods lists " + std::to_string(references.size()) + " methods; the figure tells at most " +
                                            std::to_string(max_spread_references()) + " apart");
  }
  const json simulation = definition.at("parameters").value("simulation", json::object());
  const int sim_ny = simulation.contains("ny") ? static_cast<int>(integer_parameter(simulation, "ny", 2)) : 8;
  const std::string sim_seeds = string_parameter(simulation, "seeds", "0:4");
  const TrainRunOptions base = base_training_options(p);
  const int K = train::resolve_hierarchy(hierarchy).num_coarse();
  validate_claims(definition, kTrainedSpreadAxes);

  std::vector<PlannedRun> plan;
  for (const auto seed : seeds) {
    const auto plan_one = [&](const std::string& m, std::optional<double> alpha) {
      const TrainRunOptions o = run_options(base, m, encoder, seed, hierarchy, alpha.value_or(base.train.loss_options.alpha), tau);
      RunRow row = training_parameters(m, o);
      if (!alpha) row.set("alpha", "none");
      plan.emplace_back(o, row, m + " seed " + std::to_string(seed) + (alpha ? " alpha " + format_number(*alpha) : std::string()));
    };
    for (const auto& m : references) plan_one(m, std::nullopt);
    for (double a : alphas) plan_one("spread", a);
  }
  const auto heatmaps = plan_heatmaps(definition, plan, context);
  RunCache cache(context.stem() + ".csv", kTrainedSpreadKey);
  const std::vector<RunRow> rows = run_plan(plan, cache, context);
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the runs: the page waits for them all
  const RunTable table(rows, kTrainedSpreadAxes);

  // The simulated optimum at the same K, d and tau.
  SweepGrid grid;
  grid.K = {K};
  grid.ny = {sim_ny};
  grid.d = {static_cast<int>(base.model.embedding_dim)};
  grid.tau = {tau};
  grid.alpha = alphas;
  SolveSettings settings;
  settings.seeds = parse_seed_list(sim_seeds, "simulation seeds");
  const auto simulated = run_sweep(sweep_points(grid), settings, sim_seeds, {});

  // The figure: trained spread (mean ± sd) and the simulated optimum against alpha.
  SpreadFigure figure;
  figure.title = "Spread against α: trained " + encoder + " encoder vs the simulated optimum";
  figure.K = K;
  figure.alphas = alphas;
  figure.trained_legend = "trained L_spread (test set), mean ± sd";
  figure.simulated_legend = "simulated optimum";
  std::string csv = "alpha,trained_spread_mean,trained_spread_sd,seeds,trained_sigma_over_spread_mean,simulated_spread,simulated_geometry\n";
  for (std::size_t k = 0; k < alphas.size(); ++k) {
    const std::string a = format_number(alphas[k]);
    const auto s = table.cell({{"method", "spread"}, {"alpha", a}}, "spread");
    const auto r = table.cell({{"method", "spread"}, {"alpha", a}}, "sigma_over_spread");
    if (!s) throw std::logic_error("trained_spread: a planned run has no spread");
    figure.trained.push_back(s->mean);
    figure.trained_sd.push_back(s->sd);
    figure.simulated.push_back(simulated[k].spread);
    csv += a + "," + format_number(s->mean) + "," + format_number(s->sd) + "," + std::to_string(s->n) + "," + (r ? format_number(r->mean) : std::string()) +
           "," + format_number(simulated[k].spread) + "," + simulated[k].geometry + "\n";
  }
  for (const auto& m : references) {
    const auto s = table.cell({{"method", m}, {"alpha", "none"}}, "spread");
    if (s) figure.references.emplace_back(training_method(m).label + " (no α)", s->mean);
  }
  figure.subtitle = "Fashion-MNIST " + hierarchy + " (K = " + std::to_string(K) + "), " + encoder + ", d = " + std::to_string(base.model.embedding_dim) +
                    ", τ = " + format_number(tau) + ", " + std::to_string(base.train.epochs) + " epochs, seeds " + format_seed_list(seeds) +
                    "; simulated: n_y = " + std::to_string(sim_ny) + ", best of seeds " + sim_seeds;
  const GnuplotFigure fig = spread_figure(figure);
  fig.render(context.stem());
  write_text_file(context.stem() + "-spread.csv", csv);

  ExperimentPage page = begin_page(definition, context);
  const train::TrainOptions& t = base.train;
  page.paragraph("**Setup.** Fashion-MNIST " + hierarchy + " (K = " + std::to_string(K) + " coarse classes), " + encoder + " encoder, " +
                 std::to_string(base.train_samples) + " training images per run (a seeded subset per seed), " +
                 std::to_string(base.test_samples) + " test images, " + std::to_string(base.train.epochs) + " epochs, recipe " +
                 base.recipe + " (lr " + format_number(t.learning_rate) + ", batch " + std::to_string(t.batch_size) +
                 "), embedding dimension d = " + std::to_string(base.model.embedding_dim) + ", τ = " + format_number(tau) + ", seeds " +
                 format_seed_list(seeds) + ". The simulated optimum is the core's solve of eq. (39)–(40) at the same K, d and τ "
                 "with n_y = " + std::to_string(sim_ny) + " points per class, best of seeds " + sim_seeds + ".");
  page.paragraph("**Measured wall time.** " + std::to_string(rows.size()) + " runs, " + clock_text(total_seconds(rows)) + " (" +
                 format_number(std::round(total_seconds(rows))) + " s) of training and evaluation in all.");
  page.image(context.name + ".png", "The trained spread s_f(y) of the test embeddings against α (mean ± sd over seeds) and the simulated optimum");
  std::vector<std::vector<std::string>> spread_rows;
  for (std::size_t k = 0; k < alphas.size(); ++k) {
    const std::string a = format_number(alphas[k]);
    const Selector where = {{"method", "spread"}, {"alpha", a}};
    spread_rows.push_back({a, cell_text(table, where, "spread", 1, 3), cell_text(table, where, "sigma_over_spread", 1, 3),
                           cell_text(table, where, "fine_probe", 100, 1), format_number(std::round(simulated[k].spread * 1e4) / 1e4),
                           simulated[k].geometry + (simulated[k].atoms.empty() ? "" : " " + simulated[k].atoms)});
  }
  for (const auto& m : references) {
    const Selector where = {{"method", m}, {"alpha", "none"}};
    spread_rows.push_back({training_method(m).label, cell_text(table, where, "spread", 1, 3),
                           cell_text(table, where, "sigma_over_spread", 1, 3), cell_text(table, where, "fine_probe", 100, 1), "—", "—"});
  }
  page.table({"α", "trained s_f(y)", "trained σ_f/s_f", "c2f linear probe %", "simulated spread", "simulated geometry"}, spread_rows);
  end_page(page, definition, context, table, {{}}, heatmaps,
           "Every run: [`" + context.name + ".csv`](" + context.name + ".csv); the curves: [`" + context.name + "-spread.csv`](" +
               context.name + "-spread.csv).");
}

}  // namespace geomsim::train_experiments
