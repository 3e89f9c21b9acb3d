#include "geomsim/solvers/rlbfgs_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "manifold/column_dot.hpp"
#include "solvers/manifold_solver_steps.hpp"

namespace geomsim {
namespace {

// The curvature pairs (s_k, y_k), oldest first, in a ring of `capacity` preallocated slots:
// after the first `capacity` iterations an iteration allocates nothing for them.
//
// Vector transport: projection onto the new tangent space, of every stored vector, at every
// iterate (Manopt's rlbfgs; Absil, Mahony & Sepulchre's transport by projection), so that a
// pair made at U_j is used at U_k as P_{U_k} ... P_{U_{j+1}} s_j. What issue 49 changed is
// when and how, not what: the transport of iterate k is done in direction()'s first pass,
// fused with the inner products the recursion needs, instead of in a pass of its own; the
// pair made at U_k (the fresh one) is not projected, as before (it is tangent there).
//
// The recursion runs on inner products (Nocedal & Wright's two-loop written in coefficients,
// as in Chen et al.'s vector-free L-BFGS, NeurIPS 2014): <s_i, y_j> and <y_i, y_j> of the stored
// (transported) vectors are kept between iterations and updated for the transport, which
// changes them by a sum over columns of radial components,
//   <P_U a, P_U b> = <a, b> - sum_i (u_i . a_i)(u_i . b_i)      (|u_i| = 1),
// and the direction is one combination of g and the stored vectors. So an iteration passes over
// the 2 m stored d x N vectors twice (the first reads and writes them, the second reads them),
// where the transport read and wrote each of them, and the two-loop then read each twice and
// read and wrote its d x N iterate q 4 m times (at N = 2e4, d = 128, m = 10 a pass over the
// pairs is 400 MB; the memory's bandwidth is what an iteration costs). The passes go by blocks
// of columns, each vector's block read in one sequential run.
//
// Problems whose pairs fit in the caches take the plain form instead (transport, then the
// two-loop on the vectors): keeping the inner products costs O(m^2 N) products a pass besides
// the O(m N d) both forms take, and there the passes' traffic costs little. Measured on this
// machine (BM_RlbfgsIteration, CPU ms per iteration, kept against plain): N = 2000, d = 32
// (10 MB of pairs) 1.59 against 1.23; N = 5000, d = 32 (26 MB) 5.1 against 3.9; N = 2000,
// d = 128 (41 MB) 6.0 against 7.0; N = 2e4, d = 128 (410 MB) 66 against 78; and the default
// command's 105 solves of N = 24, d = 3, 36 ms against 29. Both forms are the same recursion
// and transport: they agree to rounding (tests/solvers/test_rlbfgs_pairs.cpp).
class PairMemory {
 public:
  // The kept inner products from 32 MB of pairs (2 m d x N doubles) on: about the L3 cache.
  static bool keeps_inner_products(int capacity, const Matrix& U) {
    return 16.0 * capacity * static_cast<double>(U.size()) >= 32.0 * (1 << 20);
  }

  PairMemory(int capacity, bool keep_inner_products)
      : keep_(keep_inner_products), m_(static_cast<std::size_t>(capacity)), s_(m_), y_(m_), rho_(m_),
        sy_slot_(m_ * m_), yy_slot_(m_ * m_), sy_(m_ * m_), yy_(m_ * m_), gs_(m_), gy_(m_), a_(m_), cs_(m_), cy_(m_),
        sn_y_(m_), s_yn_(m_), y_yn_(m_) {}

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  void clear() {
    size_ = 0;
    fresh_ = false;
  }

  // Appends (s, y), tangent at the current iterate, with rho = 1 / <s, y> and <y, y>, dropping
  // the oldest pair when full. s and y are swapped into the ring; they come back holding the
  // dropped slot's storage. Their inner products with the other stored vectors are taken in
  // the next direction()'s first pass.
  void push(Matrix& s, Matrix& y, double sy, double yy) {
    if (size_ == m_) {
      first_ = (first_ + 1) % m_;
      --size_;
    }
    const std::size_t k = slot(size_++);
    s_[k].swap(s);
    y_[k].swap(y);
    rho_[k] = 1.0 / sy;
    sy_slot_[k * m_ + k] = sy;
    yy_slot_[k * m_ + k] = yy;
    fresh_ = true;
  }

