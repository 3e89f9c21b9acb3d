#include "geomsim/train/losses/streamed_contrastive_loss.hpp"

#include <ATen/Dispatch.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <vector>

#include "cuda_kernels.hpp"
#include "device_ops.hpp"
#include "geomsim/objectives/contrastive_tiles.hpp"
#include "geomsim/support/errors.hpp"

namespace geomsim::train {
namespace {

using detail::kInf;

bool is_integer(const torch::Tensor& t) { return c10::isIntegralType(t.scalar_type(), /*includeBool=*/false); }

// z in the dtype the passes compute in: float16 and bfloat16 in float.
torch::Tensor computing(const torch::Tensor& z) {
  return z.scalar_type() == torch::kHalf || z.scalar_type() == torch::kBFloat16 ? z.to(torch::kFloat) : z;
}

// The rows in class order (a stable sort by label), with each row's class run, partner and
// anchor flag in that order: what the engine reads. Host memory only.
struct ClassOrder {
  std::vector<int64_t> order, first, last, partner;
  std::unique_ptr<bool[]> anchor;
  torch::Tensor index;  // order as an int64 tensor
};

ClassOrder class_order(const torch::Tensor& labels, const torch::Tensor& partner, const torch::Tensor& anchors) {
  const auto l = labels.to(torch::kLong).contiguous();
  const int64_t* label = l.data_ptr<int64_t>();
  const int64_t n = l.size(0);
  const auto at = [](int64_t k) { return static_cast<std::size_t>(k); };
  ClassOrder c;
  c.order.resize(at(n));
  std::iota(c.order.begin(), c.order.end(), int64_t{0});
  std::stable_sort(c.order.begin(), c.order.end(), [&](int64_t a, int64_t b) { return label[a] < label[b]; });
  std::vector<int64_t> position(at(n));
  for (int64_t k = 0; k < n; ++k) position[at(c.order[at(k)])] = k;
  c.first.resize(at(n));
  c.last.resize(at(n));
  for (int64_t begin = 0; begin < n;) {
    int64_t end = begin + 1;
    while (end < n && label[c.order[at(end)]] == label[c.order[at(begin)]]) ++end;
    std::fill(c.first.begin() + begin, c.first.begin() + end, begin);
    std::fill(c.last.begin() + begin, c.last.begin() + end, end);
    begin = end;
  }
  if (partner.defined()) {
    const auto p = partner.to(torch::kLong).contiguous();
    const int64_t* of = p.data_ptr<int64_t>();
    c.partner.resize(at(n));
    for (int64_t k = 0; k < n; ++k) c.partner[at(k)] = position[at(of[c.order[at(k)]])];
  }
  if (anchors.defined()) {
    const auto a = anchors.to(torch::kBool).contiguous();
    const bool* flag = a.data_ptr<bool>();
    c.anchor = std::make_unique<bool[]>(at(n));
    for (int64_t k = 0; k < n; ++k) c.anchor[at(k)] = flag[c.order[at(k)]];
  }
  c.index = torch::tensor(c.order, torch::kLong);
  return c;
}

template <class T>
ContrastiveRows<T> engine_rows(const torch::Tensor& sorted, const ClassOrder& c, double tau) {
  ContrastiveRows<T> rows;
  rows.z = sorted.data_ptr<T>();
  rows.n = sorted.size(0);
  rows.dim = sorted.size(1);
  rows.inv_tau = 1.0 / tau;
  rows.class_first = c.first.data();
  rows.class_last = c.last.data();
  rows.partner = c.partner.empty() ? nullptr : c.partner.data();
  rows.anchor = c.anchor.get();
  return rows;
}

bool sup_terms(const ContrastiveLossSpec& spec) { return spec.kind == ContrastiveKind::spread && spec.alpha < 1.0; }

// The statistics by the CPU engine (float or double z), in z's row order.
torch::Tensor engine_statistics(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                const torch::Tensor& anchors, const ContrastiveLossSpec& spec) {
  const ClassOrder c = class_order(labels, partner, anchors);
  const auto sorted = z.detach().index_select(0, c.index).contiguous();
  auto statistics = torch::empty({z.size(0), kContrastiveStatistics}, torch::kDouble);
  AT_DISPATCH_FLOATING_TYPES(z.scalar_type(), "contrastive_statistics", [&] {
    contrastive_statistics(engine_rows<scalar_t>(sorted, c, spec.tau), sup_terms(spec), statistics.data_ptr<double>());
  });
  return torch::empty_like(statistics).index_copy_(0, c.index, statistics);
}

torch::Tensor engine_gradient(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                              const torch::Tensor& anchors, const torch::Tensor& statistics, const torch::Tensor& weights,
                              const ContrastiveLossSpec& spec) {
  const ClassOrder c = class_order(labels, partner, anchors);
  const auto sorted = z.detach().index_select(0, c.index).contiguous();
  const auto sorted_statistics = statistics.index_select(0, c.index).contiguous();
  const auto sorted_weights = weights.index_select(0, c.index).contiguous();
  auto gradient = torch::zeros_like(sorted);
  AT_DISPATCH_FLOATING_TYPES(z.scalar_type(), "contrastive_gradient", [&] {
    contrastive_gradient(engine_rows<scalar_t>(sorted, c, spec.tau), sorted_statistics.data_ptr<double>(),
                         sorted_weights.data_ptr<double>(), gradient.data_ptr<scalar_t>());
  });
  gradient.mul_(1.0 / spec.tau);
  return torch::empty_like(gradient).index_copy_(0, c.index, gradient);
}

// The same two passes in ATen operators, over blocks of rows against all columns, on any device.
constexpr int64_t kAtenBlock = 4096;

struct BlockMasks {
  torch::Tensor s, negatives, positives, denominator, partner;  // block x N
};

BlockMasks block_masks(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, int64_t r0,
                       int64_t r1, double tau) {
  const int64_t n = z.size(0);
  BlockMasks m;
  m.s = torch::matmul(z.narrow(0, r0, r1 - r0), z.t()) / tau;
  const auto columns = torch::arange(n, labels.options().dtype(torch::kLong));
  const auto rows = columns.narrow(0, r0, r1 - r0);
  const auto same = labels.narrow(0, r0, r1 - r0).unsqueeze(1).eq(labels.unsqueeze(0));
  m.negatives = same.logical_not();
  m.positives = same.logical_and(rows.unsqueeze(1).ne(columns.unsqueeze(0)));
  if (partner.defined()) {
    m.partner = partner.to(torch::kLong).narrow(0, r0, r1 - r0).unsqueeze(1).eq(columns.unsqueeze(0)).logical_and(same);
    m.denominator = m.positives.logical_and(m.partner.logical_not());
  } else {
    m.partner = torch::zeros_like(same);
    m.denominator = m.positives;
  }
  return m;
}

torch::Tensor masked_lse(const torch::Tensor& s, const torch::Tensor& mask) {
  return torch::logsumexp(s.masked_fill(mask.logical_not(), -kInf), 1);
}

torch::Tensor aten_statistics(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                              const ContrastiveLossSpec& spec) {
  const int64_t n = z.size(0);
  auto statistics = torch::zeros({n, kContrastiveStatistics}, z.options().dtype(torch::kDouble));
  for (int64_t r0 = 0; r0 < n; r0 += kAtenBlock) {
    const int64_t r1 = std::min(n, r0 + kAtenBlock);
    const BlockMasks m = block_masks(z, labels, partner, r0, r1, spec.tau);
    const auto negatives = masked_lse(m.s, m.negatives);
    std::vector<torch::Tensor> columns(static_cast<std::size_t>(kContrastiveStatistics));
    columns[kLseNegatives] = negatives;
    columns[kLsePositives] = masked_lse(m.s, m.positives);
    columns[kLseDenominator] = masked_lse(m.s, m.denominator);
    columns[kSumPositives] = m.s.masked_fill(m.positives.logical_not(), 0.0).sum(1);
    columns[kPartnerSimilarity] = m.s.masked_fill(m.partner.logical_not(), 0.0).sum(1);
    columns[kPositives] = m.positives.sum(1);
    if (sup_terms(spec)) {
      // Rows without negatives have no L_sup terms (their lse_N is -inf).
      const auto t = (negatives.unsqueeze(1) - m.s).masked_fill(m.positives.logical_not().logical_or(
                                                                    negatives.isinf().unsqueeze(1)),
                                                                -kInf);
      columns[kSoftplusSum] = torch::softplus(t).sum(1);
      columns[kSigmoidSum] = torch::sigmoid(t).sum(1);
    } else {
      columns[kSoftplusSum] = torch::zeros_like(negatives);
      columns[kSigmoidSum] = torch::zeros_like(negatives);
    }
    for (auto& c : columns) c = c.to(torch::kDouble);
    statistics.narrow(0, r0, r1 - r0).copy_(torch::stack(columns, 1));
  }
  return statistics;
}

torch::Tensor aten_gradient(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                            const torch::Tensor& statistics, const torch::Tensor& weights, const ContrastiveLossSpec& spec) {
  const int64_t n = z.size(0);
  auto gradient = torch::zeros_like(z);
  const auto finite = [](const torch::Tensor& lse) { return lse.masked_fill(lse.isinf(), 0.0).unsqueeze(1); };
  for (int64_t r0 = 0; r0 < n; r0 += kAtenBlock) {
    const int64_t r1 = std::min(n, r0 + kAtenBlock);
    const BlockMasks m = block_masks(z, labels, partner, r0, r1, spec.tau);
    const auto st = statistics.narrow(0, r0, r1 - r0).to(z.scalar_type());
    const auto w = weights.narrow(0, r0, r1 - r0).to(z.scalar_type());
    const auto column = [](const torch::Tensor& t, int k) { return t.select(1, k).unsqueeze(1); };
    const auto on = [&](const torch::Tensor& mask, const torch::Tensor& x) { return x.masked_fill(mask.logical_not(), 0.0); };
    const auto lse_negatives = finite(st.select(1, kLseNegatives));
    auto c = on(m.negatives, column(w, kWeightNegatives) * (m.s - lse_negatives).exp());
    c = c + on(m.positives, column(w, kWeightPositives) * (m.s - finite(st.select(1, kLsePositives))).exp() +
                                column(w, kWeightSigmoid) * torch::sigmoid(lse_negatives - m.s).masked_fill(
                                                                st.select(1, kLseNegatives).isinf().unsqueeze(1), 0.0) +
                                column(w, kWeightConstant));
    c = c + on(m.denominator, column(w, kWeightDenominator) * (m.s - finite(st.select(1, kLseDenominator))).exp());
    c = c + on(m.partner, column(w, kWeightPartner).expand_as(m.s));
    gradient.narrow(0, r0, r1 - r0).add_(torch::matmul(c, z));
    gradient.add_(torch::matmul(c.t(), z.narrow(0, r0, r1 - r0)));
  }
  return gradient / spec.tau;
}

// The loss and the row weights of the backward pass from the statistics: O(N), on their device.
struct RowTerms {
  torch::Tensor loss;     // 0-dimensional float64
  torch::Tensor weights;  // N x kRowWeights float64, for an upstream gradient of 1
};

RowTerms row_terms(const torch::Tensor& statistics, const torch::Tensor& anchors, bool has_partner,
                   const ContrastiveLossSpec& spec) {
  const auto column = [&](int k) { return statistics.select(1, k); };
  const auto positives = column(kPositives);
  const auto anchor = anchors.defined() ? anchors.to(torch::kBool) : torch::ones_like(positives, torch::kBool);
  const auto per_positive = 1.0 / positives.clamp_min(1.0);
  // The mean over `valid` of `term`, and each valid row's weight 1 / count.
  const auto mean = [&](const torch::Tensor& valid, const torch::Tensor& term, torch::Tensor& weight) {
    const auto count = valid.sum().clamp_min(1).to(torch::kDouble);
    weight = valid.to(torch::kDouble) / count;
    return term.masked_fill(valid.logical_not(), 0.0).sum() / count;
  };
  const auto zero_unless = [](const torch::Tensor& valid, const torch::Tensor& x) {
    return x.masked_fill(valid.logical_not(), 0.0);
  };
  auto weights = torch::zeros({statistics.size(0), kRowWeights}, statistics.options());
  RowTerms out;
  if (spec.kind == ContrastiveKind::supcon_out || spec.kind == ContrastiveKind::supcon_in) {
    const auto valid = anchor.logical_and(positives.gt(0));
    const auto all = torch::logaddexp(column(kLseNegatives), column(kLsePositives));
    const auto term = spec.kind == ContrastiveKind::supcon_out
                          ? all - column(kSumPositives) * per_positive
                          : all - column(kLsePositives) + positives.clamp_min(1.0).log();
    torch::Tensor w;
    out.loss = mean(valid, term, w);
    weights.select(1, kWeightNegatives).copy_(zero_unless(valid, w * (column(kLseNegatives) - all).exp()));
    const auto softmax_positives = zero_unless(valid, (column(kLsePositives) - all).exp());
    if (spec.kind == ContrastiveKind::supcon_out) {
      weights.select(1, kWeightPositives).copy_(w * softmax_positives);
      weights.select(1, kWeightConstant).copy_(-w * per_positive);
    } else {
      weights.select(1, kWeightPositives).copy_(w * (softmax_positives - 1.0));
    }
  } else {
    const auto sup_valid = anchor.logical_and(positives.gt(0));
    const auto cnce_valid = has_partner ? anchor.logical_and(positives.gt(spec.include_partner ? 0 : 1))
                                        : torch::zeros_like(anchor);
    torch::Tensor ws, wc;
    const auto sup = mean(sup_valid, column(kSoftplusSum) * per_positive, ws);
    const auto lse_d = column(spec.include_partner ? kLsePositives : kLseDenominator);
    const auto cnce = mean(cnce_valid, lse_d - column(kPartnerSimilarity), wc);
    out.loss = (1.0 - spec.alpha) * sup + spec.alpha * cnce;
    ws = ws * (1.0 - spec.alpha);
    wc = wc * spec.alpha;
    weights.select(1, kWeightNegatives).copy_(ws * column(kSigmoidSum) * per_positive);
    weights.select(1, kWeightSigmoid).copy_(-ws * per_positive);
    weights.select(1, spec.include_partner ? kWeightPositives : kWeightDenominator).copy_(wc);
    weights.select(1, kWeightPartner).copy_(-wc);
  }
  out.loss = out.loss * spec.scale;
  out.weights = weights * spec.scale;
  return out;
}

// Autocast must not cast the passes' inputs back to half: they compute in float.
struct NoAutocast {
  c10::impl::ExcludeDispatchKeyGuard guard{c10::autocast_dispatch_keyset};
};

// The products kernels where the build has them: the lent H200 of 2026-11-30 held both kernels to
// the CPU's engine (float64, 2.8e-15) and timed them against the ATen row blocks
// (notebooks-export/gpu-check/README.md).
std::atomic<ContrastivePath> cuda_path{detail::cuda_kernels_built() ? ContrastivePath::cuda_products
                                                                    : ContrastivePath::aten_blocks};

// Which of the implementations runs a pass on x (z in the dtype the passes compute in).
enum class Runner { engine, aten, cuda_fused, cuda_products };

void require_cuda_kernels(ContrastivePath path) {
  if (!detail::cuda_kernels_built()) {
    throw InvalidArgument("path", std::string(contrastive_path_name(path)) +
                                      " needs a build with the contrastive CUDA kernels (nvcc and a CUDA libtorch); "
                                      "this one has none: use automatic or aten_blocks");
  }
}

Runner runner(const torch::Tensor& x, const ContrastiveLossSpec& spec) {
  const bool engine_dtype = x.scalar_type() == torch::kFloat || x.scalar_type() == torch::kDouble;
  ContrastivePath path = spec.path;
  if (path == ContrastivePath::automatic) {
    if (x.device().is_cpu() && engine_dtype) return Runner::engine;
    path = x.device().is_cuda() ? cuda_path.load() : ContrastivePath::aten_blocks;
  }
  switch (path) {
    case ContrastivePath::cuda_fused:
    case ContrastivePath::cuda_products:
      require_cuda_kernels(path);
      if (!x.device().is_cuda()) {
        throw InvalidArgument("path", std::string(contrastive_path_name(path)) + " needs z on a CUDA device, got " +
                                          x.device().str());
      }
      return path == ContrastivePath::cuda_fused ? Runner::cuda_fused : Runner::cuda_products;
    default: return Runner::aten;
  }
}

class StreamedContrastive : public torch::autograd::Function<StreamedContrastive> {
 public:
  // The batch's other tensors travel outside apply's tensor arguments, which must all be defined.
  struct Rows {
    torch::Tensor labels, partner, anchors;
  };

