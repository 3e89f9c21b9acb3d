// The "strata" kind: seed 000, §4.2-4.3, on a hierarchy with imbalanced subclasses (strata).
// Each run trains on a fraction t of a pool of train_images images (the subsampled D_t of the
// thought experiment) with epochs scaled by 1/t, so every run takes about as many steps, and
// measures on the test embeddings, per subclass z of a class y with at least two:
//   p(z|y)      the share of z in y's training images,
//   sigma_f(z)  E ||f(x) - E_z f||,
//   delta(f_t, z, z') = ||E_z f - E_z' f|| between z and the class's most common subclass.
// The most common subclass of each class is "common", the others "rare".
//
// Parameters: hierarchy, encoder, methods, fractions (t in (0, 1]), seeds, tau, alpha,
// train_images (the pool at t = 1), test_images, epochs (at t = 1), recipe, embedding_dim,
// width. Claims' axes: method, fraction.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"
#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/figures/line_figure.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/theory/strata_subsampling.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

const std::vector<std::string> kStrataAxes = {"method", "fraction"};
const std::vector<std::string> kStrataKey = {"method", "hierarchy", "encoder", "seed", "alpha", "tau", "augmentation", "fraction"};

// Per subclass of a class with two or more: p(z|y) in training, sigma_f(z), and the distance
// of its test mean to the common subclass's.
void add_strata_metrics(const TrainedRun& run, RunRow& row) {
  const auto train_fine = run.training.fine.contiguous(), train_coarse = run.training.coarse.contiguous();
  const int fine_count = run.hierarchy.num_fine();
  std::vector<double> in_fine(static_cast<std::size_t>(fine_count), 0.0), in_class(static_cast<std::size_t>(run.hierarchy.num_coarse()), 0.0);
  for (int64_t i = 0; i < train_fine.size(0); ++i) {
    in_fine[static_cast<std::size_t>(train_fine[i].item<int64_t>())] += 1.0;
    in_class[static_cast<std::size_t>(train_coarse[i].item<int64_t>())] += 1.0;
  }
  const auto z = run.test_embeddings.to(torch::kDouble);
  const auto test_fine = run.test.fine;
  std::map<int, torch::Tensor> means;
  for (int f = 0; f < fine_count; ++f) {
    const auto rows = test_fine.eq(f).nonzero().squeeze(1);
    if (rows.numel() > 0) means[f] = z.index_select(0, rows).mean(0);
  }
  std::map<int, double> sigma;
  for (const auto& s : run.evaluation.geometry.subclasses) sigma[s.subclass] = s.sigma;
  double sigma_common = 0, sigma_rare = 0, delta_cr = 0, delta_rr = 0;
  int n_common = 0, n_rare = 0, n_cr = 0, n_rr = 0;
  for (int y = 0; y < run.hierarchy.num_coarse(); ++y) {
    std::vector<int> members;
    for (int f = 0; f < fine_count; ++f) {
      if (run.hierarchy.coarse_of_fine[static_cast<std::size_t>(f)] == y) members.push_back(f);
    }
    if (members.size() < 2) continue;
    const int common = *std::max_element(members.begin(), members.end(), [&](int a, int b) {
      return in_fine[static_cast<std::size_t>(a)] < in_fine[static_cast<std::size_t>(b)];
    });
    for (int f : members) {
      const auto fs = static_cast<std::size_t>(f);
      if (in_class[static_cast<std::size_t>(y)] > 0) row.set("p_z" + std::to_string(f), in_fine[fs] / in_class[static_cast<std::size_t>(y)]);
      if (sigma.count(f)) {
        row.set("sigma_z" + std::to_string(f), sigma[f]);
        (f == common ? sigma_common : sigma_rare) += sigma[f];
        ++(f == common ? n_common : n_rare);
      }
      if (f != common && means.count(f) && means.count(common)) {
        const double d = (means[f] - means[common]).norm().item<double>();
        row.set("delta_z" + std::to_string(f), d);
        delta_cr += d;
        ++n_cr;
      }
    }
    for (std::size_t a = 0; a < members.size(); ++a) {
      for (std::size_t b = a + 1; b < members.size(); ++b) {
        if (members[a] == common || members[b] == common || !means.count(members[a]) || !means.count(members[b])) continue;
        delta_rr += (means[members[a]] - means[members[b]]).norm().item<double>();
        ++n_rr;
      }
    }
  }
  if (n_common > 0) row.set("sigma_common", sigma_common / n_common);
  if (n_rare > 0) row.set("sigma_rare", sigma_rare / n_rare);
  if (n_common > 0 && n_rare > 0) row.set("rare_minus_common_sigma", sigma_rare / n_rare - sigma_common / n_common);
  if (n_cr > 0) row.set("delta_common_rare", delta_cr / n_cr);
  if (n_rr > 0) row.set("delta_rare_rare", delta_rr / n_rr);
}

}  // namespace