  // p = -H g for the L-BFGS inverse-Hessian approximation H of the pairs, at the iterate U
  // (g tangent there), the iterate the solver moved to since the last call: the pairs other
  // than the fresh one are transported to U first.
  void direction(const Matrix& U, const Matrix& g, Matrix& p) {
    p.resize(g.rows(), g.cols());
    if (empty()) {
      p = -g;
      return;
    }
    if (!keep_) {
      plain_direction(U, g, p);
      return;
    }
    transport_and_gather(U, g);
    const std::size_t n = size_;
    // First loop, newest to oldest: q = g - sum_{j > k} a_j y_j, a_k = rho_k <s_k, q>.
    for (std::size_t k = n; k-- > 0;) {
      double sq = gs_[k];
      for (std::size_t j = k + 1; j < n; ++j) sq -= a_[j] * sy_[k * m_ + j];
      a_[k] = rho_[slot(k)] * sq;
    }
    // Initial Hessian gamma I with gamma = <s, y> / <y, y> of the newest pair (rho as made).
    const double gamma = 1.0 / (rho_[slot(n - 1)] * yy_[(n - 1) * m_ + n - 1]);
    // r = gamma q, then oldest to newest: r += (a_k - b_k) s_k with b_k = rho_k <y_k, r>; so
    // r = gamma g + sum_k cy_k y_k + sum_k cs_k s_k with cy_k = -gamma a_k, cs_k = a_k - b_k.
    for (std::size_t k = 0; k < n; ++k) {
      double yr = gy_[k];
      for (std::size_t j = 0; j < n; ++j) yr -= a_[j] * yy_[k * m_ + j];
      yr *= gamma;
      for (std::size_t j = 0; j < k; ++j) yr += cs_[j] * sy_[j * m_ + k];
      cs_[k] = a_[k] - rho_[slot(k)] * yr;
      cy_[k] = -gamma * a_[k];
    }
    combine(U, g, gamma, p);
  }

 private:
  static constexpr Index kBlock = 2048;  // columns per block (2 MB of a vector at d = 128): measured best of 32-32768

  std::size_t slot(std::size_t k) const { return (first_ + k) % m_; }

  // The plain form: every pair but the fresh one projected onto the tangent space at U, then
  // the two-loop recursion on the vectors.
  void plain_direction(const Matrix& U, const Matrix& g, Matrix& p) {
    const std::size_t n = size_;
    for (std::size_t k = 0; k < (fresh_ ? n - 1 : n); ++k) {
      project_onto_tangent(U, s_[slot(k)]);
      project_onto_tangent(U, y_[slot(k)]);
    }
    fresh_ = false;
    p = g;
    for (std::size_t k = n; k-- > 0;) {
      a_[k] = rho_[slot(k)] * inner(s_[slot(k)], p);
      p -= a_[k] * y_[slot(k)];
    }
    p *= 1.0 / (rho_[slot(n - 1)] * y_[slot(n - 1)].squaredNorm());
    for (std::size_t k = 0; k < n; ++k) {
      const double b = rho_[slot(k)] * inner(y_[slot(k)], p);
      p += (a_[k] - b) * s_[slot(k)];
    }
    p = -p;
  }