  static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& z, const Rows& rows,
                               const ContrastiveLossSpec& spec) {
    ContrastiveForward f = contrastive_forward(z, rows.labels, rows.partner, rows.anchors, spec);
    context->save_for_backward({z, rows.labels, rows.partner, rows.anchors, f.statistics});
    context->saved_data["kind"] = static_cast<int64_t>(spec.kind);
    context->saved_data["tau"] = spec.tau;
    context->saved_data["alpha"] = spec.alpha;
    context->saved_data["include_partner"] = spec.include_partner;
    context->saved_data["scale"] = spec.scale;
    context->saved_data["path"] = static_cast<int64_t>(spec.path);
    return f.loss;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list grad_output) {
    if (torch::GradMode::is_enabled()) {
      throw std::logic_error("the streamed contrastive losses give first derivatives only (no create_graph)");
    }
    const auto saved = context->get_saved_variables();
    const ContrastiveLossSpec spec{static_cast<ContrastiveKind>(context->saved_data["kind"].toInt()),
                                   context->saved_data["tau"].toDouble(),
                                   context->saved_data["alpha"].toDouble(),
                                   context->saved_data["include_partner"].toBool(),
                                   context->saved_data["scale"].toDouble(),
                                   static_cast<ContrastivePath>(context->saved_data["path"].toInt())};
    auto gradient = contrastive_backward(grad_output[0], saved[0], saved[1], saved[2], saved[3], saved[4], spec);
    return {gradient, {}, {}};
  }
};

// host_too: the tensor may also be on the CPU, where its values are checked before it is moved.
void check_index_tensor(const char* name, const torch::Tensor& t, const torch::Tensor& z, bool boolean,
                        bool host_too = false) {
  const int64_t n = z.size(0);
  if (t.dim() != 1 || t.size(0) != n) {
    throw InvalidArgument(name, "must hold one value per row of z (" + std::to_string(n) + "), got shape " +
                                    c10::str(t.sizes()));
  }
  if (boolean ? t.scalar_type() != torch::kBool : !is_integer(t)) {
    throw InvalidArgument(name, std::string("must be of ") + (boolean ? "dtype bool" : "an integer dtype") + ", got " +
                                    c10::toString(t.scalar_type()));
  }
  if (t.device() != z.device() && !(host_too && t.device().is_cpu())) {
    throw InvalidArgument(name, "is on " + t.device().str() + " but z on " + z.device().str() + ": move them to one device");
  }
}

// The partner on z's device: the trainer keeps its fixed partner indices on the CPU, where they
// are checked, and each step moves them here.
torch::Tensor partner_beside(const torch::Tensor& partner, const torch::Tensor& z) {
  return partner.defined() && partner.device() != z.device() ? partner.to(z.device()) : partner;
}

}  // namespace

