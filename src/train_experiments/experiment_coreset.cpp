// The "coreset" kind: seed 000's minimal coresets (§5.4, Fig. 4 right, Appendix E.3.3) against
// the baselines it compares with, Forgetting (Toneva et al.) and GraNd and EL2N (Paul et al.),
// and a random sample. For each seed, on one pool of train_images training images:
//   1. Every scorer scores every image of the pool (each seed's scoring is done once, for all
//      the seed's runs, and only when one of them is missing from the cache):
//      forgetting  score_runs cross-entropy runs on the whole pool for `epochs` epochs; after each
//                  epoch the head classifies every pool image (unaugmented); an image's score is
//                  its forgetting events (train/analysis/example_difficulty.hpp), mean over runs
//      el2n        the same runs' EL2N after epoch el2n_epoch, mean over runs
//      grand       GraNd at initialisation, mean over score_runs initialisations
//      spread-buckets  seed 000's: L_spread on spread_samples random subsets of each fraction t of
//                  spread_fractions (for about spread_epochs / t epochs, so every run takes about
//                  as many steps), then a linear probe on the frozen embeddings, fit on the labels
//                  of a fixed probe_labels share of the pool, classifies every pool image; an
//                  image's bucket is how many of the runs classified it correctly
//      random      nothing
//   2. Each scorer's coreset of each size s (a fraction of the pool): metrics/coreset_selection.hpp
//      (seed 000's bucket removal per class; the highest scores; a uniform sample).
//   3. The end model, a cross-entropy classifier from a fresh initialisation (the seed's), trains on
//      the coreset for about epochs / s epochs (as many steps as on the whole pool) and is scored by
//      its own head's accuracy on the test images (head_accuracy).
// Claims' axes: method (the scorer), size.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <optional>

#include "geomsim/experiments/experiment_page.hpp"
#include "geomsim/figures/line_figure.hpp"
#include "geomsim/metrics/coreset_selection.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/number_lists.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/train/analysis/example_difficulty.hpp"
#include "geomsim/train/training/evaluation.hpp"
#include "geomsim/train/data/tensor_points.hpp"
#include "geomsim/train_experiments/experiment_claims.hpp"
#include "geomsim/train_experiments/experiment_kinds.hpp"
#include "geomsim/train_experiments/experiment_progress.hpp"