  // The first pass, by blocks of columns: each stored vector but the fresh pair's is projected
  // onto the tangent space at U in place (its radial components kept for the inner products'
  // update), and <s_k, g>, <y_k, g> are taken, with the fresh pair's inner products with the
  // others. Then sy_ = <s_i, y_j> and yy_ = <y_i, y_j> by age (0 the oldest).
  void transport_and_gather(const Matrix& U, const Matrix& g) {
    const std::size_t n = size_;
    const std::size_t moved = fresh_ ? n - 1 : n;  // the pairs transported: all but the fresh one
    const Index d = U.rows(), N = U.cols();
    const Index block = std::min(kBlock, N);
    radial_.resize(2 * m_ * static_cast<std::size_t>(block));  // allocates on the first call only
    std::fill(gs_.begin(), gs_.end(), 0.0);
    std::fill(gy_.begin(), gy_.end(), 0.0);
    std::fill(sy_.begin(), sy_.end(), 0.0);  // until the end: the radial products' sums
    std::fill(yy_.begin(), yy_.end(), 0.0);
    std::fill(sn_y_.begin(), sn_y_.end(), 0.0);
    std::fill(s_yn_.begin(), s_yn_.end(), 0.0);
    std::fill(y_yn_.begin(), y_yn_.end(), 0.0);
    const double* sn = fresh_ ? s_[slot(n - 1)].data() : nullptr;
    const double* yn = fresh_ ? y_[slot(n - 1)].data() : nullptr;
    for (Index c0 = 0; c0 < N; c0 += block) {
      const Index nb = std::min(block, N - c0);
      const Index b0 = c0 * d;
      // The radial components of block c0 of vector v (2 k: s_k, 2 k + 1: y_k): radial_[v block + c].
      for (std::size_t v = 0; v < 2 * moved; ++v) {
        double* x = (v % 2 == 0 ? s_[slot(v / 2)] : y_[slot(v / 2)]).data() + b0;
        double* r = radial_.data() + v * static_cast<std::size_t>(block);
        double gx = 0.0, ynx = 0.0, snx = 0.0;
        for (Index c = 0, off = 0; c < nb; ++c, off += d) {
          const double* u = U.data() + b0 + off;
          double* xc = x + off;
          const double radial = detail::column_dot(u, xc, d);
          r[c] = radial;
#pragma omp simd
          for (Index i = 0; i < d; ++i) xc[i] -= radial * u[i];
          gx += detail::column_dot(xc, g.data() + b0 + off, d);
          if (fresh_) {
            ynx += detail::column_dot(xc, yn + b0 + off, d);
            if (v % 2 == 1) snx += detail::column_dot(xc, sn + b0 + off, d);
          }
        }
        const std::size_t k = v / 2;
        if (v % 2 == 0) {
          gs_[k] += gx;
          s_yn_[k] += ynx;
        } else {
          gy_[k] += gx;
          y_yn_[k] += ynx;
          sn_y_[k] += snx;
        }
      }
      // The sums over the block's columns of the radial products, for the inner products' update.
      for (std::size_t i = 0; i < moved; ++i) {
        const double* rs = radial_.data() + 2 * i * static_cast<std::size_t>(block);
        const double* ryi = rs + block;
        for (std::size_t j = 0; j < moved; ++j) {
          const double* ryj = radial_.data() + (2 * j + 1) * static_cast<std::size_t>(block);
          sy_[i * m_ + j] += detail::column_dot(rs, ryj, nb);
          if (j >= i) yy_[i * m_ + j] += detail::column_dot(ryi, ryj, nb);
        }
      }
      if (fresh_) {  // the fresh pair's inner products with g
        const double* gb = g.data() + b0;
        const double* sb = sn + b0;
        const double* yb = yn + b0;
        gs_[n - 1] += detail::column_dot(sb, gb, nb * d);
        gy_[n - 1] += detail::column_dot(yb, gb, nb * d);
      }
    }
    // The kept inner products, by slot: the moved pairs' updated for the transport, the fresh
    // pair's set.
    for (std::size_t i = 0; i < moved; ++i) {
      for (std::size_t j = 0; j < moved; ++j) {
        sy_slot_[slot(i) * m_ + slot(j)] -= sy_[i * m_ + j];
        if (j >= i) {
          yy_slot_[slot(i) * m_ + slot(j)] -= yy_[i * m_ + j];
          yy_slot_[slot(j) * m_ + slot(i)] = yy_slot_[slot(i) * m_ + slot(j)];
        }
      }
    }
    if (fresh_) {
      const std::size_t kn = slot(n - 1);
      for (std::size_t k = 0; k < moved; ++k) {
        const std::size_t ks = slot(k);
        sy_slot_[kn * m_ + ks] = sn_y_[k];
        sy_slot_[ks * m_ + kn] = s_yn_[k];
        yy_slot_[kn * m_ + ks] = yy_slot_[ks * m_ + kn] = y_yn_[k];
      }
    }
    fresh_ = false;
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        sy_[i * m_ + j] = sy_slot_[slot(i) * m_ + slot(j)];
        yy_[i * m_ + j] = yy_slot_[slot(i) * m_ + slot(j)];
      }
    }
  }

