// geomsim's training losses as torch operators, for geomsim.torch (python/geomsim/torch.py):
//
//   geomsim::loss_catalog() -> str
//       the loss registry as JSON: each loss's name, help line, the parameters it reads and what
//       it needs on a batch; each parameter's name, meaning, range, default and whether it is a flag;
//       the columns of the streaming engine's statistics that geomsim.torch's gather reads; and
//       whether this build has the engine's fused CUDA kernels.
//   geomsim::check_loss_options(str loss, str given, float[] options, str cond_kernel) -> str
//       "" when `loss` has a loss on a batch, reads every parameter named in `given` (comma-
//       separated) and `cond_kernel` unless it is "", and `options` (every parameter, in the
//       catalog's order) are in range; else "ARGUMENT\nREQUIREMENT", geomsim::InvalidArgument's
//       two parts, which geomsim._core raises.
//   geomsim::batch_loss(str loss, Tensor features, Tensor? labels, int num_classes, float[] options,
//                       str cond_kernel, Tensor? condition) -> Tensor
//       the loss registry's batch_loss on SupContrast's layout: features [bsz, 2, dim] (the two
//       views of each sample), labels [bsz], condition [bsz, k] (CCL-K's conditioning values,
//       for the losses that read them; their labels' one-hot vectors without it); cond_kernel ""
//       is the default kernel.
//   geomsim::contrastive_forward(Tensor z, Tensor labels, Tensor? partner, Tensor? anchors, str kind,
//                                float tau, float alpha, bool include_partner, float scale) -> (Tensor, Tensor)
//   geomsim::contrastive_backward(Tensor grad, Tensor z, Tensor labels, Tensor? partner, Tensor? anchors,
//                                 Tensor statistics, str kind, float tau, float alpha, bool include_partner,
//                                 float scale) -> Tensor
//       the streaming engine's two passes (geomsim/train/losses/streamed_contrastive_loss.hpp) on
//       the rows z [N, d]: the loss and the per-row statistics [N, S] (float64), then dL/dz for
//       an upstream gradient of the loss; kind "supcon", "supcon-in" or "spread".
//   geomsim::supcon_mask_loss(Tensor z, Tensor mask, int anchors, float tau, float scale) -> Tensor
//       SupContrast's SupConLoss with its [bsz, bsz] mask (contrastive_losses.hpp's
//       supcon_out_loss_masked) times scale: the first `anchors` rows of z against all of them.
//   geomsim::positive_groups(Tensor labels, int positives) -> Tensor
//       seed 001 Table 3's groups of `positives` samples of one label, as group ids (labels).
//   geomsim::use_cuda_kernels(bool enabled) -> bool
//       whether the engine's passes on CUDA run the fused kernels (use_contrastive_cuda_kernels;
//       the catalog's "cuda_kernels_built" says whether this build has them); the previous choice.
//
// batch_loss, supcon_mask_loss and positive_groups are registered as CompositeImplicitAutograd:
// they are written in ATen operators (those of the C++ losses), so autograd differentiates them
// through them, on whatever device their inputs are, and they need no backward of their own.
// The engine's two passes are CompositeExplicitAutograd (one kernel for every backend: the engine
// picks its CPU kernel or its ATen path by z's device) with a Meta kernel that gives the shapes
// only, so that the meta device and torch.compile's fake tensors (symbolic sizes included) see
// them without running them; geomsim.torch differentiates them with a torch.autograd.Function
// that calls the backward operator (their Autograd kernel is a fallthrough). No operator reads a
// value back from the device, and each computes in the dtype it is given, whatever
// torch.autocast says (geomsim.torch gives float32 for float16 and bfloat16).
#include <torch/library.h>
#include <torch/torch.h>

#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "geomsim/support/errors.hpp"
#include "geomsim/train/losses/contrastive_losses.hpp"
#include "geomsim/train/losses/loss_registry.hpp"
#include "geomsim/train/losses/streamed_contrastive_loss.hpp"