bool contrastive_cuda_kernels_built() { return detail::cuda_kernels_built(); }

const char* contrastive_path_name(ContrastivePath path) {
  switch (path) {
    case ContrastivePath::automatic: return "automatic";
    case ContrastivePath::aten_blocks: return "aten_blocks";
    case ContrastivePath::cuda_fused: return "cuda_fused";
    case ContrastivePath::cuda_products: return "cuda_products";
  }
  return "";
}

ContrastivePath contrastive_path(const std::string& name) {
  for (const auto path : {ContrastivePath::automatic, ContrastivePath::aten_blocks, ContrastivePath::cuda_fused,
                          ContrastivePath::cuda_products}) {
    if (name == contrastive_path_name(path)) return path;
  }
  throw InvalidArgument("path", "must be automatic, aten_blocks, cuda_fused or cuda_products, got '" + name + "'");
}

ContrastivePath use_contrastive_cuda_path(ContrastivePath path) {
  if (path == ContrastivePath::automatic) {
    throw InvalidArgument("path", "on CUDA must be aten_blocks, cuda_fused or cuda_products, not automatic");
  }
  if (path != ContrastivePath::aten_blocks) require_cuda_kernels(path);
  return cuda_path.exchange(path);
}

const char* contrastive_kind_name(ContrastiveKind kind) {
  switch (kind) {
    case ContrastiveKind::supcon_out: return "supcon";
    case ContrastiveKind::supcon_in: return "supcon-in";
    case ContrastiveKind::spread: return "spread";
  }
  return "";
}

