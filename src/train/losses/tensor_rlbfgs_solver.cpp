#include "geomsim/train/losses/tensor_rlbfgs_solver.hpp"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "geomsim/manifold/sphere.hpp"
#include "geomsim/solvers/rlbfgs_loop.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/train/data/tensor_points.hpp"

namespace geomsim::train {
namespace {

// Points are the rows of N x d tensors (TensorSpreadObjective::evaluate_points's layout): the
// d x N column-major matrix's storage.
torch::Tensor row_dots(const torch::Tensor& a, const torch::Tensor& b) { return (a * b).sum(1, true); }

// P_U(V) = V - U diag(u_i . v_i), by rows.
torch::Tensor project(const torch::Tensor& U, const torch::Tensor& V) { return V - row_dots(U, V) * U; }

// The device scalars read in one transfer.
std::vector<double> read(const std::vector<torch::Tensor>& scalars) { return to_doubles(torch::stack(scalars)); }

// rlbfgs_iterations's space (solvers/rlbfgs_loop.hpp) on tensors, with HostSpace's operations
// in the same order (rlbfgs_solver.cpp) and the plain form of its pair memory.
class TensorSpace {
 public:
  TensorSpace(const TensorSpreadObjective& objective, int memory, const Matrix& U)
      : objective_(objective), m_(static_cast<std::size_t>(memory)) {
    const auto N = static_cast<std::int64_t>(U.cols()), d = static_cast<std::int64_t>(U.rows());
    U_ = torch::from_blob(const_cast<double*>(U.data()), {N, d}, torch::TensorOptions().dtype(torch::kFloat64))
             .to(objective.device(), torch::kFloat64, /*non_blocking=*/false, /*copy=*/true);
    f_ = objective_.evaluate_points(U_, &G_).total();
    g_ = project(U_, G_);
  }

  double start_value() const { return f_; }

  double gradient_norm() { return norms()[0]; }
  double euclidean_norm() { return norms()[1]; }

  // The plain form of PairMemory::direction: every pair but the fresh one projected onto the
  // tangent space at U, then the two-loop, its coefficients kept on the device.
  void direction() {
    const std::size_t n = s_.size();
    if (n == 0) {
      p_ = -g_;
      return;
    }
    for (std::size_t k = 0; k < (fresh_ ? n - 1 : n); ++k) {
      s_[k] = project(U_, s_[k]);
      y_[k] = project(U_, y_[k]);
    }
    fresh_ = false;
    p_ = g_.clone();
    std::vector<torch::Tensor> a(n);
    for (std::size_t k = n; k-- > 0;) {
      a[k] = rho_[k] * (s_[k] * p_).sum();
      p_.sub_(a[k] * y_[k]);
    }
    p_.mul_(1.0 / (rho_[n - 1] * y_[n - 1].square().sum()));
    for (std::size_t k = 0; k < n; ++k) {
      const torch::Tensor b = rho_[k] * (y_[k] * p_).sum();
      p_.add_((a[k] - b) * s_[k]);
    }
    p_.neg_();
  }

  double slope() const { return (g_ * p_).sum().item<double>(); }
  double steepest() {
    clear_pairs();
    p_ = -g_;
    return -g_.square().sum().item<double>();
  }
  bool pairs_empty() const { return s_.empty(); }
  void clear_pairs() {
    s_.clear();
    y_.clear();
    rho_.clear();
    fresh_ = false;
  }
  double largest_step() const { return p_.norm(2, 1).max().item<double>(); }

  double evaluate_trial(double t) {
    U_next_ = U_ + t * p_;
    U_next_.div_(U_next_.norm(2, 1, true));
    return objective_.evaluate_points(U_next_, &G_next_).total();
  }

