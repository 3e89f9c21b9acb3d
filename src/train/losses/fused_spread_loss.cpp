#include "fused_spread_loss.hpp"

#include <ATen/Parallel.h>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "geomsim/support/errors.hpp"

namespace geomsim::train::detail {
namespace {

// Half-open index ranges [first, second) of one row: a set of columns as at most three runs.
struct Runs {
  std::array<std::pair<int64_t, int64_t>, 3> run{};
  int count = 0;
  int64_t size() const {
    int64_t total = 0;
    for (int k = 0; k < count; ++k) total += run[k].second - run[k].first;
    return total;
  }
};

// [begin, end) without the columns x and y (which may be equal, or outside the range).
Runs without(int64_t begin, int64_t end, int64_t x, int64_t y) {
  Runs r;
  const int64_t lo = std::min(x, y), hi = std::max(x, y);
  const auto add = [&](int64_t a, int64_t b) {
    if (b > a) r.run[r.count++] = {a, b};
  };
  if (lo < begin || hi >= end) throw std::logic_error("fused_spread_loss: a column to leave out is outside its class");
  add(begin, lo);
  add(lo + 1, hi);
  add(hi + 1, end);
  return r;
}

// The batch sorted by label: row k of the sorted batch is row order[k] of the input; each sorted
// row's class is the segment [first[k], last[k]); partner[k] is its partner's sorted row.
struct ClassSort {
  std::vector<int64_t> order, first, last, partner;
};

ClassSort sort_by_class(const torch::Tensor& labels, const torch::Tensor& partner) {
  const auto l = labels.to(torch::kCPU).to(torch::kLong).contiguous();
  const auto* label = l.data_ptr<int64_t>();
  const auto* partner_of = partner.data_ptr<int64_t>();
  const auto n = l.size(0);
  ClassSort c;
  c.order.resize(static_cast<std::size_t>(n));
  std::iota(c.order.begin(), c.order.end(), int64_t{0});
  std::stable_sort(c.order.begin(), c.order.end(), [&](int64_t a, int64_t b) { return label[a] < label[b]; });
  std::vector<int64_t> position(static_cast<std::size_t>(n));
  for (int64_t k = 0; k < n; ++k) position[static_cast<std::size_t>(c.order[static_cast<std::size_t>(k)])] = k;
  c.first.resize(static_cast<std::size_t>(n));
  c.last.resize(static_cast<std::size_t>(n));
  c.partner.resize(static_cast<std::size_t>(n));
  for (int64_t begin = 0; begin < n;) {
    int64_t end = begin + 1;
    while (end < n && label[c.order[static_cast<std::size_t>(end)]] == label[c.order[static_cast<std::size_t>(begin)]]) ++end;
    for (int64_t k = begin; k < end; ++k) {
      c.first[static_cast<std::size_t>(k)] = begin;
      c.last[static_cast<std::size_t>(k)] = end;
    }
    begin = end;
  }
  for (int64_t k = 0; k < n; ++k) {
    c.partner[static_cast<std::size_t>(k)] = position[static_cast<std::size_t>(partner_of[c.order[static_cast<std::size_t>(k)]])];
  }
  return c;
}

// One anchor's share of the loss.
struct RowTerms {
  double sup = 0.0;   // L_sup(i), when |P(i)| > 0
  double cnce = 0.0;  // L_cNCE(i), when |D(i)| > 0
};

template <class T>
class RowKernel {
 public:
  using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
  using Map = Eigen::Map<Array>;
  using ConstMap = Eigen::Map<const Array>;

  RowKernel(int64_t n, double alpha, double sup_anchors, double cnce_anchors, bool include_partner)
      : n_(n),
        alpha_(alpha),
        sup_anchors_(sup_anchors),
        cnce_anchors_(cnce_anchors),
        include_partner_(include_partner),
        scratch_(n),
        sigmoid_(n),
        t_(n),
        u_(n) {}