ContrastiveKind contrastive_kind(const std::string& name) {
  for (const auto kind : {ContrastiveKind::supcon_out, ContrastiveKind::supcon_in, ContrastiveKind::spread}) {
    if (name == contrastive_kind_name(kind)) return kind;
  }
  throw InvalidArgument("kind", "must be supcon, supcon-in or spread, got '" + name + "'");
}

void check_contrastive_batch(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                             const torch::Tensor& anchors, const ContrastiveLossSpec& spec) {
  require_positive("tau", spec.tau);
  require_positive("scale", spec.scale);
  if (spec.kind == ContrastiveKind::spread) require_in_closed_range("alpha", spec.alpha, 0.0, 1.0);
  if (!z.defined() || z.dim() != 2 || z.size(0) < 1 || z.size(1) < 1) {
    throw InvalidArgument("z", "must be an N x d matrix with N, d >= 1, got shape " +
                                   (z.defined() ? c10::str(z.sizes()) : std::string("(none)")));
  }
  if (!z.is_floating_point()) throw InvalidArgument("z", std::string("must be of a floating dtype, got ") + c10::toString(z.scalar_type()));
  if (z.layout() != torch::kStrided) throw InvalidArgument("z", "must be a dense (strided) tensor, not sparse");
  if (!labels.defined()) throw InvalidArgument("labels", "are needed: one integer label per row of z");
  check_index_tensor("labels", labels, z, false);
  if (anchors.defined()) check_index_tensor("anchors", anchors, z, true);
  if (partner.defined()) {
    check_index_tensor("partner", partner, z, false, /*host_too=*/true);
    if (partner.device().is_cpu()) {  // the labels too where they are on the CPU: no read from a device
      const auto p = partner.to(torch::kLong).contiguous();
      const auto l = labels.device().is_cpu() ? labels.to(torch::kLong).contiguous() : torch::Tensor();
      const int64_t* index = p.data_ptr<int64_t>();
      const int64_t* label = l.defined() ? l.data_ptr<int64_t>() : nullptr;
      for (int64_t i = 0; i < z.size(0); ++i) {
        if (index[i] < 0 || index[i] >= z.size(0)) throw InvalidArgument("partner", "indices must be in [0, N)");
        if (index[i] == i) throw InvalidArgument("partner", "a row cannot be its own partner");
        if (label != nullptr && label[index[i]] != label[i]) {
          throw InvalidArgument("partner", "must have the label of its row (a(x) is a view of x)");
        }
      }
    }
  } else if (spec.kind == ContrastiveKind::spread && spec.alpha > 0.0) {
    throw InvalidArgument("partner", "is needed by L_spread's L_cNCE term (alpha > 0): each row's other view");
  }
}