namespace {

// A strata definition's settings, read and checked.
struct StrataSettings {
  std::string hierarchy_name, encoder;
  std::vector<std::string> methods;
  std::vector<double> fractions;
  std::vector<std::uint64_t> seeds;
  double tau = 0.0, alpha = 0.0;
  TrainRunOptions base;
  train::LabelHierarchy hierarchy;
};

// Throws InvalidArgument("definition") for a fraction outside (0, 1] or below one batch, claims
// on unknown axes, or more methods than the δ figure tells apart.
StrataSettings strata_settings(const json& definition) {
  const json& p = definition.at("parameters");
  StrataSettings s;
  s.hierarchy_name = string_parameter(p, "hierarchy");
  s.encoder = string_parameter(p, "encoder");
  s.methods = string_list(p, "methods");
  s.fractions = number_list(p, "fractions");
  s.seeds = seed_list(p, "seeds");
  s.tau = number_parameter(p, "tau");
  s.alpha = number_parameter(p, "alpha");
  s.base = base_training_options(p);
  s.hierarchy = train::resolve_hierarchy(s.hierarchy_name);
  validate(method_options(s.base, training_method(s.methods.front())));  // before the fractions are held against its batch
  const int64_t batch = s.base.train.batch_size;
  for (double t : s.fractions) {
    if (!(t > 0.0 && t <= 1.0)) throw InvalidArgument("definition", "fractions must be in (0, 1], got " + format_number(t));
    if (std::llround(t * static_cast<double>(s.base.train_samples)) < batch) {
      throw InvalidArgument("definition", "fraction " + format_number(t) + " of " + std::to_string(s.base.train_samples) +
                                              " images is fewer than one batch of " + std::to_string(batch));
    }
  }
  validate_claims(definition, kStrataAxes);
  if (2 * s.methods.size() > static_cast<std::size_t>(kMaxLineCurves)) {
    throw InvalidArgument("definition", "methods lists " + std::to_string(s.methods.size()) + "; the δ figure (two curves per method) tells at most " +
                                            std::to_string(kMaxLineCurves / 2) + " apart");
  }
  return s;
}

// One run per seed, fraction t (t of the pool, about epochs / t epochs) and method.
std::vector<PlannedRun> plan_strata_runs(const StrataSettings& s) {
  const TrainRunOptions& base = s.base;
  std::vector<PlannedRun> plan;
  for (const auto seed : s.seeds) {
    for (double t : s.fractions) {
      for (const auto& m : s.methods) {
        TrainRunOptions o = run_options(base, m, s.encoder, seed, s.hierarchy_name, s.alpha, s.tau);
        o.train_samples = std::llround(t * static_cast<double>(base.train_samples));
        o.train.epochs = std::max<int64_t>(1, std::llround(static_cast<double>(base.train.epochs) / t));
        RunRow row = training_parameters(m, o);
        row.set("fraction", format_number(t));
        plan.emplace_back(o, row, m + " t " + format_number(t) + " seed " + std::to_string(seed));
      }
    }
  }
  return plan;
}

// Which of the page's figures have a point to draw.
struct StrataFigures {
  bool by_p = false, by_p_delta = false, by_t = false;
};

// Figures 1-3 (σ_f(z) and δ to the common subclass against p(z|y) at the largest t; δ against t)
// and STEM-subclasses.csv, the per-subclass means.
StrataFigures draw_strata_figures(const StrataSettings& st, const RunTable& table, const ExperimentContext& context) {
  const std::string& hierarchy_name = st.hierarchy_name;
  const std::string& encoder = st.encoder;
  const auto& methods = st.methods;
  const auto& fractions = st.fractions;
  const auto& seeds = st.seeds;
  const double tau = st.tau, alpha = st.alpha;
  const TrainRunOptions& base = st.base;
  const train::LabelHierarchy& hierarchy = st.hierarchy;
  const std::string full = format_number(*std::max_element(fractions.begin(), fractions.end()));
  // The figures, in the house style (figures/line_figure.hpp): one curve per method (mean ± sd
  // over seeds as error bars), the settings they share in the subtitle, the paper's PDFs.
  const std::string fixed = hierarchy_name + ", " + encoder + ", τ = " + format_number(tau) + ", α = " + format_number(alpha) + ", " +
                            std::to_string(base.train_samples) + " images at t = 1, ~" + std::to_string(base.train.epochs) + "/t epochs, seeds " +
                            format_seed_list(seeds) + " (± sd)";
  // Figures 1 and 2: sigma_f(z), and delta(z, common), against p(z|y), at the largest t: one point per subclass.
  LineFigureSpec sigma_figure, delta_figure;
  sigma_figure.scatter = delta_figure.scatter = true;
  sigma_figure.title = "σ_f(z) of each subclass against its share p(z|y) of its class";
  delta_figure.title = "Distance of each rare subclass to the common subclass of its class, against p(z|y)";
  sigma_figure.subtitle = delta_figure.subtitle = "t = " + full + ", " + fixed;
  sigma_figure.xlabel = delta_figure.xlabel = "p(z|y) in training";
  sigma_figure.ylabel = "σ_f(z) (test)";
  delta_figure.ylabel = "‖E_z f − E_common f‖ (test)";
  LinePanel sigma_panel, delta_panel;
  std::string csv = "method,fraction,subclass,name,p_z_given_y,sigma_mean,sigma_sd,delta_to_common_mean,delta_to_common_sd\n";
  for (const auto& m : methods) {
    LineCurve sigma_curve, delta_curve;
    sigma_figure.legend.push_back(training_method(m).label);
    delta_figure.legend.push_back(training_method(m).label);
    sigma_curve.style = delta_curve.style = static_cast<int>(sigma_figure.legend.size());
    for (double t : fractions) {
      const std::string ft = format_number(t);
      std::vector<std::vector<double>> sigma_points, delta_points;
      for (int f = 0; f < hierarchy.num_fine(); ++f) {
        const std::string k = std::to_string(f);
        std::vector<double> ps, sigmas, deltas;
        for (const auto& r : table.matching({{"method", m}, {"fraction", ft}})) {
          if (const auto v = r.number("p_z" + k)) ps.push_back(*v);
          if (const auto v = r.number("sigma_z" + k)) sigmas.push_back(*v);
          if (const auto v = r.number("delta_z" + k)) deltas.push_back(*v);
        }
        if (ps.empty() || sigmas.empty()) continue;
        const SeedSummary pz = summarize(ps), s = summarize(sigmas);
        std::optional<SeedSummary> d;
        if (!deltas.empty()) d = summarize(deltas);
        csv += m + "," + ft + "," + k + "," + hierarchy.fine_names[static_cast<std::size_t>(f)] + "," + format_number(pz.mean) + "," +
               format_number(s.mean) + "," + format_number(s.sd) + "," + (d ? format_number(d->mean) : "") + "," + (d ? format_number(d->sd) : "") + "\n";
        if (ft != full) continue;
        sigma_points.push_back({pz.mean, s.mean, s.sd});
        if (d) delta_points.push_back({pz.mean, d->mean, d->sd});
      }
      if (ft != full) continue;
      std::sort(sigma_points.begin(), sigma_points.end());
      std::sort(delta_points.begin(), delta_points.end());
      for (const auto& point : sigma_points) sigma_curve.points.emplace_back(point[0], point[1]), sigma_curve.errors.push_back(point[2]);
      for (const auto& point : delta_points) delta_curve.points.emplace_back(point[0], point[1]), delta_curve.errors.push_back(point[2]);
    }
    sigma_panel.curves.push_back(sigma_curve);
    delta_panel.curves.push_back(delta_curve);
  }
  sigma_figure.panels = {sigma_panel};
  delta_figure.panels = {delta_panel};
  // A figure with no point (no class with a rare subclass) is not drawn, nor shown on the page.
  const auto drawn = [](const LineFigureSpec& figure) {
    for (const auto& curve : figure.panels.front().curves) {
      if (!curve.points.empty()) return true;
    }
    return false;
  };
  if (drawn(sigma_figure)) line_figure(sigma_figure).render(context.stem() + "-by-p");
  if (drawn(delta_figure)) line_figure(delta_figure).render(context.stem() + "-by-p-delta");

  // Figure 3: delta against t, one curve per method and pair of subclasses.
  LineFigureSpec against_t;
  against_t.title = "δ(f_t, z, z') = ‖E_z f − E_z' f‖ against the fraction t of the data trained on";
  against_t.subtitle = fixed;
  against_t.xlabel = "fraction t";
  against_t.ylabel = "δ (test embeddings)";
  against_t.logx = true;
  LinePanel t_panel;
  for (const auto& m : methods) {
    for (const char* metric : {"delta_common_rare", "delta_rare_rare"}) {
      LineCurve curve;
      for (double t : fractions) {
        const auto s = table.cell({{"method", m}, {"fraction", format_number(t)}}, metric);
        if (s) curve.points.emplace_back(t, s->mean), curve.errors.push_back(s->sd);
      }
      against_t.legend.push_back(training_method(m).label + (std::string(metric) == "delta_common_rare" ? ": common–rare" : ": rare–rare"));
      curve.style = static_cast<int>(against_t.legend.size());
      t_panel.curves.push_back(curve);  // a curve without points draws nothing and has no legend entry
    }
  }
  against_t.panels = {t_panel};
  if (drawn(against_t)) line_figure(against_t).render(context.stem() + "-by-t");
  write_text_file(context.stem() + "-subclasses.csv", csv);

  return {drawn(sigma_figure), drawn(delta_figure), drawn(against_t)};
}

// The page: the setup, the figures drawn, the table of σ and δ, §4.3.1's mean classifiers and
// Appendix C.2's probabilities.
void write_strata_page(const json& definition, const ExperimentContext& context, const StrataSettings& st, const RunTable& table,
                       const std::vector<RunRow>& rows, const StrataFigures& figures) {
  const std::string& hierarchy_name = st.hierarchy_name;
  const std::string& encoder = st.encoder;
  const auto& methods = st.methods;
  const auto& fractions = st.fractions;
  const auto& seeds = st.seeds;
  const double tau = st.tau, alpha = st.alpha;
  const TrainRunOptions& base = st.base;
  const train::LabelHierarchy& hierarchy = st.hierarchy;
  const std::string full = format_number(*std::max_element(fractions.begin(), fractions.end()));
  ExperimentPage page = begin_page(definition, context);
  page.paragraph("**Setup.** Fashion-MNIST " + hierarchy_name + ", " + encoder + " encoder, a pool of " + std::to_string(base.train_samples) +
                 " training images per seed; a run at fraction t trains on the first t of them (a seeded subset) for about " +
                 std::to_string(base.train.epochs) + "/t epochs, so every run takes about as many steps; " + std::to_string(base.test_samples) +
                 " test images; recipe " + base.recipe + ", τ = " + format_number(tau) + ", α = " + format_number(alpha) +
                 " (L_spread), seeds " + format_seed_list(seeds) + ". The most common subclass of each class (kept whole by the "
                 "imbalanced hierarchy) is \"common\", the others \"rare\"; classes with one subclass are left out.");
  page.paragraph("**Measured wall time.** " + std::to_string(rows.size()) + " runs, " + clock_text(total_seconds(rows)) + " (" +
                 format_number(std::round(total_seconds(rows))) + " s) of training and evaluation in all.");
  if (figures.by_p) page.image(context.name + "-by-p.png", "σ_f(z) of each subclass against p(z|y), t = " + full);
  if (figures.by_p_delta) {
    page.image(context.name + "-by-p-delta.png", "The distance of each rare subclass to the common subclass of its class against p(z|y), t = " + full);
  }
  if (figures.by_t) page.image(context.name + "-by-t.png", "δ between subclass means against the fraction t of the data trained on");
  std::vector<std::vector<std::string>> table_rows;
  for (const auto& m : methods) {
    for (double t : fractions) {
      const Selector where = {{"method", m}, {"fraction", format_number(t)}};
      const auto text = [&](const char* metric, double scale, int decimals) { return cell_text(table, where, metric, scale, decimals); };
      table_rows.push_back({training_method(m).label, format_number(t), std::to_string(std::llround(t * static_cast<double>(base.train_samples))),
                            text("sigma_common", 1, 3), text("sigma_rare", 1, 3), text("delta_common_rare", 1, 3),
                            text("delta_rare_rare", 1, 3), text("fine_probe", 100, 1)});
    }
  }
  page.table({"method", "t", "images", "σ_f common", "σ_f rare", "δ common–rare", "δ rare–rare", "c2f linear probe %"}, table_rows);
  // §4.3.1: the mean classifier's errors that Lemmas 1 and 2 bound, and the lambdas they need.
  std::vector<std::vector<std::string>> lemma_rows;
  for (const auto& m : methods) {
    for (double t : fractions) {
      const Selector where = {{"method", m}, {"fraction", format_number(t)}};
      const auto text = [&](const char* metric, int decimals) { return cell_text(table, where, metric, 1, decimals); };
      lemma_rows.push_back({training_method(m).label, format_number(t), text("c2f_mean_loss", 3), text("c2f_mean_loss_best", 3),
                            text("c2f_mean_scale", 2), text("lemma1_lambda", 3), text("original_mean_loss", 3),
                            text("original_mean_loss_best", 3), text("original_mean_scale", 2), text("lemma2_lambda", 3),
                            text("strata_norm2", 3)});
    }
  }
  page.paragraph("Seed 000 §4.3.1 on the same test embeddings (`geomsim::strata_mean_classifier`): the cross-entropy of the mean "
                 "classifier W_z = E_z f over the subclasses (the coarse-to-fine task, Lemma 1) and W_y = E_y f over the classes (the "
                 "original task, Lemma 2), at scale 1 (logits f(x)ᵀW, as §4.3.1 defines the classifier) and at its best scale (logits "
                 "λ f(x)ᵀW at the λ that minimises the cross-entropy on these embeddings, which is shown), the smallest λ from which "
                 "each lemma's bound holds in the proofs' exact form (at λ = 1 that form is a lower bound, by Jensen), and "
                 "E_z ‖E_z f‖², which the printed form of the lemmas takes to be 1 ([theory/README.md](../theory/README.md)):");
  page.table({"method", "t", "L(x, z) mean clf.", "at best λ", "best λ", "Lemma 1 λ", "L(x, y) mean clf.", "at best λ", "best λ",
              "Lemma 2 λ", "E_z ‖E_z f‖²"},
             lemma_rows);
  // Appendix C.2: how likely a rare stratum is to appear in D_t at all, for this pool.
  std::vector<std::vector<std::string>> appear_rows;
  std::vector<double> keep = hierarchy.keep_fraction;
  double total = 0;
  for (double k : keep) total += k;
  const double p_rare = *std::min_element(keep.begin(), keep.end()) / total, p_common = *std::max_element(keep.begin(), keep.end()) / total;
  for (double t : fractions) {
    const double draws = t * static_cast<double>(base.train_samples);
    const StrataAppearance a = strata_appearance(p_common, p_rare, draws);
    appear_rows.push_back({format_number(t), format_number(std::round(draws)), format_number(std::round(a.both * 1e6) / 1e6),
                           format_number(std::round(a.only_z * 1e6) / 1e6), format_number(std::round(a.neither * 1e6) / 1e6)});
  }
  page.paragraph("Seed 000 Appendix C.2's probabilities for a common stratum (p(z) = " + format_number(std::round(p_common * 1e4) / 1e4) +
                 ") and a rare one (p(z') = " + format_number(std::round(p_rare * 1e4) / 1e4) + ") of the whole training distribution, "
                 "in tN draws (geomsim's `strata_appearance`):");
  page.table({"t", "tN", "Pr(both in D_t)", "Pr(only the common one)", "Pr(neither)"}, appear_rows);
  end_page(page, definition, context, table, {{}}, {},
           "Every run, with p(z|y), σ_f(z) and δ per subclass: [`" + context.name + ".csv`](" + context.name +
               ".csv); the per-subclass means: [`" + context.name + "-subclasses.csv`](" + context.name + "-subclasses.csv).");
}

}  // namespace

void run_strata_experiment(const json& definition, const ExperimentContext& context) {
  const StrataSettings settings = strata_settings(definition);
  std::vector<PlannedRun> plan = plan_strata_runs(settings);
  RunCache cache(context.stem() + ".csv", kStrataKey);
  const std::vector<RunRow> rows = run_plan(plan, cache, context, {"strata", [](const PlannedRun&, TrainedRun& run, RunRow& row) {
    add_strata_metrics(run, row);
  }});
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the runs: the page waits for them all
  const RunTable table(rows, kStrataAxes);
  const StrataFigures figures = draw_strata_figures(settings, table, context);
  write_strata_page(definition, context, settings, table, rows, figures);
}

}  // namespace geomsim::train_experiments