namespace {

using geomsim::InvalidArgument;
namespace train = geomsim::train;

std::string loss_catalog() {
  nlohmann::json losses = nlohmann::json::array();
  for (const train::LossEntry& entry : train::loss_registry()) {
    losses.push_back({{"name", entry.name},
                      {"help", entry.help},
                      {"parameters", entry.parameters},
                      {"batch", entry.batch != nullptr},
                      {"labels", entry.needs.labels},
                      {"num_classes", entry.needs.num_classes},
                      {"random", entry.needs.random},
                      {"condition", entry.needs.condition},
                      {"engine", entry.needs.engine != nullptr ? nlohmann::json(entry.needs.engine) : nlohmann::json()}});
  }
  nlohmann::json parameters = nlohmann::json::array();
  for (const train::LossParameter& p : train::loss_parameters()) {
    parameters.push_back({{"name", p.name},
                          {"meaning", p.meaning},
                          {"range", p.range},
                          {"flag", p.flag},
                          {"default", p.default_value}});
  }
  // The columns of the engine's statistics that say which anchors have the terms of L_out, L_in
  // and L_sup (a positive: lse over P(i) > -inf) and of L_cNCE (lse over D(i) > -inf).
  const nlohmann::json statistics = {{"columns", train::kContrastiveStatistics},
                                     {"lse_positives", geomsim::kLsePositives},
                                     {"lse_denominator", geomsim::kLseDenominator}};
  return nlohmann::json{{"losses", losses},
                        {"parameters", parameters},
                        {"contrastive_statistics", statistics},
                        {"cuda_kernels_built", train::contrastive_cuda_kernels_built()}}
      .dump();
}

std::string text(c10::string_view view) { return std::string(view.data(), view.size()); }

// Every parameter, in loss_parameters()'s order, from `values`, and the conditioning kernel's name
// ("" for the default); each checked against its range.
train::LossOptions options_from(c10::ArrayRef<double> values, const std::string& cond_kernel) {
  const auto& parameters = train::loss_parameters();
  if (values.size() != parameters.size()) {
    throw InvalidArgument("options", "must hold " + std::to_string(parameters.size()) + " values, one per loss parameter; got " +
                                         std::to_string(values.size()));
  }
  train::LossOptions options;
  for (std::size_t i = 0; i < values.size(); ++i) train::set_loss_parameter(options, parameters[i].name, values[i]);
  if (!cond_kernel.empty()) options.cond_kernel = cond_kernel;
  train::validate(options);
  return options;
}

std::string check_loss_options(c10::string_view loss_view, c10::string_view given_view, c10::ArrayRef<double> values,
                               c10::string_view cond_kernel_view) {
  const std::string loss = text(loss_view), given = text(given_view), cond_kernel = text(cond_kernel_view);
  try {
    const train::LossEntry& entry = train::loss_entry(loss);
    if (entry.batch == nullptr) {
      throw InvalidArgument("loss", loss + " has no loss on a batch of embeddings (geomsim's trainer computes it from " +
                                        (entry.needs.linear_head ? "a linear head" : "an autoencoder") + ")");
    }
    std::size_t begin = 0;
    while (begin < given.size()) {
      const std::size_t end = std::min(given.find(',', begin), given.size());
      train::require_loss_reads(loss, given.substr(begin, end - begin));
      begin = end + 1;
    }
    if (!cond_kernel.empty()) train::require_loss_reads_condition(loss, "cond-kernel");
    options_from(values, cond_kernel);
  } catch (const InvalidArgument& e) {
    return e.argument() + "\n" + e.requirement();
  }
  return "";
}

at::Tensor batch_loss_operator(c10::string_view loss_view, const at::Tensor& features, const c10::optional<at::Tensor>& labels,
                      int64_t num_classes, c10::ArrayRef<double> values, c10::string_view cond_kernel,
                      const c10::optional<at::Tensor>& condition) {
  const std::string loss = text(loss_view);
  TORCH_CHECK(features.dim() == 3 && features.size(1) == 2, "geomsim::batch_loss: features must be [bsz, 2, dim], got ",
              features.sizes());
  const int64_t batch_size = features.size(0);
  train::LossBatch batch;
  batch.z = torch::cat({features.select(1, 0), features.select(1, 1)}, 0);
  batch.partner = train::two_view_partners(batch_size, features.device());
  if (labels.has_value() && labels->defined()) {
    TORCH_CHECK(labels->dim() == 1 && labels->size(0) == batch_size, "geomsim::batch_loss: labels must be [", batch_size,
                "], got ", labels->sizes());
    batch.labels = labels->to(torch::kLong);
  } else {
    // The losses that need no labels (simclr, cclk-hardneg, hardneg-infonce) read only the
    // batch's size from them.
    batch.labels = torch::zeros({batch_size}, features.options().dtype(torch::kLong));
  }
  batch.num_classes = num_classes;
  if (condition.has_value() && condition->defined()) batch.condition = *condition;
  return train::batch_loss(loss, batch, options_from(values, text(cond_kernel)));
}

// Inside every operator autocast is off: the losses compute in the dtype they are given (an
// autocast-enabled caller would otherwise get their matrix products in float16 or bfloat16).
using NoAutocast = c10::impl::ExcludeDispatchKeyGuard;

at::Tensor batch_loss_without_autocast(c10::string_view loss, const at::Tensor& features, const c10::optional<at::Tensor>& labels,
                                       int64_t num_classes, c10::ArrayRef<double> values, c10::string_view cond_kernel,
                                       const c10::optional<at::Tensor>& condition) {
  const NoAutocast no_autocast(c10::autocast_dispatch_keyset);
  return batch_loss_operator(loss, features, labels, num_classes, values, cond_kernel, condition);
}

at::Tensor or_undefined(const c10::optional<at::Tensor>& tensor) { return tensor.has_value() ? *tensor : at::Tensor(); }

train::ContrastiveLossSpec contrastive_spec(c10::string_view kind, double tau, double alpha, bool include_partner,
                                            double scale) {
  return {train::contrastive_kind(text(kind)), tau, alpha, include_partner, scale};
}

std::tuple<at::Tensor, at::Tensor> contrastive_forward_operator(const at::Tensor& z, const at::Tensor& labels,
                                                                const c10::optional<at::Tensor>& partner,
                                                                const c10::optional<at::Tensor>& anchors,
                                                                c10::string_view kind, double tau, double alpha,
                                                                bool include_partner, double scale) {
  const NoAutocast no_autocast(c10::autocast_dispatch_keyset);
  train::ContrastiveForward result = train::contrastive_forward(z, labels, or_undefined(partner), or_undefined(anchors),
                                                                contrastive_spec(kind, tau, alpha, include_partner, scale));
  return std::make_tuple(std::move(result.loss), std::move(result.statistics));
}

at::Tensor contrastive_backward_operator(const at::Tensor& grad, const at::Tensor& z, const at::Tensor& labels,
                                         const c10::optional<at::Tensor>& partner, const c10::optional<at::Tensor>& anchors,
                                         const at::Tensor& statistics, c10::string_view kind, double tau, double alpha,
                                         bool include_partner, double scale) {
  const NoAutocast no_autocast(c10::autocast_dispatch_keyset);
  return train::contrastive_backward(grad, z, labels, or_undefined(partner), or_undefined(anchors), statistics,
                                     contrastive_spec(kind, tau, alpha, include_partner, scale));
}

// The shapes alone, in sizes that may be symbolic (torch.compile's dynamic shapes): a 0-dimensional
// loss in z's dtype, statistics [N, kContrastiveStatistics] in float64, and dL/dz like z.
std::tuple<at::Tensor, at::Tensor> contrastive_forward_meta(const at::Tensor& z, const at::Tensor&,
                                                            const c10::optional<at::Tensor>&,
                                                            const c10::optional<at::Tensor>&, c10::string_view, double,
                                                            double, bool, double) {
  const c10::SymInt statistics_shape[] = {z.sym_size(0), c10::SymInt(train::kContrastiveStatistics)};
  return std::make_tuple(z.new_empty(at::IntArrayRef{}), z.new_empty_symint(statistics_shape, z.options().dtype(at::kDouble)));
}

at::Tensor contrastive_backward_meta(const at::Tensor&, const at::Tensor& z, const at::Tensor&,
                                     const c10::optional<at::Tensor>&, const c10::optional<at::Tensor>&, const at::Tensor&,
                                     c10::string_view, double, double, bool, double) {
  return at::empty_like(z);
}

at::Tensor supcon_mask_loss_operator(const at::Tensor& z, const at::Tensor& mask, int64_t anchors, double tau, double scale) {
  const NoAutocast no_autocast(c10::autocast_dispatch_keyset);
  return train::supcon_out_loss_masked(z, mask, anchors, tau) * scale;
}

at::Tensor positive_groups_operator(const at::Tensor& labels, int64_t positives) {
  return train::positive_groups(labels, positives);
}

}  // namespace