ContrastiveForward contrastive_forward(const torch::Tensor& z, const torch::Tensor& labels,
                                       const torch::Tensor& partner_given, const torch::Tensor& anchors,
                                       const ContrastiveLossSpec& spec) {
  check_contrastive_batch(z, labels, partner_given, anchors, spec);
  const NoAutocast no_autocast;
  const auto x = computing(z.detach());
  ContrastiveForward f;
  if (z.device().is_meta()) {
    f.loss = torch::empty({}, x.options());
    f.statistics = torch::empty({z.size(0), kContrastiveStatistics}, z.options().dtype(torch::kDouble));
    return f;
  }
  const torch::Tensor partner = partner_beside(partner_given, z);
  const Runner run = runner(x, spec);
  switch (run) {
    case Runner::engine: f.statistics = engine_statistics(x, labels, partner, anchors, spec); break;
    case Runner::cuda_fused:
    case Runner::cuda_products:
      f.statistics = detail::cuda_kernel_statistics(x, labels, partner, sup_terms(spec), spec.tau,
                                                    run == Runner::cuda_products);
      break;
    case Runner::aten: f.statistics = aten_statistics(x, labels, partner, spec); break;
  }
  f.loss = row_terms(f.statistics, anchors, partner.defined(), spec).loss.to(x.scalar_type());
  return f;
}