namespace geomsim::train_experiments {
using nlohmann::json;

namespace {

const std::vector<std::string> kCoresetAxes = {"method", "size"};
const std::vector<std::string> kCoresetKey = {"method", "hierarchy", "encoder", "seed", "size"};

// What a coreset method chooses by: nothing (at random), a score of every pool image (the
// highest scores kept), or seed 000's L_spread difficulty buckets.
enum class PoolScore { none, forgetting, el2n, grand, buckets };

struct CoresetMethod {
  std::string name;   // a definition's "methods" entry
  std::string label;  // its row on the page
  // The labels its choice reads, for the page's tables (every end model trains on the labels of
  // its coreset); the buckets' text adds the probe's share of the labels.
  std::string labels_seen;
  PoolScore score;
};

const std::vector<CoresetMethod>& coreset_methods() {
  static const std::vector<CoresetMethod> methods = {
      {"random", "Random", "none", PoolScore::none},
      {"forgetting", "Forgetting (Toneva et al.)", "every pool label (cross entropy)", PoolScore::forgetting},
      {"el2n", "EL2N (Paul et al.)", "every pool label (cross entropy)", PoolScore::el2n},
      {"grand", "GraNd (Paul et al.)", "every pool label (the loss's gradient at initialisation)", PoolScore::grand},
      {"spread-buckets", "L_spread buckets (seed 000)", "every pool label (L_spread)", PoolScore::buckets},
  };
  return methods;
}

// InvalidArgument("definition") naming the known methods for another name.
const CoresetMethod& coreset_method(const std::string& name) {
  std::string known;
  for (const auto& method : coreset_methods()) {
    if (method.name == name) return method;
    known += (known.empty() ? "" : ", ") + method.name;
  }
  throw InvalidArgument("definition", "methods: unknown coreset method '" + name + "'; known: " + known);
}

std::string scorer_labels_seen(const std::string& scorer, double probe_labels) {
  const CoresetMethod& method = coreset_method(scorer);
  if (method.score != PoolScore::buckets) return method.labels_seen;
  return method.labels_seen + ", a " + format_number(probe_labels * 100) + " % share (the probe)";
}

struct CoresetSettings {
  std::string hierarchy, encoder;
  std::vector<std::string> scorers;
  std::vector<double> sizes, spread_fractions;
  std::vector<std::uint64_t> seeds;
  TrainRunOptions base;
  double alpha = 0.5, tau = 0.1, probe_labels = 0.1;
  int64_t score_runs = 2, el2n_epoch = 1, spread_samples = 3, spread_epochs = 3;
};

// The pool's size times a fraction, in images.
int64_t images_of(double fraction, int64_t pool) { return std::llround(fraction * static_cast<double>(pool)); }

CoresetSettings read_settings(const json& p) {
  CoresetSettings s;
  s.hierarchy = string_parameter(p, "hierarchy");
  s.encoder = string_parameter(p, "encoder");
  s.scorers = string_list(p, "methods");
  s.sizes = number_list(p, "sizes");
  s.spread_fractions = number_list(p, "spread_fractions");
  s.seeds = seed_list(p, "seeds");
  s.alpha = number_parameter(p, "alpha");
  s.tau = number_parameter(p, "tau");
  s.probe_labels = number_parameter(p, "probe_labels");
  s.score_runs = integer_parameter(p, "score_runs", 1);
  s.el2n_epoch = integer_parameter(p, "el2n_epoch", 1);
  s.spread_samples = integer_parameter(p, "spread_samples", 1);
  s.spread_epochs = integer_parameter(p, "spread_epochs", 1);
  s.base = base_training_options(p);
  for (const auto& scorer : s.scorers) coreset_method(scorer);
  if (s.scorers.size() > static_cast<std::size_t>(kMaxLineCurves)) throw InvalidArgument("definition", "methods lists more than the figure tells apart");
  if (s.el2n_epoch > s.base.train.epochs) {
    throw InvalidArgument("definition", "el2n_epoch must be at most epochs (" + std::to_string(s.base.train.epochs) + "), got " + std::to_string(s.el2n_epoch));
  }
  if (!(s.probe_labels > 0.0 && s.probe_labels <= 1.0)) {
    throw InvalidArgument("definition", "probe_labels must be in (0, 1], got " + format_number(s.probe_labels));
  }
  validate(method_options(s.base, training_method("ce")));  // before the fractions are held against its batch
  const int64_t batch = s.base.train.batch_size;
  const auto require_fraction = [&](const char* name, double f) {
    if (!(f > 0.0 && f <= 1.0)) throw InvalidArgument("definition", std::string(name) + " must be in (0, 1], got " + format_number(f));
    if (images_of(f, s.base.train_samples) < batch) {
      throw InvalidArgument("definition", std::string(name) + " " + format_number(f) + " of " + std::to_string(s.base.train_samples) +
                                              " images is fewer than one batch of " + std::to_string(batch));
    }
  };
  for (double f : s.sizes) require_fraction("sizes", f);
  for (double f : s.spread_fractions) require_fraction("spread_fractions", f);
  return s;
}

// One seed's scores of every pool image, and the seconds they took.
struct PoolScores {
  std::vector<double> forgetting, el2n, grand;
  std::vector<int> buckets;  // spread-buckets: how many runs classified the image correctly
  std::vector<int> labels, fine;  // the classes the scores and seed 000's quotas read, and the subclasses
  int max_bucket = 0;
  double seconds = 0.0;
};

// Whether some method of the definition chooses by `score`.
bool wants(const CoresetSettings& s, PoolScore score) {
  return std::any_of(s.scorers.begin(), s.scorers.end(), [&](const std::string& m) { return coreset_method(m).score == score; });
}

PoolScores score_pool(const CoresetSettings& s, std::uint64_t seed, const ExperimentContext& context) {
  const auto start = std::chrono::steady_clock::now();
  const TrainRunOptions end = context.on_device(run_options(s.base, "ce", s.encoder, seed, s.hierarchy, s.alpha, s.tau));
  // The pool exactly as train_run loads it for the seed's runs (the same data options and seed).
  DataOptions data = end.data;
  data.hierarchy = data_hierarchy(end.data);
  const LabelledSplit pool = load_split(data, true, end.train_samples, seed, "train-images");
  const int64_t n = pool.images.size(0), classes = train::resolve_hierarchy(data.hierarchy).num_coarse();
  PoolScores scores;
  const auto labels = pool.coarse.contiguous();
  scores.labels.assign(labels.data_ptr<int64_t>(), labels.data_ptr<int64_t>() + n);
  const auto fine = pool.fine.contiguous();
  scores.fine.assign(fine.data_ptr<int64_t>(), fine.data_ptr<int64_t>() + n);
  const auto runs = static_cast<double>(s.score_runs);

  if (wants(s, PoolScore::forgetting) || wants(s, PoolScore::el2n)) {
    auto forgetting = torch::zeros({n}, torch::kDouble), el2n = torch::zeros({n}, torch::kDouble);
    for (int64_t r = 0; r < s.score_runs; ++r) {
      TrainRunOptions o = end;
      o.train.seed = seed * 1000003ULL + 101 * static_cast<std::uint64_t>(r + 1);  // another initialisation, the same pool
      o.data_seed = seed;
      o.quiet = true;
      std::vector<torch::Tensor> correct;
      o.train.on_epoch_end = [&](const train::EpochSummary& e, train::Encoder& encoder, torch::nn::Linear& head) {
        const auto logits = train::classifier_logits(encoder, head, pool.images);
        correct.push_back(logits.argmax(1).eq(pool.coarse));
        if (e.epoch == s.el2n_epoch) el2n += train::el2n_scores(logits, pool.coarse);
      };
      train_run(o, context.job);
      forgetting += train::forgetting_events(torch::stack(correct));
    }
    scores.forgetting = train::to_doubles(forgetting / runs);
    scores.el2n = train::to_doubles(el2n / runs);
  }
  if (wants(s, PoolScore::grand)) {
    train::EncoderOptions model = end.model;
    model.channels = pool.images.size(1);
    model.image_size = pool.images.size(3);
    const torch::Device device = end.train.device;
    auto grand = torch::zeros({n}, torch::kDouble);
    for (int64_t r = 0; r < s.score_runs; ++r) {
      torch::manual_seed(seed * 1000003ULL + 7 * static_cast<std::uint64_t>(r + 1));
      train::Encoder encoder(model);  // as train_encoder builds the "ce" network: the encoder, then its head
      torch::nn::Linear head(model.embedding_dim, classes);
      encoder->to(device);
      head->to(device);
      grand += train::gradient_norm_scores(encoder, head, pool.images, pool.coarse).to(grand.device());
    }
    scores.grand = train::to_doubles(grand / runs);
  }
  if (wants(s, PoolScore::buckets)) {
    // The labels the probe sees: a fixed share of the pool, at least one per class.
    const auto probe_size = static_cast<std::size_t>(std::max<int64_t>(classes, images_of(s.probe_labels, n)));
    const auto labelled_rows = random_coreset(static_cast<std::size_t>(n), std::min<std::size_t>(probe_size, static_cast<std::size_t>(n)), seed * 31 + 5);
    const auto labelled = torch::tensor(std::vector<int64_t>(labelled_rows.begin(), labelled_rows.end()), torch::kLong);
    auto correct = torch::zeros({n}, torch::kInt);
    for (std::size_t f = 0; f < s.spread_fractions.size(); ++f) {
      const double t = s.spread_fractions[f];
      for (int64_t k = 0; k < s.spread_samples; ++k) {
        const std::uint64_t run_seed = seed * 1000003ULL + 1000 * (f + 1) + static_cast<std::uint64_t>(k);
        TrainRunOptions o = context.on_device(run_options(s.base, "spread", s.encoder, run_seed, s.hierarchy, s.alpha, s.tau));
        o.data_seed = seed;
        o.quiet = true;
        o.train.epochs = std::max<int64_t>(1, std::llround(static_cast<double>(s.spread_epochs) / t));
        const auto rows = random_coreset(static_cast<std::size_t>(n), static_cast<std::size_t>(images_of(t, n)), run_seed);
        o.train_subset.assign(rows.begin(), rows.end());
        TrainedRun run = train_run(o, context.job);
        const auto z = train::embed(run.encoder, pool.images, context.job, run.autoencoder);
        auto probe = train::fit_linear_probe(z.index_select(0, labelled), pool.coarse.index_select(0, labelled), classes, 300, 0.05, run_seed);
        torch::NoGradGuard no_grad;
        correct += probe->forward(z).argmax(1).eq(pool.coarse).to(torch::kInt);
        ++scores.max_bucket;
      }
    }
    const auto c = correct.contiguous();
    scores.buckets.assign(c.data_ptr<int>(), c.data_ptr<int>() + n);
  }
  scores.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return scores;
}

struct Coreset {
  std::vector<std::size_t> rows;
  int filled_classes = 0;  // subclasses the method left without an image, given one (fill_empty_classes)
};

// The end run's evaluation fits the mean classifier of every subclass (fine label) on the training
// images, so a coreset must hold one image of each; a score method choosing globally can leave
// one out (GraNd at initialisation does, on Fashion-MNIST's trousers). Each such subclass gets its
// own highest-priority image in place of the lowest-priority chosen image of the subclasses that
// have the most, which keeps the size and changes the coreset by as little as the evaluation needs.
int fill_empty_classes(std::vector<std::size_t>& rows, const std::vector<int>& labels, const std::vector<double>& priority) {
  const int classes = *std::max_element(labels.begin(), labels.end()) + 1;
  int filled = 0;
  for (int y = 0; y < classes; ++y) {
    std::vector<int> count(static_cast<std::size_t>(classes), 0);
    for (std::size_t r : rows) ++count[static_cast<std::size_t>(labels[r])];
    if (count[static_cast<std::size_t>(y)] > 0) continue;
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (labels[i] == y && (!best || priority[i] > priority[*best])) best = i;
    }
    if (!best) continue;  // no image of the class in the pool either
    const int most = *std::max_element(count.begin(), count.end());
    std::size_t drop = rows.size();
    for (std::size_t k = 0; k < rows.size(); ++k) {
      if (count[static_cast<std::size_t>(labels[rows[k]])] == most && (drop == rows.size() || priority[rows[k]] < priority[rows[drop]])) drop = k;
    }
    rows[drop] = *best;
    ++filled;
  }
  std::sort(rows.begin(), rows.end());
  return filled;
}

Coreset choose_coreset(const std::string& scorer, const PoolScores& scores, std::size_t size, std::uint64_t seed) {
  Coreset c;
  std::vector<double> priority;
  const PoolScore score = coreset_method(scorer).score;
  if (score == PoolScore::none || score == PoolScore::buckets) {
    c.rows = score == PoolScore::none ? random_coreset(scores.labels.size(), size, seed)
                                      : difficulty_bucket_coreset(scores.buckets, scores.labels, size, seed);
    Rng rng(seed + 1);
    for (std::size_t i = 0; i < scores.labels.size(); ++i) priority.push_back(rng.uniform());
  } else {
    priority = score == PoolScore::forgetting ? scores.forgetting : score == PoolScore::el2n ? scores.el2n : scores.grand;
    c.rows = top_score_coreset(priority, size, seed);
  }
  c.filled_classes = fill_empty_classes(c.rows, scores.fine, priority);
  return c;
}

}  // namespace

