#include "geomsim/train/losses/loss_registry.hpp"

#include <algorithm>
#include <cmath>

#include "geomsim/experiments/spread_problem.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/memory_budget.hpp"
#include "geomsim/train/losses/baseline_losses.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/kernel_contrastive_losses.hpp"
#include "geomsim/train/losses/label_noise_losses.hpp"
#include "geomsim/theory/label_noise_debiasing.hpp"

namespace geomsim::train {
namespace {

constexpr double kMaxPositives = 1e6;  // --positives: more than any batch holds

// The labels of both views, in z's row order.
torch::Tensor view_labels(const LossBatch& b) { return torch::cat({b.labels, b.labels}); }
torch::Tensor first_views(const LossBatch& b) { return b.z.narrow(0, 0, b.labels.size(0)); }
torch::Tensor second_views(const LossBatch& b) { return b.z.narrow(0, b.labels.size(0), b.labels.size(0)); }

// The batch with its labels corrected by seed 000's geometric heuristic (--noise-correction).
LossBatch corrected(const LossBatch& b, const LossOptions& o) {
  LossBatch out = b;
  if (o.noise_correction > 0.0) out.labels = geometric_label_correction(b.z, b.labels, o.noise_correction);
  return out;
}

torch::Tensor spread(const LossBatch& given, const LossOptions& o) {
  const LossBatch b = corrected(given, o);
  return spread_loss(b.z, view_labels(b), b.partner, o.tau, o.alpha, o.include_partner);
}
torch::Tensor supcon(const LossBatch& given, const LossOptions& o) {
  const LossBatch b = corrected(given, o);
  LossBatch grouped = b;  // --positives N: groups of N images of one label are each other's positives
  if (o.positives > 0.0) grouped.labels = positive_groups(b.labels, static_cast<int64_t>(o.positives));
  if (o.base_temperature > 0.0) return supcon_out_loss_scaled(b.z, view_labels(grouped), o.tau, o.base_temperature);
  return supcon_out_loss(b.z, view_labels(grouped), o.tau);
}
torch::Tensor supcon_in(const LossBatch& b, const LossOptions& o) { return supcon_in_loss(b.z, view_labels(b), o.tau); }
torch::Tensor simclr(const LossBatch& b, const LossOptions& o) { return info_nce_loss(b.z, b.partner, o.tau); }
torch::Tensor supcon_simclr(const LossBatch& b, const LossOptions& o) {
  return supcon_out_loss(b.z, view_labels(b), o.tau) + info_nce_loss(b.z, b.partner, o.tau);
}
torch::Tensor attract_repel(const LossBatch& b, const LossOptions& o) {
  return spread_loss_seed000(b.z, view_labels(b), b.partner, o.tau, o.alpha);
}
// K_Z of the batch's conditioning values, or of its labels' one-hot vectors without them (with
// the default cosine kernel: the labels' delta kernel).
torch::Tensor condition_kernel(const LossBatch& b, const LossOptions& o) {
  const ConditioningKernel kernel = conditioning_kernel_of(o);
  if (!b.condition.defined()) return label_conditioning_kernel(b.labels, kernel);
  if (b.condition.dim() != 2 || b.condition.size(0) != b.labels.size(0)) {
    throw InvalidArgument("condition", "must hold one row of conditioning values per sample (B x k)");
  }
  return conditioning_kernel(b.condition, kernel);
}
// W+ (W's negative entries dropped), except for the labels' delta kernel (cosine or linear on
// the labels), whose W has none in exact arithmetic: there W itself, as before the kernels were
// added (the Cholesky solve leaves entries of order 1e-17 of either sign where W is 0).
ConditionalWeights condition_weights(const LossBatch& b, const LossOptions& o) {
  const bool delta = !b.condition.defined() && (o.cond_kernel == "cosine" || o.cond_kernel == "linear");
  return delta ? ConditionalWeights::exact : ConditionalWeights::nonnegative;
}
torch::Tensor cclk_weak(const LossBatch& b, const LossOptions& o) {
  return cclk_weakly_supervised_loss(first_views(b), second_views(b), condition_kernel(b, o), o.kernel_lambda, o.tau,
                                     condition_weights(b, o));
}
torch::Tensor cclk_fair(const LossBatch& b, const LossOptions& o) {
  return cclk_fair_loss(first_views(b), second_views(b), condition_kernel(b, o), o.kernel_lambda, o.tau,
                        condition_weights(b, o));
}
torch::Tensor cclk_hardneg(const LossBatch& b, const LossOptions& o) {
  return cclk_hard_negative_loss(first_views(b), second_views(b), o.kernel_bandwidth, o.kernel_lambda, o.tau);
}
torch::Tensor weaksup_infonce(const LossBatch& b, const LossOptions& o) {
  return weakly_supervised_info_nce_loss(first_views(b), second_views(b), b.labels, o.tau);
}
torch::Tensor fair_infonce(const LossBatch& b, const LossOptions& o) {
  return fair_info_nce_loss(first_views(b), second_views(b), b.labels, o.tau);
}
torch::Tensor hardneg_infonce(const LossBatch& b, const LossOptions& o) {
  return hard_negative_info_nce_loss(first_views(b), second_views(b), b.num_classes, o.tau);
}
torch::Tensor spread_thanos_code(const LossBatch& b, const LossOptions& o) {
  return spread_loss_thanos_code(first_views(b), second_views(b), b.labels, o.tau, o.alpha, o.clip_pos);
}
torch::Tensor cclk_weak_released(const LossBatch& b, const LossOptions& o) {
  return cclk_weakly_supervised_released_loss(first_views(b), second_views(b), delta_kernel(b.labels), o.kernel_lambda, o.tau);
}
torch::Tensor cclk_fair_released(const LossBatch& b, const LossOptions& o) {
  return cclk_fair_released_loss(first_views(b), second_views(b), delta_kernel(b.labels), o.kernel_lambda, o.tau);
}
torch::Tensor triplet(const LossBatch& b, const LossOptions& o) {
  const auto [positive, negative] = draw_triplets(view_labels(b));
  return triplet_loss(b.z, positive, negative, o.tau);
}
torch::Tensor noise_aware_attract(const LossBatch& b, const LossOptions& o) {
  const auto [positives, negatives] = draw_noisy_pairs(view_labels(b), b.partner, static_cast<int64_t>(o.denominator_size));
  return noise_aware_attract_loss(b.z, positives, negatives, o.label_accuracy, o.tau);
}
torch::Tensor clip_positives(const LossBatch& b, const LossOptions& o) {
  return clipped_positives_loss(b.z, view_labels(b), o.tau, o.clip_cosine);
}
torch::Tensor weighted_positives(const LossBatch& b, const LossOptions& o) {
  return weighted_denominator_loss(b.z, view_labels(b), o.tau, o.positive_weight, 1.0);
}
torch::Tensor upweighted_negatives(const LossBatch& b, const LossOptions& o) {
  return weighted_denominator_loss(b.z, view_labels(b), o.tau, 0.0, o.negative_weight);
}

LossNeeds contrastive(bool labels = true) {
  LossNeeds n;
  n.labels = labels;
  n.two_views = true;
  return n;
}
LossNeeds streamed(LossNeeds n, const char* engine = nullptr) {
  n.streamed = true;
  n.engine = engine;
  return n;
}
LossNeeds conditioned(LossNeeds n) {
  n.condition = true;
  return n;
}
LossNeeds with_autoencoder(LossNeeds n) {
  n.autoencoder = true;
  return n;
}
LossNeeds with_classes(LossNeeds n) {
  n.num_classes = true;
  return n;
}
LossNeeds random_draws(LossNeeds n) {
  n.random = true;
  return n;
}
LossNeeds linear_head() {
  LossNeeds n;
  n.labels = true;
  n.linear_head = true;
  return n;
}
LossNeeds autoencoder_alone() {
  LossNeeds n;
  n.labels = true;  // the joint and per-class autoencoders read them
  n.autoencoder = true;
  n.trains_encoder = false;
  return n;
}

std::string joined(const std::vector<std::string>& names) {
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  return list;
}

std::string cli_spelling(std::string name) {
  std::replace(name.begin(), name.end(), '_', '-');
  return name;
}

}  // namespace

bool LossEntry::reads(const std::string& parameter) const {
  const std::string wanted = cli_spelling(parameter);
  return std::find(parameters.begin(), parameters.end(), wanted) != parameters.end();
}

const std::vector<LossParameter>& loss_parameters() {
  static const std::vector<LossParameter> parameters = {
      {"tau", "temperature of the similarities z . z' / tau",
       "in [" + format_number(kMinTemperature) + ", " + format_number(kMaxTemperature) + "]", false, LossOptions{}.tau,
       [](const LossOptions& o) { return o.tau; }, [](LossOptions& o, double v) { o.tau = v; },
       [](double v) { require_in_closed_range("tau", v, kMinTemperature, kMaxTemperature); }},
      {"alpha", "L_spread's weight of cNCE, seed 004's convention (attract-repel: of L_attract, seed 000's)", "in [0, 1]", false,
       LossOptions{}.alpha, [](const LossOptions& o) { return o.alpha; }, [](LossOptions& o, double v) { o.alpha = v; },
       [](double v) { require_in_closed_range("alpha", v, 0.0, 1.0); }},
      {"exclude-partner", "cNCE's denominator leaves out the other view a(x) (seed 004 eq. 3) instead of holding it (eq. 10)",
       "a flag (0 or 1)", true, LossOptions{}.include_partner ? 0.0 : 1.0,
       [](const LossOptions& o) { return o.include_partner ? 0.0 : 1.0; },
       [](LossOptions& o, double v) { o.include_partner = v == 0.0; },
       [](double v) {
         if (v != 0.0 && v != 1.0) throw InvalidArgument("exclude-partner", "is a flag (0 or 1), got " + format_number(v));
       }},
      {"kernel-lambda", "CCL-K's lambda in (K_Z + lambda I)^-1 K_Z (seed 002)", "> 0", false, LossOptions{}.kernel_lambda,
       [](const LossOptions& o) { return o.kernel_lambda; }, [](LossOptions& o, double v) { o.kernel_lambda = v; },
       [](double v) { require_positive("kernel-lambda", v); }},
      {"kernel-bandwidth", "CCL-K HardNeg's Gaussian kernel bandwidth on the embeddings", "> 0", false,
       LossOptions{}.kernel_bandwidth, [](const LossOptions& o) { return o.kernel_bandwidth; },
       [](LossOptions& o, double v) { o.kernel_bandwidth = v; }, [](double v) { require_positive("kernel-bandwidth", v); }},
      {"clip-cosine", "the largest cosine a positive counts with in L_sup's numerator", "in [-1, 1]", false,
       LossOptions{}.clip_cosine, [](const LossOptions& o) { return o.clip_cosine; },
       [](LossOptions& o, double v) { o.clip_cosine = v; }, [](double v) { require_in_closed_range("clip-cosine", v, -1.0, 1.0); }},
      {"positive-weight", "weight of the other positives in L_sup's denominator (0: L_sup, 1: SupCon L_out)", ">= 0", false,
       LossOptions{}.positive_weight, [](const LossOptions& o) { return o.positive_weight; },
       [](LossOptions& o, double v) { o.positive_weight = v; }, [](double v) { require_non_negative("positive-weight", v); }},
      {"negative-weight", "weight of the negatives in L_sup's denominator (1: L_sup)", ">= 0", false,
       LossOptions{}.negative_weight, [](const LossOptions& o) { return o.negative_weight; },
       [](LossOptions& o, double v) { o.negative_weight = v; }, [](double v) { require_non_negative("negative-weight", v); }},
      {"base-temperature",
       "supcon only: SupContrast's base_temperature, the loss times tau / base-temperature (its default 0.07); 0: no factor",
       "0 (no factor) or in [" + format_number(kMinTemperature) + ", " + format_number(kMaxTemperature) + "]", false,
       LossOptions{}.base_temperature, [](const LossOptions& o) { return o.base_temperature; },
       [](LossOptions& o, double v) { o.base_temperature = v; },
       [](double v) {
         if (v == 0.0) return;
         if (!(v >= kMinTemperature && v <= kMaxTemperature)) {
           throw InvalidArgument("base-temperature", "must be 0 (no factor) or in [" + format_number(kMinTemperature) + ", " +
                                                         format_number(kMaxTemperature) + "], got " + format_number(v));
         }
       }},
      {"clip-pos",
       "spread-thanos-code only: thanos-code's clip_pos, its inverted test: 1 clips the positive logits s/tau in L_sup's "
       "numerator at 1; any other value does not clip",
       "a finite number (1: clip at 1, the released default; any other: no clipping)", false, LossOptions{}.clip_pos,
       [](const LossOptions& o) { return o.clip_pos; }, [](LossOptions& o, double v) { o.clip_pos = v; },
       [](double v) {
         if (!std::isfinite(v)) {
           throw InvalidArgument("clip-pos", "must be a finite number (1: clip at 1, the released default; any other: no "
                                             "clipping), got " + format_number(v));
         }
       }},
      {"positives",
       "supcon only: seed 001 Table 3's number of positives N: each label's images in a batch are cut, in batch order, "
       "into groups of N that are each other's positives (both views; the other images of the label are negatives); "
       "1: SimCLR's one positive; 0: every image of the label",
       "a whole number in [0, " + format_number(kMaxPositives) + "] (0: all)", false, LossOptions{}.positives,
       [](const LossOptions& o) { return o.positives; }, [](LossOptions& o, double v) { o.positives = v; },
       [](double v) {
         if (!(v >= 0.0 && v <= kMaxPositives) || v != std::floor(v)) {
           throw InvalidArgument("positives", "must be a whole number in [0, " + format_number(kMaxPositives) +
                                                  "] (0: every image of the label), got " + format_number(v));
         }
       }},
      {"noise-correction",
       "supcon and spread: seed 000's geometric label correction, the fraction of each batch's labels taken as wrong "
       "(the images least like their label's other images against the other labels') and given the nearest label "
       "centre's label (Appendix E.3.2: the noise level as input); 0: none",
       "in [0, 1)", false, LossOptions{}.noise_correction, [](const LossOptions& o) { return o.noise_correction; },
       [](LossOptions& o, double v) { o.noise_correction = v; },
       [](double v) {
         if (!(v >= 0.0 && v < 1.0)) {
           throw InvalidArgument("noise-correction", "must be in [0, 1) (the fraction of each batch's labels taken as wrong), got " +
                                                         format_number(v));
         }
       }},
      {"label-accuracy",
       "noise-aware-attract only: the chance p that a training label is correct, which sets seed 000's weights (Lemma A4, "
       "Proposition A1); 1: no noise",
       "in [0, 1], not 1/2", false, LossOptions{}.label_accuracy, [](const LossOptions& o) { return o.label_accuracy; },
       [](LossOptions& o, double v) { o.label_accuracy = v; }, [](double v) { noise_aware_triplet_weights(v); }},
      {"denominator-size",
       "noise-aware-attract only: Proposition A1's m = n + 1, the terms of L_attract's denominator (2: Lemma A4's triplet)",
       "a whole number in [2, " + std::to_string(kMaxDebiasedDenominator) + "]", false, LossOptions{}.denominator_size,
       [](const LossOptions& o) { return o.denominator_size; }, [](LossOptions& o, double v) { o.denominator_size = v; },
       [](double v) {
         if (!(v >= 2.0 && v <= kMaxDebiasedDenominator) || v != std::floor(v)) {
           throw InvalidArgument("denominator-size", "must be a whole number in [2, " + std::to_string(kMaxDebiasedDenominator) +
                                                         "], got " + format_number(v));
         }
       }},
      {"cond-bandwidth", "CCL-K's conditioning kernel: rbf's exp(-|u - v|^2 / (2 b^2)) and laplacian's exp(-|u - v| / b) bandwidth b",
       "> 0", false, LossOptions{}.cond_bandwidth, [](const LossOptions& o) { return o.cond_bandwidth; },
       [](LossOptions& o, double v) { o.cond_bandwidth = v; }, [](double v) { require_positive("cond-bandwidth", v); }},
      {"cond-degree", "CCL-K's conditioning kernel: polynomial's degree d in (u . v + c)^d (seed 002 Table 5: 3)",
       "an integer in [1, " + format_number(kMaxPolynomialDegree) + "]", false, LossOptions{}.cond_degree,
       [](const LossOptions& o) { return o.cond_degree; }, [](LossOptions& o, double v) { o.cond_degree = v; },
       [](double v) {
         ConditioningKernel k;
         k.degree = v;
         validate(k);
       }},
      {"cond-offset", "CCL-K's conditioning kernel: polynomial's offset c in (u . v + c)^d", ">= 0", false,
       LossOptions{}.cond_offset, [](const LossOptions& o) { return o.cond_offset; },
       [](LossOptions& o, double v) { o.cond_offset = v; }, [](double v) { require_non_negative("cond-offset", v); }},
  };
  return parameters;
}

std::string LossParameter::key() const {
  std::string key = name;
  std::replace(key.begin(), key.end(), '-', '_');
  return key;
}

const LossParameter& loss_parameter(const std::string& name) {
  const std::string wanted = cli_spelling(name);
  std::vector<std::string> names;
  for (const auto& p : loss_parameters()) {
    if (p.name == wanted) return p;
    names.push_back(p.name);
  }
  throw InvalidArgument(name, "is not a loss parameter; the loss parameters are " + joined(names));
}

void validate_loss_parameter(const std::string& name, double value) { loss_parameter(name).check(value); }

void validate(const LossOptions& options) {
  for (const auto& p : loss_parameters()) p.check(p.get(options));
  validate(conditioning_kernel_of(options));
}

ConditioningKernel conditioning_kernel_of(const LossOptions& o) {
  ConditioningKernel k;
  k.name = o.cond_kernel;
  k.bandwidth = o.cond_bandwidth;
  k.degree = o.cond_degree;
  k.offset = o.cond_offset;
  return k;
}

void set_loss_parameter(LossOptions& options, const std::string& name, double value) {
  const LossParameter& p = loss_parameter(name);
  p.check(value);
  p.set(options, value);
}

double loss_parameter_value(const LossOptions& options, const std::string& name) { return loss_parameter(name).get(options); }

double loss_memory_bytes(const LossEntry& entry, const LossOptions& options, int64_t rows, int64_t dim,
                         int64_t element_bytes) {
  const double n = static_cast<double>(rows), d = static_cast<double>(dim), e = static_cast<double>(element_bytes);
  const double tiles = 4.0 * static_cast<double>(torch::get_num_threads()) * 256.0 * 256.0 * e;
  const double linear = 6.0 * n * d * e + 2.0 * n * 16.0 * 8.0 + tiles;  // copies, gradient; statistics, weights
  const bool dense_labels = options.noise_correction > 0.0;  // its label correction holds N x N
  if (entry.needs.streamed && !dense_labels) return linear;
  return linear + 8.0 * n * n * e + 4.0 * n * n;
}

const std::vector<LossEntry>& loss_registry() {
  static const std::vector<LossEntry> entries = {
      {"spread", "seed 004's L_spread = (1 - alpha) L_sup + alpha L_cNCE (eqs. 2-3, 10)", {"tau", "alpha", "exclude-partner", "noise-correction"},
       streamed(contrastive(), "spread"), spread, /*simulated=*/true},
      {"supcon", "SupCon's L_out (seed 001 eq. 2); --base-temperature: SupContrast's scaling tau / base; --positives: Table 3's N",
       {"tau", "base-temperature", "positives", "noise-correction"},
       streamed(contrastive(), "supcon"), supcon},
      {"supcon-in", "SupCon's L_in, the mean inside the log (seed 001 eq. 3)", {"tau"}, streamed(contrastive(), "supcon-in"), supcon_in},
      {"simclr", "InfoNCE on the two views, no labels (SimCLR; seed 001 eq. 1)", {"tau"}, streamed(contrastive(false), "supcon"), simclr},
      {"supcon+simclr", "SupCon L_out + InfoNCE (seed 004's \"SupCon + InfoNCE\" baseline)", {"tau"},
       streamed(contrastive()), supcon_simclr},
      {"attract-repel", "seed 000's L_spread = alpha L_attract + (1 - alpha) L_repel (alpha weights attraction)",
       {"tau", "alpha"}, contrastive(), attract_repel},
      {"cclk-weak", "seed 002's WeaklySup CCL-K (eq. 7), W's negative entries dropped: --cond-kernel on the labels (cosine: their delta kernel) or --condition-on",
       {"tau", "kernel-lambda", "cond-bandwidth", "cond-degree", "cond-offset"}, conditioned(contrastive()), cclk_weak},
      {"cclk-fair", "seed 002's Fair CCL-K (eq. 8), W's negative entries dropped: --cond-kernel on the labels (cosine: their delta kernel) or --condition-on",
       {"tau", "kernel-lambda", "cond-bandwidth", "cond-degree", "cond-offset"}, conditioned(contrastive()), cclk_fair},
      {"cclk-hardneg", "seed 002's HardNeg CCL-K (eq. 9), a Gaussian kernel on the detached embeddings",
       {"tau", "kernel-lambda", "kernel-bandwidth"}, contrastive(false), cclk_hardneg},
      {"ce", "cross-entropy through a linear head on the encoder's features", {}, linear_head(), nullptr},
      {"thanos", "L_spread with an autoencoder trained jointly (seed 004 §5)", {"tau", "alpha", "exclude-partner"},
       with_autoencoder(contrastive()), spread},
      {"autoencoder", "the autoencoder alone (seed 004's cAuto, gAuto): no contrastive term, the encoder is not trained", {},
       autoencoder_alone(), nullptr},
      {"weaksup-infonce", "seed 002's WeaklySup-InfoNCE (eq. 3), conditioned on the labels", {"tau"}, contrastive(),
       weaksup_infonce},
      {"fair-infonce", "seed 002's Fair-InfoNCE (eq. 4), conditioned on the labels", {"tau"}, contrastive(), fair_infonce},
      {"hardneg-infonce", "seed 002's HardNeg-InfoNCE (eq. 5), z the k-means cluster (num_classes of them) of the detached embedding",
       {"tau"}, with_classes(contrastive(false)), hardneg_infonce},
      {"noise-aware-attract",
       "seed 000's noise-aware L_attract (Proposition A1; --denominator-size 2: Lemma A4's triplet), noisy pairs weighted "
       "by --label-accuracy so that its expectation is the clean loss's",
       {"tau", "label-accuracy", "denominator-size"}, random_draws(contrastive()), noise_aware_attract},
      {"triplet", "the triplet loss (seed 000 eq. A7, seed 001 §3.3): one random positive and negative per view", {"tau"},
       random_draws(contrastive()), triplet},
      {"clip-positives", "seed 004 Table 9's Clip Positives: L_sup with a positive's numerator cosine at most clip-cosine",
       {"tau", "clip-cosine"}, contrastive(), clip_positives},
      {"weighted-positives", "seed 004 Table 9's Weighted Pos in Denom.: the other positives in L_sup's denominator, weighted",
       {"tau", "positive-weight"}, contrastive(), weighted_positives},
      {"upweighted-negatives", "seed 004 Table 9's upweighted negatives: L_sup's denominator negatives weighted",
       {"tau", "negative-weight"}, contrastive(), upweighted_negatives},
      {"spread-thanos-code", "thanos-code's released l_spread: view-2 anchors against view 1 only, --clip-pos's inverted clip",
       {"tau", "alpha", "clip-pos"}, contrastive(), spread_thanos_code},
      {"cclk-weak-released", "CCLK-release's cl-infonce (cclk-weak's released form: within-view terms, both views' anchors)",
       {"tau", "kernel-lambda"}, contrastive(), cclk_weak_released},
      {"cclk-fair-released", "CCLK-release's weac-infonce (cclk-fair's released form: within-view negatives, both views' anchors)",
       {"tau", "kernel-lambda"}, contrastive(), cclk_fair_released},
  };
  return entries;
}

const std::vector<std::string>& train_loss_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all;
    for (const auto& entry : loss_registry()) all.push_back(entry.name);
    return all;
  }();
  return names;
}