torch::Tensor contrastive_backward(const torch::Tensor& grad, const torch::Tensor& z, const torch::Tensor& labels,
                                   const torch::Tensor& partner_given, const torch::Tensor& anchors,
                                   const torch::Tensor& statistics, const ContrastiveLossSpec& spec) {
  check_contrastive_batch(z, labels, partner_given, anchors, spec);
  if (!statistics.defined() || statistics.dim() != 2 || statistics.size(0) != z.size(0) ||
      statistics.size(1) != kContrastiveStatistics || statistics.scalar_type() != torch::kDouble) {
    throw InvalidArgument("statistics", "must be contrastive_forward's N x " + std::to_string(kContrastiveStatistics) +
                                            " float64 statistics of this batch");
  }
  if (!grad.defined() || grad.numel() != 1) throw InvalidArgument("grad", "must be the loss's gradient: one value");
  const NoAutocast no_autocast;
  const auto x = computing(z.detach());
  if (z.device().is_meta()) return torch::empty_like(z);
  const torch::Tensor partner = partner_beside(partner_given, z);
  const auto weights = row_terms(statistics, anchors, partner.defined(), spec).weights *
                       grad.reshape({}).to(statistics.device()).to(torch::kDouble);
  torch::Tensor gradient;
  const Runner run = runner(x, spec);
  switch (run) {
    case Runner::engine: gradient = engine_gradient(x, labels, partner, anchors, statistics, weights, spec); break;
    case Runner::cuda_fused:
    case Runner::cuda_products:
      gradient = detail::cuda_kernel_gradient(x, labels, partner, statistics, weights, spec.tau,
                                              run == Runner::cuda_products);
      break;
    case Runner::aten: gradient = aten_gradient(x, labels, partner, statistics, weights, spec); break;
  }
  return gradient.to(z.scalar_type());
}

torch::Tensor streamed_contrastive_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                        const torch::Tensor& anchors, const ContrastiveLossSpec& spec) {
  // contrastive_forward checks the batch (and contrastive_backward again: each is an operator).
  return StreamedContrastive::apply(z, StreamedContrastive::Rows{labels, partner, anchors}, spec);
}

}  // namespace geomsim::train