  // Row i of the sorted batch: s its similarities, out its row of C (or nullptr: value only).
  RowTerms operator()(int64_t i, const T* s, T* out, const ClassSort& c) {
    const auto k = static_cast<std::size_t>(i);
    const int64_t a = c.first[k], b = c.last[k], p = c.partner[k];
    T* e = out != nullptr ? out : scratch_.data();  // the exponentials, scaled in place into C
    const Runs negatives = without_class(a, b);
    const Runs positives = without(a, b, i, i);
    const Runs denominator = include_partner_ ? positives : without(a, b, i, p);
    const T inf = std::numeric_limits<T>::infinity();

    // nu_i over the negatives (-inf without any), the exponentials e^{s_in - max} kept.
    T nu = -inf, negative_sum = 0;
    if (negatives.count > 0) {
      const T top = max_over(s, negatives);
      negative_sum = exp_over(s, top, e, negatives);
      nu = top + std::log(negative_sum);
    }
    // softplus(nu - s_ip) and sigmoid(nu - s_ip) from u = e^{-|nu - s_ip|}, which never overflows.
    RowTerms terms;
    T sigmoid_sum = 0;
    const int64_t P = positives.size();
    if (P > 0 && negatives.count > 0) {
      T softplus_sum = 0;
      for (int r = 0; r < positives.count; ++r) {
        const auto [from, to] = positives.run[r];
        auto t = Map(t_.data(), to - from), u = Map(u_.data(), to - from), sig = Map(sigmoid_.data() + from, to - from);
        t = nu - ConstMap(s + from, to - from);
        u = (-t.abs()).exp();
        softplus_sum += (t.max(T(0)) + u.log1p()).sum();
        sig = (t >= T(0)).select(T(1) / (T(1) + u), u / (T(1) + u));
        sigmoid_sum += sig.sum();
      }
      terms.sup = static_cast<double>(softplus_sum) / static_cast<double>(P);
    } else if (P > 0) {  // no negatives: every log ratio is log 1 = 0, and so is its gradient
      for (int r = 0; r < positives.count; ++r) {
        Map(sigmoid_.data() + positives.run[r].first, positives.run[r].second - positives.run[r].first).setZero();
      }
    }
    // mu_i over D(i), its exponentials e^{s_ip - max} kept.
    const int64_t D = denominator.size();
    T denominator_sum = 0, mu = 0;
    if (D > 0) {
      const T top = max_over(s, denominator);
      denominator_sum = exp_over(s, top, e, denominator);
      mu = top + std::log(denominator_sum);
      terms.cnce = static_cast<double>(mu) - static_cast<double>(s[p]);
    }
    if (out == nullptr) return terms;

    // C's row: scale the kept exponentials into softmax weights and add the sigmoid terms.
    const T w = P > 0 ? static_cast<T>((1.0 - alpha_) / (sup_anchors_ * static_cast<double>(P))) : T(0);
    const T v = D > 0 ? static_cast<T>(alpha_ / cnce_anchors_) : T(0);
    if (negatives.count > 0) {
      const T scale = w * sigmoid_sum / negative_sum;
      for (int r = 0; r < negatives.count; ++r) Map(out + negatives.run[r].first, negatives.run[r].second - negatives.run[r].first) *= scale;
    }
    if (D > 0) {
      const T scale = v / denominator_sum;
      for (int r = 0; r < denominator.count; ++r) Map(out + denominator.run[r].first, denominator.run[r].second - denominator.run[r].first) *= scale;
    }
    if (!include_partner_) out[p] = 0;  // a(i) is outside D(i): no softmax weight there
    for (int r = 0; r < positives.count; ++r) {
      const auto [from, to] = positives.run[r];
      Map(out + from, to - from) -= w * ConstMap(sigmoid_.data() + from, to - from);
    }
    out[p] -= v;
    out[i] = 0;
    return terms;
  }

 private:
  Runs without_class(int64_t a, int64_t b) const {
    Runs r;
    if (a > 0) r.run[r.count++] = {0, a};
    if (b < n_) r.run[r.count++] = {b, n_};
    return r;
  }
  static T max_over(const T* s, const Runs& runs) {
    T top = -std::numeric_limits<T>::infinity();
    for (int r = 0; r < runs.count; ++r) top = std::max(top, ConstMap(s + runs.run[r].first, runs.run[r].second - runs.run[r].first).maxCoeff());
    return top;
  }
  // e = exp(s - top) on the runs; returns their sum.
  static T exp_over(const T* s, T top, T* e, const Runs& runs) {
    T sum = 0;
    for (int r = 0; r < runs.count; ++r) {
      const auto [from, to] = runs.run[r];
      auto out = Map(e + from, to - from);
      out = (ConstMap(s + from, to - from) - top).exp();
      sum += out.sum();
    }
    return sum;
  }