std::string train_loss_list() { return joined(train_loss_names()); }

const LossEntry& loss_entry(const std::string& name) {
  for (const auto& entry : loss_registry()) {
    if (entry.name == name) return entry;
  }
  throw InvalidArgument("loss", "must be one of " + train_loss_list() + "; got '" + name + "'");
}

void require_loss_reads(const std::string& loss, const std::string& parameter) {
  const LossEntry& entry = loss_entry(loss);
  const LossParameter& p = loss_parameter(parameter);
  if (!entry.reads(p.name)) {
    throw InvalidArgument(p.name, "is not read by --loss " + loss + " (it reads " +
                                      (entry.parameters.empty() ? std::string("none") : joined(entry.parameters)) + ")");
  }
}

std::string condition_reader_list() {
  std::vector<std::string> readers;
  for (const auto& entry : loss_registry()) {
    if (entry.needs.condition) readers.push_back(entry.name);
  }
  return joined(readers);
}

void require_loss_reads_condition(const std::string& loss, const std::string& argument) {
  if (!loss_entry(loss).needs.condition) {
    throw InvalidArgument(argument, "is not read by --loss " + loss + " (it is read by " + condition_reader_list() + ")");
  }
}

torch::Tensor batch_loss(const std::string& loss, const LossBatch& batch, const LossOptions& options) {
  const LossEntry& entry = loss_entry(loss);
  if (entry.batch == nullptr) {
    throw InvalidArgument("loss", loss + " has no loss on a batch of embeddings (the trainer computes it from " +
                                      (entry.needs.linear_head ? "a linear head" : "the autoencoder") + ")");
  }
  // A batch in host memory large enough that a dense loss's N x N matrices matter is checked
  // against the machine's memory first: a refusal naming the features, not the OOM killer (issue
  // 53). On a GPU an allocation that does not fit raises torch's OutOfMemoryError instead.
  constexpr double kCheckedBytes = 2.56e8;
  if (batch.z.defined() && batch.z.dim() == 2 && batch.z.device().is_cpu()) {
    const double bytes = loss_memory_bytes(entry, options, batch.z.size(0), batch.z.size(1),
                                           static_cast<int64_t>(batch.z.element_size()));
    if (bytes > kCheckedBytes) {
      require_memory("features", bytes, "the " + loss + " loss of " + std::to_string(batch.z.size(0)) + " embeddings");
    }
  }
  return entry.batch(batch, options);
}

}  // namespace geomsim::train