void run_coreset_experiment(const json& definition, const ExperimentContext& context) {
  const CoresetSettings s = read_settings(definition.at("parameters"));
  validate_claims(definition, kCoresetAxes);
  const int64_t pool = s.base.train_samples;
  std::string fractions_text;
  for (double t : s.spread_fractions) fractions_text += (fractions_text.empty() ? "" : "+") + format_number(t);

  // The end runs, every seed's, before their coresets are known: what identifies them.
  struct EndRun {
    std::size_t seed_index;
    std::string scorer;
    double size;
    PlannedRun run;
  };
  std::vector<EndRun> ends;
  for (std::size_t i = 0; i < s.seeds.size(); ++i) {
    for (const auto& scorer : s.scorers) {
      for (double size : s.sizes) {
        TrainRunOptions o = run_options(s.base, "ce", s.encoder, s.seeds[i], s.hierarchy, s.alpha, s.tau);
        o.train.epochs = std::max<int64_t>(1, std::llround(static_cast<double>(s.base.train.epochs) / size));
        RunRow row = training_parameters(scorer, o);
        row.set("size", format_number(size));
        row.set("coreset_images", std::to_string(images_of(size, pool)));
        const PoolScore score = coreset_method(scorer).score;
        if (score != PoolScore::none) row.set("score_runs", std::to_string(s.score_runs));
        if (score == PoolScore::el2n) row.set("el2n_epoch", std::to_string(s.el2n_epoch));
        if (score == PoolScore::buckets) {
          row.set("spread_fractions", fractions_text);
          row.set("spread_samples", std::to_string(s.spread_samples));
          row.set("spread_epochs", std::to_string(s.spread_epochs));
          row.set("probe_labels", format_number(s.probe_labels));
        }
        ends.push_back({i, scorer, size, PlannedRun(o, row, scorer + " " + format_number(size) + " seed " + std::to_string(s.seeds[i]))});
      }
    }
  }
  RunCache cache(context.stem() + ".csv", kCoresetKey);
  // This process's seeds (a shard takes whole seeds, so that each seed's pool is scored once) whose
  // runs the cache lacks; the ranks agree on them (through a context without the shard, which
  // agreed_runs would otherwise apply to the runs' indices).
  ExperimentContext whole = context;  // each seed's runs are trained by this process, all of them
  whole.shard = Shard{};
  std::vector<bool> missing(ends.size(), false);
  for (std::size_t k = 0; k < ends.size(); ++k) {
    missing[k] = context.shard.contains(ends[k].seed_index) && !cache.find(ends[k].run.parameters);
  }
  missing = whole.agreed_runs(missing);
  for (std::size_t i = 0; i < s.seeds.size(); ++i) {
    bool needed = false;
    for (std::size_t k = 0; k < ends.size(); ++k) needed = needed || (ends[k].seed_index == i && missing[k]);
    if (!needed) continue;
    context.log() << "geomsim experiment " << context.name << ": scoring the pool of seed " << s.seeds[i] << "\n";
    const PoolScores scores = score_pool(s, s.seeds[i], context);
    std::vector<PlannedRun> plan;
    std::map<std::string, double> easy_share;  // by run label: the coreset's share of images every spread run classified correctly
    std::map<std::string, int> filled;         // by run label: the classes fill_empty_classes gave an image
    for (const auto& e : ends) {
      if (e.seed_index != i) continue;
      PlannedRun run = e.run;
      const Coreset coreset = choose_coreset(e.scorer, scores, static_cast<std::size_t>(images_of(e.size, pool)), s.seeds[i] * 7 + 3);
      const auto& rows = coreset.rows;
      run.options.train_subset.assign(rows.begin(), rows.end());
      filled[run.label] = coreset.filled_classes;
      run.options.quiet = true;
      if (!scores.buckets.empty()) {
        std::size_t easy = 0;
        for (std::size_t r : rows) easy += scores.buckets[r] == scores.max_bucket ? 1 : 0;
        easy_share[run.label] = static_cast<double>(easy) / static_cast<double>(rows.size());
      }
      plan.push_back(run);
    }
    run_plan(plan, cache, whole, {"coreset", [&](const PlannedRun& p, TrainedRun&, RunRow& row) {
      if (easy_share.count(p.label)) row.set("easy_share", easy_share[p.label]);
      row.set("filled_classes", static_cast<double>(filled[p.label]));
      row.set("score_seconds", scores.seconds);  // the seed's scoring, shared by its runs
    }});
  }
  if (!context.writes_page()) return;  // a rank other than 0, or one shard of the seeds: the page waits for them all

  std::vector<RunRow> rows;
  for (const auto& e : ends) {
    const auto row = cache.find(e.run.parameters);
    if (!row) throw ComputationFailed("coreset run " + e.run.label + " is missing from " + cache.path() + " after training");
    rows.push_back(*row);
  }
  const RunTable table(rows, kCoresetAxes);
  double score_seconds = 0;
  for (std::size_t i = 0; i < s.seeds.size(); ++i) {
    for (const auto& r : rows) {
      if (r.text("seed") == std::optional<std::string>(std::to_string(s.seeds[i])) && r.number("score_seconds")) {
        score_seconds += *r.number("score_seconds");
        break;
      }
    }
  }

  LineFigureSpec figure;
  figure.title = "End-model accuracy against the coreset's size";
  figure.subtitle = s.hierarchy + ", " + s.encoder + ", a pool of " + std::to_string(pool) + " images, ~" + std::to_string(s.base.train.epochs) +
                    "/size epochs of cross entropy, seeds " + format_seed_list(s.seeds) + " (± sd)";
  figure.xlabel = "coreset size (share of the pool)";
  figure.ylabel = "test accuracy of the end model (%)";
  LinePanel panel;
  for (const auto& scorer : s.scorers) {
    LineCurve curve;
    for (double size : s.sizes) {
      const auto c = table.cell({{"method", scorer}, {"size", format_number(size)}}, "head_accuracy");
      if (c) curve.points.emplace_back(size, 100 * c->mean), curve.errors.push_back(100 * c->sd);
    }
    figure.legend.push_back(coreset_method(scorer).label);
    curve.style = static_cast<int>(figure.legend.size());
    panel.curves.push_back(curve);
  }
  figure.panels = {panel};
  line_figure(figure).render(context.stem());

  ExperimentPage page = begin_page(definition, context);
  page.paragraph("**Setup.** Fashion-MNIST " + s.hierarchy + " (" + std::to_string(train::resolve_hierarchy(s.hierarchy).num_coarse()) +
                 " classes), " + s.encoder + " encoder (embedding " + std::to_string(s.base.model.embedding_dim) + ", width " +
                 std::to_string(s.base.model.width) + "), a pool of " + std::to_string(pool) + " training images per seed and " +
                 std::to_string(s.base.test_samples) + " test images, recipe " + s.base.recipe + ". The end model trains with cross entropy on "
                 "each coreset for about " + std::to_string(s.base.train.epochs) + "/size epochs (as many steps as " + std::to_string(s.base.train.epochs) +
                 " epochs on the whole pool) and is scored by its own head. Forgetting and EL2N come from " + std::to_string(s.score_runs) +
                 " cross-entropy runs on the whole pool (" + std::to_string(s.base.train.epochs) + " epochs; every pool image classified after each "
                 "epoch; EL2N after epoch " + std::to_string(s.el2n_epoch) + "), GraNd from " + std::to_string(s.score_runs) +
                 " initialisations; seed 000's buckets from L_spread (τ = " + format_number(s.tau) + ", α = " + format_number(s.alpha) + ") on " +
                 std::to_string(s.spread_samples) + " random subsets at each fraction " + fractions_text + " (about " +
                 std::to_string(s.spread_epochs) + "/t epochs), each followed by a linear probe on the frozen embeddings fit on the labels of " +
                 format_number(s.probe_labels * 100) + " % of the pool. Seeds " + format_seed_list(s.seeds) + ".");
  page.paragraph("**Measured wall time.** " + std::to_string(rows.size()) + " end runs, " + clock_text(total_seconds(rows)) +
                 ", and the scoring of " + std::to_string(s.seeds.size()) + " pools, " + clock_text(score_seconds) + " (" +
                 format_number(std::round(total_seconds(rows) + score_seconds)) + " s in all).");
  page.image(context.name + ".png", "The end model's test accuracy against the coreset's size, one curve per coreset method");
  std::vector<std::string> header = {"method", "labels the choice reads"};
  for (double size : s.sizes) header.push_back(format_number(size * 100) + " % (" + std::to_string(images_of(size, pool)) + ")");
  std::vector<std::vector<std::string>> accuracy_rows, easy_rows, filled_rows;
  for (const auto& scorer : s.scorers) {
    std::vector<std::string> accuracy = {coreset_method(scorer).label, scorer_labels_seen(scorer, s.probe_labels)};
    std::vector<std::string> easy = accuracy, filled = accuracy;
    for (double size : s.sizes) {
      const Selector where = {{"method", scorer}, {"size", format_number(size)}};
      accuracy.push_back(cell_text(table, where, "head_accuracy", 100, 1));
      easy.push_back(cell_text(table, where, "easy_share", 100, 1));
      filled.push_back(cell_text(table, where, "filled_classes", 1, 1));
    }
    accuracy_rows.push_back(accuracy);
    easy_rows.push_back(easy);
    filled_rows.push_back(filled);
  }
  page.paragraph("The end model's test accuracy (%), mean ± sd over seeds, by coreset size (share of the pool, and images); "
                 "every end model trains on its coreset's labels:");
  page.table(header, accuracy_rows);
  if (wants(s, PoolScore::buckets)) {
    page.paragraph("The share (%) of each coreset's images that every L_spread run classified correctly (seed 000's easiest bucket), "
                   "mean ± sd over seeds: what \"removing too many easy examples\" (§5.4) takes away. The whole pool's share is the "
                   "random coreset's.");
    page.table(header, easy_rows);
  }
  page.paragraph("The subclasses (fine labels; under the identity hierarchy the classes) a method's choice left without any "
                 "image, each then given its own highest-scored one in place of the lowest-scored image of the largest (the "
                 "evaluation needs one of each), mean ± sd over seeds; seed 000's buckets take each class's share, the random "
                 "sample draws uniformly:");
  page.table(header, filled_rows);
  end_page(page, definition, context, table, {{}}, {},
           "Every end run: [`" + context.name + ".csv`](" + context.name + ".csv).");
}

}  // namespace geomsim::train_experiments