TORCH_LIBRARY(geomsim, m) {
  m.def("loss_catalog() -> str", &loss_catalog);
  m.def("check_loss_options(str loss, str given, float[] options, str cond_kernel) -> str", &check_loss_options);
  m.def("batch_loss(str loss, Tensor features, Tensor? labels, int num_classes, float[] options, str cond_kernel, "
        "Tensor? condition) -> Tensor");
  m.def("contrastive_forward(Tensor z, Tensor labels, Tensor? partner, Tensor? anchors, str kind, float tau, "
        "float alpha, bool include_partner, float scale) -> (Tensor, Tensor)");
  m.def("contrastive_backward(Tensor grad, Tensor z, Tensor labels, Tensor? partner, Tensor? anchors, "
        "Tensor statistics, str kind, float tau, float alpha, bool include_partner, float scale) -> Tensor");
  m.def("supcon_mask_loss(Tensor z, Tensor mask, int anchors, float tau, float scale) -> Tensor");
  m.def("positive_groups(Tensor labels, int positives) -> Tensor");
  m.def("use_cuda_kernels(bool enabled) -> bool", &train::use_contrastive_cuda_kernels);
}

TORCH_LIBRARY_IMPL(geomsim, CompositeImplicitAutograd, m) {
  m.impl("batch_loss", &batch_loss_without_autocast);
  m.impl("supcon_mask_loss", &supcon_mask_loss_operator);
  m.impl("positive_groups", &positive_groups_operator);
}

TORCH_LIBRARY_IMPL(geomsim, CompositeExplicitAutograd, m) {
  m.impl("contrastive_forward", &contrastive_forward_operator);
  m.impl("contrastive_backward", &contrastive_backward_operator);
}

TORCH_LIBRARY_IMPL(geomsim, Meta, m) {
  m.impl("contrastive_forward", &contrastive_forward_meta);
  m.impl("contrastive_backward", &contrastive_backward_meta);
}

// The two passes are not differentiable one by one (geomsim.torch's autograd.Function pairs them):
// autograd passes through them to the backend's kernel, their outputs need no gradient. Without
// this libtorch 1.13 has no kernel for them on meta tensors (no fallback for AutogradMeta), and
// later versions warn when a gradient is asked of them.
TORCH_LIBRARY_IMPL(geomsim, Autograd, m) {
  m.impl("contrastive_forward", torch::CppFunction::makeFallthrough());
  m.impl("contrastive_backward", torch::CppFunction::makeFallthrough());
}
