#include "device_ops.hpp"

#include <torch/version.h>

#include <string>

#include "geomsim/support/errors.hpp"

namespace geomsim::train::detail {
namespace {

class LogSumExp : public torch::autograd::Function<LogSumExp> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& s, int64_t dim) {
    // torch's own steps: a maximum of +-inf is replaced by 0, so that an all -inf row gives -inf.
    auto maxes = s.amax(dim, /*keepdim=*/true);
    maxes = maxes.masked_fill(mask_or(maxes.eq(kInf), maxes.eq(-kInf)), 0.0);
    auto result = (s - maxes).exp().sum(dim).log() + maxes.squeeze(dim);
    context->save_for_backward({s, result});
    context->saved_data["dim"] = dim;
    return result;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list grad_output) {
    const auto saved = context->get_saved_variables();
    const int64_t dim = context->saved_data["dim"].toInt();
    return {grad_output[0].unsqueeze(dim) * (saved[0] - saved[1].unsqueeze(dim)).exp(), torch::Tensor()};
  }
};

// triangular_solve is the one solve with a meta kernel in libtorch 1.13 and potrs's arithmetic;
// it warns once per process that it is deprecated in favour of linalg.solve_triangular (which has
// neither), a note for Python callers: this handler drops the warnings raised inside the call.
// (c10's handler is process-wide; the training loop calls the losses from one thread.)
class DropWarnings : public c10::WarningHandler {
 public:
#if TORCH_VERSION_MAJOR >= 2
  void process(const c10::Warning&) override {}
#else
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
#endif
};

}  // namespace

torch::Tensor logsumexp(const torch::Tensor& s, int64_t dim) {
  return LogSumExp::apply(s, dim < 0 ? dim + s.dim() : dim);
}

torch::Tensor take_rows(const torch::Tensor& x, const torch::Tensor& index) {
  return x.gather(0, index.unsqueeze(1).expand({index.size(0), x.size(1)}));
}

torch::Tensor euclidean_distances(const torch::Tensor& x1, const torch::Tensor& x2) {
  const auto norm1 = x1.pow(2).sum(-1, true), norm2 = x2.pow(2).sum(-1, true);
  const auto a = torch::cat({x1.mul(-2), norm1, torch::ones_like(norm1)}, -1);
  const auto b = torch::cat({x2, torch::ones_like(norm2), norm2}, -1);
  return a.matmul(b.transpose(-2, -1)).clamp_min(1e-30).sqrt();
}

torch::Tensor cholesky_solve(const torch::Tensor& b, const torch::Tensor& L) {
  DropWarnings drop;
#if TORCH_VERSION_MAJOR >= 2
  c10::WarningUtils::WarningHandlerGuard guard(&drop);
#else
  c10::Warning::WarningHandlerGuard guard(&drop);
#endif
  const auto y = std::get<0>(torch::triangular_solve(b, L, /*upper=*/false));
  return std::get<0>(torch::triangular_solve(y, L, /*upper=*/false, /*transpose=*/true));
}

void check_batch(const torch::Tensor& z, const torch::Tensor& labels, double tau) {
  require_positive("tau", tau);
  if (z.dim() != 2) throw InvalidArgument("embeddings", "must be N x d, got " + std::to_string(z.dim()) + " dimensions");
  if (!z.is_floating_point()) throw InvalidArgument("embeddings", "must be a floating-point tensor");
  const int64_t n = z.size(0);
  if (n < 2) throw InvalidArgument("embeddings", "need a batch of at least 2 rows");
  if (labels.dim() != 1 || labels.size(0) != n) {
    throw InvalidArgument("labels", "must hold one label per row (" + std::to_string(n) + ")");
  }
}

}  // namespace geomsim::train::detail