  int64_t n_;
  double alpha_, sup_anchors_, cnce_anchors_;
  bool include_partner_;
  // One row each. Eigen arrays, so 64-byte aligned: Eigen handles the elements before the first
  // aligned one with scalar code (std::exp rather than its packet exp), so an address that
  // varied from run to run would vary the last bits of the loss.
  Array scratch_, sigmoid_, t_, u_;
};

// out = a b (b_transposed: a b^T), all row-major, computed in row tiles of a fixed height, each
// by one thread with Eigen's GEMM (serial: EIGEN_DONT_PARALLELIZE). Every element is then reduced
// in an order set by the build and the tile alone. torch::mm hands the product to the BLAS, whose
// runtime kernel (OpenBLAS picks one per CPU, or by OPENBLAS_CORETYPE) may reduce differently on
// 1 and 2 threads: with the Haswell and Zen kernels the gradient's bits changed with the thread
// count (issue 33), while this product gives the same bits on any number of threads.
template <class T>
void tiled_product(const T* a, int64_t rows, int64_t inner, const T* b, int64_t cols, bool b_transposed, T* out) {
  using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  constexpr int64_t kTile = 64;
  const Eigen::Map<const RowMajor> left(a, rows, inner);
  Eigen::Map<RowMajor> result(out, rows, cols);
  at::parallel_for(0, (rows + kTile - 1) / kTile, 1, [&](int64_t first_tile, int64_t end_tile) {
    for (int64_t tile = first_tile; tile < end_tile; ++tile) {
      const int64_t begin = tile * kTile, height = std::min(kTile, rows - begin);
      if (b_transposed) {
        result.middleRows(begin, height).noalias() = left.middleRows(begin, height) * Eigen::Map<const RowMajor>(b, cols, inner).transpose();
      } else {
        result.middleRows(begin, height).noalias() = left.middleRows(begin, height) * Eigen::Map<const RowMajor>(b, inner, cols);
      }
    }
  });
}

// The loss, and C = dL/dS in the sorted order when `coefficients` is given (N x N, allocated).
template <class T>
double spread_rows(const torch::Tensor& similarities, const ClassSort& c, double alpha, bool include_partner,
                   torch::Tensor* coefficients) {
  const int64_t n = similarities.size(0);
  // The anchors each mean runs over: rows with a positive, rows with a denominator.
  int64_t sup_anchors = 0, cnce_anchors = 0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t size = c.last[static_cast<std::size_t>(k)] - c.first[static_cast<std::size_t>(k)];
    sup_anchors += size >= 2;
    cnce_anchors += include_partner ? size >= 2 : size >= 3;
  }
  if (sup_anchors == 0) throw InvalidArgument("labels", "give no anchor with a positive for L_sup");
  if (cnce_anchors == 0) throw InvalidArgument("labels", "give no anchor with a positive for L_cNCE");