  // retraction_slope (manifold/product_of_spheres.hpp) by rows.
  double trial_slope(double t) const {
    const torch::Tensor uu = row_dots(U_, U_), uv = row_dots(U_, p_), vv = row_dots(p_, p_);
    const torch::Tensor ww = uu + 2.0 * t * uv + t * t * vv;
    const torch::Tensor wg = row_dots(U_, G_next_) + t * row_dots(p_, G_next_), wv = uv + t * vv;
    return ((row_dots(G_next_, p_) - wg * wv / ww) / ww.sqrt()).sum().item<double>();
  }

  // next_pair: g_next = P G_next, s = P(t p), y = g_next - P g, all at U_next.
  void accept(double t) {
    torch::Tensor g_next = project(U_next_, G_next_);
    torch::Tensor s = project(U_next_, t * p_);
    torch::Tensor y = g_next - project(U_next_, g_);
    const std::vector<double> products = read({(s * y).sum(), s.square().sum(), y.square().sum()});
    const double sy = products[0], ss = products[1], yy = products[2];
    if (sy > 1e-10 * std::sqrt(ss) * std::sqrt(yy)) {  // cautious update: keep only positive curvature
      if (s_.size() == m_) {
        s_.erase(s_.begin());
        y_.erase(y_.begin());
        rho_.erase(rho_.begin());
      }
      s_.push_back(std::move(s));
      y_.push_back(std::move(y));
      rho_.push_back(1.0 / sy);
      fresh_ = true;
    }
    U_ = std::move(U_next_);
    G_ = std::move(G_next_);
    g_ = std::move(g_next);
    norms_.clear();
  }

  double constraint_violation() const { return (U_.norm(2, 1) - 1.0).abs().max().item<double>(); }

  // The iterate, copied to the host's d x N matrix.
  void copy_to(Matrix& U) const {
    const std::vector<double> host = to_doubles(U_);
    U = Eigen::Map<const Matrix>(host.data(), U.rows(), U.cols());
  }

 private:
  const std::vector<double>& norms() {
    if (norms_.empty()) norms_ = read({g_.norm(), G_.norm()});
    return norms_;
  }

  const TensorSpreadObjective& objective_;
  std::size_t m_;
  double f_ = 0.0;
  torch::Tensor U_, G_, g_, p_, U_next_, G_next_;
  std::vector<torch::Tensor> s_, y_;  // the stored pairs, oldest first
  std::vector<double> rho_;           // 1 / <s_k, y_k>, as made
  bool fresh_ = false;                // the newest pair was pushed since the last direction(): tangent at U
  std::vector<double> norms_;         // |g|, |G| at U, once read
};

}  // namespace

std::vector<std::pair<std::string, double>> TensorRlbfgsSolver::settings() const {
  return RlbfgsSolver(options_).settings();
}

double TensorRlbfgsSolver::state_bytes(Index num_points, Index dim) const {
  return RlbfgsSolver(options_).state_bytes(num_points, dim);
}

SolveSummary TensorRlbfgsSolver::minimize(const Objective& objective, Matrix& U) const {
  if (const auto* tensors = dynamic_cast<const TensorSpreadObjective*>(&objective)) return minimize_points(*tensors, U);
  return RlbfgsSolver(options_).minimize(objective, U);
}

SolveSummary TensorRlbfgsSolver::minimize_points(const TensorSpreadObjective& objective, Matrix& U) const {
  const auto start = std::chrono::steady_clock::now();
  require_at_least("memory", options_.memory, 1);
  if (U.cols() != objective.num_points()) {
    throw InvalidArgument("points", "must have " + std::to_string(objective.num_points()) + " columns, got " +
                                        std::to_string(U.cols()));
  }
  normalize_columns(U);  // on the host, as the Eigen solver's start does: the same start to the bit
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  torch::NoGradGuard no_grad;
  TensorSpace space(objective, options_.memory, U);
  SolveSummary summary;
  summary.evaluations = 1;
  geomsim::detail::rlbfgs_iterations(space, space.start_value(), options_, elapsed, summary);
  space.copy_to(U);
  summary.seconds = elapsed();
  return summary;
}

}  // namespace geomsim::train