  // The second pass: p = -P_U (gamma g + sum_k cy_k y_k + sum_k cs_k s_k), by blocks of columns
  // (the projection removes the rounding's radial part: every term is tangent at U).
  void combine(const Matrix& U, const Matrix& g, double gamma, Matrix& p) const {
    const std::size_t n = size_;
    const Index d = U.rows(), N = U.cols();
    for (Index c0 = 0; c0 < N; c0 += kBlock) {
      const Index len = std::min(kBlock, N - c0) * d, b0 = c0 * d;
      double* pb = p.data() + b0;
      const double* gb = g.data() + b0;
#pragma omp simd
      for (Index i = 0; i < len; ++i) pb[i] = gamma * gb[i];
      for (std::size_t k = 0; k < n; ++k) {
        const double* sb = s_[slot(k)].data() + b0;
        const double* yb = y_[slot(k)].data() + b0;
        const double a = cs_[k], b = cy_[k];
#pragma omp simd
        for (Index i = 0; i < len; ++i) pb[i] += a * sb[i] + b * yb[i];
      }
      for (Index off = 0; off < len; off += d) {
        const double* u = U.data() + b0 + off;
        double* pc = pb + off;
        const double radial = detail::column_dot(u, pc, d);
#pragma omp simd
        for (Index i = 0; i < d; ++i) pc[i] = radial * u[i] - pc[i];
      }
    }
  }

  bool keep_;  // the kept inner products (large problems), or the plain form
  std::size_t m_;
  std::vector<Matrix> s_, y_;
  std::vector<double> rho_;
  // The stored vectors' inner products by slot (m x m, row-major): sy_slot_[i m + j] = <s_i, y_j>.
  std::vector<double> sy_slot_, yy_slot_;
  // Per direction(), by age: inner products, <s_k, g>, <y_k, g>, the first loop's a_k, the
  // combination's coefficients, the fresh pair's <s_new, y_k>, <s_k, y_new>, <y_k, y_new>, and
  // one block's radial components.
  std::vector<double> sy_, yy_, gs_, gy_, a_, cs_, cy_, sn_y_, s_yn_, y_yn_, radial_;
  std::size_t first_ = 0, size_ = 0;
  bool fresh_ = false;  // the newest pair was pushed since the last direction(): tangent at U
};

// The new pair after an accepted step from the iterate with gradient g along p (step t) to
// U_next, where the Euclidean gradient is G_next: g_next = P G_next, s = P(t p) and
// y = g_next - P g, all projections at U_next, in one pass over the columns (it was six, each
// reading and writing d x N matrices), with <s, y>, <s, s> and <y, y> when `products` (summed
// by columns). D > 0 fixes the column length at compile time, as project_onto_tangent does for
// d <= 4, with the same sums.
struct PairProducts {
  double sy = 0.0, ss = 0.0, yy = 0.0;
};

template <Index D>
PairProducts next_pair(const Matrix& U_next, const Matrix& G_next, const Matrix& g, const Matrix& p, double t,
                       bool products, Matrix& g_next, Matrix& s, Matrix& y) {
  const Index d = D > 0 ? D : U_next.rows(), N = U_next.cols();
  const auto dot = [&](const double* a, const double* b) {
    if constexpr (D > 0) {
      double sum = 0.0;
      for (Index i = 0; i < D; ++i) sum += a[i] * b[i];
      return sum;
    } else {
      return detail::column_dot(a, b, d);
    }
  };
  PairProducts out;
  for (Index c = 0; c < N; ++c) {
    const Index off = c * d;
    const double* u = U_next.data() + off;
    const double* Gc = G_next.data() + off;
    const double* gc = g.data() + off;
    const double* pc = p.data() + off;
    double* gn = g_next.data() + off;
    double* sc = s.data() + off;
    double* yc = y.data() + off;
    const double rG = dot(u, Gc), rg = dot(u, gc);
    for (Index i = 0; i < d; ++i) {
      gn[i] = Gc[i] - rG * u[i];
      sc[i] = t * pc[i];
    }
    const double rs = dot(u, sc);
    for (Index i = 0; i < d; ++i) {
      sc[i] -= rs * u[i];
      yc[i] = gn[i] - (gc[i] - rg * u[i]);
    }
    if (products) {
      out.sy += dot(sc, yc);
      out.ss += dot(sc, sc);
      out.yy += dot(yc, yc);
    }
  }
  return out;
}