  std::vector<RowTerms> terms(static_cast<std::size_t>(n));
  const T* s = similarities.data_ptr<T>();
  T* out = coefficients != nullptr ? coefficients->data_ptr<T>() : nullptr;
  const int64_t grain = std::max<int64_t>(1, 16384 / n);
  at::parallel_for(0, n, grain, [&](int64_t begin, int64_t end) {
    RowKernel<T> row(n, alpha, static_cast<double>(sup_anchors), static_cast<double>(cnce_anchors), include_partner);
    for (int64_t i = begin; i < end; ++i) terms[static_cast<std::size_t>(i)] = row(i, s + i * n, out != nullptr ? out + i * n : nullptr, c);
  });
  // The means, in row order: the same sums on any number of threads.
  double sup = 0.0, cnce = 0.0;
  for (int64_t k = 0; k < n; ++k) {
    const int64_t size = c.last[static_cast<std::size_t>(k)] - c.first[static_cast<std::size_t>(k)];
    if (size >= 2) sup += terms[static_cast<std::size_t>(k)].sup;
    if (include_partner ? size >= 2 : size >= 3) cnce += terms[static_cast<std::size_t>(k)].cnce;
  }
  return (1.0 - alpha) * (sup / static_cast<double>(sup_anchors)) + alpha * (cnce / static_cast<double>(cnce_anchors));
}

struct Forward {
  torch::Tensor loss, coefficients, sorted, order;
};

Forward forward(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner, double tau,
                double alpha, bool include_partner, bool with_gradient) {
  const ClassSort c = sort_by_class(labels, partner);
  Forward f;
  f.order = torch::tensor(c.order, torch::kLong);
  f.sorted = z.detach().index_select(0, f.order).contiguous();
  const int64_t n = f.sorted.size(0), d = f.sorted.size(1);
  auto similarities = torch::empty({n, n}, f.sorted.options());
  if (with_gradient) f.coefficients = torch::empty_like(similarities);
  double loss = 0.0;
  AT_DISPATCH_FLOATING_TYPES(z.scalar_type(), "fused_spread_loss", [&] {
    const scalar_t* sorted = f.sorted.data_ptr<scalar_t>();
    tiled_product(sorted, n, d, sorted, n, /*b_transposed=*/true, similarities.data_ptr<scalar_t>());
    similarities.div_(tau);  // as matmul(z, z^T) / tau
    loss = spread_rows<scalar_t>(similarities, c, alpha, include_partner, with_gradient ? &f.coefficients : nullptr);
  });
  f.loss = torch::scalar_tensor(loss, z.options().requires_grad(false));
  return f;
}

class SpreadLossFunction : public torch::autograd::Function<SpreadLossFunction> {
 public:
  static torch::Tensor forward(torch::autograd::AutogradContext* context, const torch::Tensor& z, const torch::Tensor& labels,
                               const torch::Tensor& partner, double tau, double alpha, bool include_partner) {
    Forward f = detail::forward(z, labels, partner, tau, alpha, include_partner, true);
    context->save_for_backward({f.coefficients, f.sorted, f.order});
    context->saved_data["tau"] = tau;
    return f.loss;
  }

  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* context,
                                                 torch::autograd::variable_list grad_output) {
    if (torch::GradMode::is_enabled()) {
      throw std::logic_error("spread_loss: the CPU kernel gives first derivatives only (no create_graph)");
    }
    const auto saved = context->get_saved_variables();
    const auto& coefficients = saved[0];
    const auto& sorted = saved[1];
    const auto& order = saved[2];
    const double tau = context->saved_data["tau"].toDouble();
    // dL/dz_k = sum_j (C_kj + C_jk) z_j / tau, in the sorted order; then back to the input's.
    const auto symmetric = (coefficients + coefficients.t()).contiguous();
    const int64_t n = sorted.size(0), d = sorted.size(1);
    auto gradient_sorted = torch::empty_like(sorted);
    AT_DISPATCH_FLOATING_TYPES(sorted.scalar_type(), "fused_spread_loss_backward", [&] {
      tiled_product(symmetric.data_ptr<scalar_t>(), n, n, sorted.data_ptr<scalar_t>(), d, /*b_transposed=*/false,
                    gradient_sorted.data_ptr<scalar_t>());
    });
    gradient_sorted.mul_(grad_output[0] / tau);
    auto gradient = torch::empty_like(gradient_sorted).index_copy_(0, order, gradient_sorted);
    return {gradient, torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor(), torch::Tensor()};
  }
};

}  // namespace

bool fused_spread_loss_applies(const torch::Tensor& z, const torch::Tensor& labels) {
  return z.device().is_cpu() && (z.scalar_type() == torch::kFloat || z.scalar_type() == torch::kDouble) &&
         labels.device().is_cpu() && c10::isIntegralType(labels.scalar_type(), /*includeBool=*/true);
}

torch::Tensor fused_spread_loss(const torch::Tensor& z, const torch::Tensor& labels, const torch::Tensor& partner,
                                double tau, double alpha, bool include_partner) {
  if (torch::GradMode::is_enabled() && z.requires_grad()) {
    return SpreadLossFunction::apply(z, labels, partner, tau, alpha, include_partner);
  }
  return forward(z, labels, partner, tau, alpha, include_partner, false).loss;
}

}  // namespace geomsim::train::detail