PairProducts next_pair(const Matrix& U_next, const Matrix& G_next, const Matrix& g, const Matrix& p, double t,
                       bool products, Matrix& g_next, Matrix& s, Matrix& y) {
  g_next.resize(U_next.rows(), U_next.cols());
  s.resize(U_next.rows(), U_next.cols());
  y.resize(U_next.rows(), U_next.cols());
  switch (U_next.rows()) {
    case 2: return next_pair<2>(U_next, G_next, g, p, t, products, g_next, s, y);
    case 3: return next_pair<3>(U_next, G_next, g, p, t, products, g_next, s, y);
    case 4: return next_pair<4>(U_next, G_next, g, p, t, products, g_next, s, y);
    default: return next_pair<0>(U_next, G_next, g, p, t, products, g_next, s, y);
  }
}

// The solver's state on the host, as Eigen matrices: rlbfgs_iterations's space
// (solvers/rlbfgs_loop.hpp). Every d x N work matrix is allocated once, here, and reused by swaps.
class HostSpace {
 public:
  HostSpace(const Objective& objective, int memory, Matrix& U, detail::FirstOrder& start)
      : objective_(objective),
        keep_(PairMemory::keeps_inner_products(memory, U)),
        pairs_(memory, keep_),
        U_(U),
        G_(start.G),
        g_(start.g),
        G_next_(U.rows(), U.cols()),
        g_next_(U.rows(), U.cols()),
        s_(U.rows(), U.cols()),
        y_(U.rows(), U.cols()) {}

  double gradient_norm() const { return g_.norm(); }
  double euclidean_norm() const { return G_.norm(); }
  void direction() { pairs_.direction(U_, g_, p_); }
  double slope() const { return inner(g_, p_); }
  double steepest() {
    pairs_.clear();
    p_ = -g_;
    return -g_.squaredNorm();
  }
  bool pairs_empty() const { return pairs_.empty(); }
  void clear_pairs() { pairs_.clear(); }
  double largest_step() const { return p_.colwise().norm().maxCoeff(); }
  double evaluate_trial(double t) {
    retract_step(U_, t, p_, U_next_);
    return objective_.evaluate_with_gradient(U_next_, G_next_);
  }
  double trial_slope(double t) const { return retraction_slope(U_, t, p_, G_next_); }
  void accept(double t) {
    auto [sy, ss, yy] = next_pair(U_next_, G_next_, g_, p_, t, keep_, g_next_, s_, y_);
    if (!keep_) {  // the plain form's sums, as before issue 49: a small problem's result is the same to the last bit
      sy = inner(s_, y_);
      ss = s_.squaredNorm();
      yy = y_.squaredNorm();
    }
    if (sy > 1e-10 * std::sqrt(ss) * std::sqrt(yy)) {  // cautious update: keep only positive curvature
      pairs_.push(s_, y_, sy, yy);
    }
    U_.swap(U_next_);
    G_.swap(G_next_);
    g_.swap(g_next_);
  }
  double constraint_violation() const { return max_norm_violation(U_); }

 private:
  const Objective& objective_;
  bool keep_;
  PairMemory pairs_;
  Matrix& U_;
  Matrix &G_, &g_;
  Matrix p_, U_next_, G_next_, g_next_, s_, y_;
};

}  // namespace

std::vector<std::pair<std::string, double>> RlbfgsSolver::settings() const {
  return {{"memory", options_.memory},
          {"gradient_tolerance", options_.gradient_tolerance},
          {"ftol", options_.ftol},
          {"ftol_window", options_.ftol_window},
          {"max_iterations", options_.max_iterations},
          {"max_seconds", options_.max_seconds},
          {"stationarity_tolerance", options_.stationarity_tolerance}};
}

double RlbfgsSolver::state_bytes(Index num_points, Index dim) const {
  return 8.0 * static_cast<double>(num_points) * static_cast<double>(dim) * (2.0 * std::max(options_.memory, 1) + 12.0);
}

SolveSummary RlbfgsSolver::minimize(const Objective& objective, Matrix& U) const {
  const auto start = std::chrono::steady_clock::now();
  require_at_least("memory", options_.memory, 1);
  detail::FirstOrder first = detail::start_on_sphere(objective, U);
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  SolveSummary summary;
  summary.evaluations = 1;
  HostSpace space(objective, options_.memory, U, first);
  detail::rlbfgs_iterations(space, first.f, options_, elapsed, summary);
  return summary;
}

}  // namespace geomsim
