// The contrastive tiles' passes (contrastive_tiles.hpp), compiled once per x86-64 level in a
// portable build (CMakeLists.txt: geomsim_cpu_kernel) and chosen at run time by
// contrastive_tiles.cpp; once, for the build's own flags, elsewhere. Each compilation puts its
// code in the namespace GEOMSIM_CPU_NAMESPACE and, with -fvisibility=hidden and objcopy
// --localize-hidden, keeps every other symbol it emits (Eigen's GEMM, std::function's) to
// itself: the levels' copies of one template never merge at link time.
#include <omp.h>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "objectives/contrastive_tiles_kernel.hpp"

namespace geomsim::GEOMSIM_CPU_NAMESPACE {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// At most three half-open runs [first, second) of a tile row's columns.
struct Runs {
  std::array<std::pair<Index, Index>, 3> run{};
  int count = 0;
  void add(Index a, Index b) {
    if (b > a) run[static_cast<std::size_t>(count++)] = {a, b};
  }
  // These runs without column x (nothing when x is in none).
  Runs without(Index x) const {
    Runs r;
    for (int k = 0; k < count; ++k) {
      const auto [a, b] = run[static_cast<std::size_t>(k)];
      if (x >= a && x < b) {
        r.add(a, x);
        r.add(x + 1, b);
      } else {
        r.add(a, b);
      }
    }
    return r;
  }
  template <class F>
  void each(F&& f) const {
    for (int k = 0; k < count; ++k) f(run[static_cast<std::size_t>(k)].first, run[static_cast<std::size_t>(k)].second);
  }
};

// Row i's columns within a tile whose columns are [c0, c0 + cn), in the tile's coordinates.
struct RowColumns {
  Runs negatives, positives, denominator;
  Index partner = -1;  // the partner's column in the tile, or -1
};

template <class T>
RowColumns row_columns(const ContrastiveRows<T>& b, Index i, Index c0, Index cn) {
  const auto clamp = [&](std::int64_t x) { return std::clamp<Index>(static_cast<Index>(x) - c0, 0, cn); };
  const Index lo = clamp(b.class_first[i]), hi = clamp(b.class_last[i]);
  RowColumns c;
  c.negatives.add(0, lo);
  c.negatives.add(hi, cn);
  Runs same;
  same.add(lo, hi);
  c.positives = same.without(i - c0);
  c.denominator = c.positives;
  if (b.partner != nullptr && b.partner[i] >= 0) {
    const Index p = static_cast<Index>(b.partner[i]) - c0;
    if (p >= lo && p < hi) {
      c.partner = p;
      c.denominator = c.positives.without(p);
    }
  }
  return c;
}

template <class T>
using Array = Eigen::Array<T, Eigen::Dynamic, 1>;
template <class T>
using ConstMap = Eigen::Map<const Array<T>>;
template <class T>
using Map = Eigen::Map<Array<T>>;
template <class T>
using RowMajor = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// An online log-sum-exp: sum of e^{s - max} and that max, both in double.
struct OnlineLse {
  double max = -kInf, sum = 0.0;
  double value() const { return max == -kInf ? -kInf : max + std::log(sum); }
};

template <class T>
void add_runs(OnlineLse& lse, const T* s, const Runs& runs, T* scratch) {
  if (runs.count == 0) return;
  T top = -std::numeric_limits<T>::infinity();
  runs.each([&](Index a, Index b) { top = std::max(top, ConstMap<T>(s + a, b - a).maxCoeff()); });
  const double next = std::max(lse.max, static_cast<double>(top));
  if (next == -kInf) return;
  if (next != lse.max) lse.sum *= std::exp(lse.max - next);
  lse.max = next;
  const T shift = static_cast<T>(next);
  double sum = 0.0;
  runs.each([&](Index a, Index b) {
    auto e = Map<T>(scratch + a, b - a);
    e = (ConstMap<T>(s + a, b - a) - shift).exp();
    sum += static_cast<double>(e.sum());
  });
  lse.sum += sum;
}

// What pass 1 keeps of a row while its tiles go by.
struct RowState {
  OnlineLse negatives, positives, denominator;
  double positive_sum = 0.0, partner = 0.0;
};

template <class T>
void add_tile_row(RowState& state, const T* s, const RowColumns& c, T* scratch) {
  add_runs(state.negatives, s, c.negatives, scratch);
  add_runs(state.positives, s, c.positives, scratch);
  add_runs(state.denominator, s, c.denominator, scratch);
  double sum = 0.0;
  c.positives.each([&](Index a, Index b) { sum += static_cast<double>(ConstMap<T>(s + a, b - a).sum()); });
  state.positive_sum += sum;
  if (c.partner >= 0) state.partner = static_cast<double>(s[c.partner]);
}

// L_sup's sums over a tile row's positives, for nu = lse_N(i) (finite).
template <class T>
void add_sup_terms(double& softplus_sum, double& sigmoid_sum, const T* s, const Runs& positives, T nu, T* t_scratch,
                   T* u_scratch) {
  positives.each([&](Index a, Index b) {
    auto t = Map<T>(t_scratch, b - a), u = Map<T>(u_scratch, b - a);
    t = nu - ConstMap<T>(s + a, b - a);
    u = (-t.abs()).exp();
    softplus_sum += static_cast<double>((t.max(T(0)) + u.log1p()).sum());
    sigmoid_sum += static_cast<double>((t >= T(0)).select(T(1) / (T(1) + u), u / (T(1) + u)).sum());
  });
}

// Row i's coefficients over a tile row (out[0, cn)), from its statistics and weights.
template <class T>
void coefficient_row(const T* s, const RowColumns& c, Index cn, const double* stat, const double* w, T* out, T* t_scratch,
                     T* u_scratch) {
  Map<T>(out, cn).setZero();
  const auto exp_into = [&](const Runs& runs, double weight, double lse, bool add) {
    if (weight == 0.0 || lse == -kInf) return;
    const T wt = static_cast<T>(weight), shift = static_cast<T>(lse);
    runs.each([&](Index a, Index b) {
      auto o = Map<T>(out + a, b - a);
      if (add) {
        o += wt * (ConstMap<T>(s + a, b - a) - shift).exp();
      } else {
        o = wt * (ConstMap<T>(s + a, b - a) - shift).exp();
      }
    });
  };
  exp_into(c.negatives, w[kWeightNegatives], stat[kLseNegatives], false);
  exp_into(c.positives, w[kWeightPositives], stat[kLsePositives], true);
  exp_into(c.denominator, w[kWeightDenominator], stat[kLseDenominator], true);
  if (w[kWeightSigmoid] != 0.0 && stat[kLseNegatives] != -kInf) {
    const T g = static_cast<T>(w[kWeightSigmoid]), nu = static_cast<T>(stat[kLseNegatives]);
    c.positives.each([&](Index a, Index b) {
      auto t = Map<T>(t_scratch, b - a), u = Map<T>(u_scratch, b - a);
      t = nu - ConstMap<T>(s + a, b - a);
      u = (-t.abs()).exp();
      Map<T>(out + a, b - a) += g * (t >= T(0)).select(T(1) / (T(1) + u), u / (T(1) + u));
    });
  }
  if (w[kWeightConstant] != 0.0) {
    const T k = static_cast<T>(w[kWeightConstant]);
    c.positives.each([&](Index a, Index b) { Map<T>(out + a, b - a) += k; });
  }
  if (c.partner >= 0) out[c.partner] += static_cast<T>(w[kWeightPartner]);
}

bool weighted(const double* w) {
  for (int k = 0; k < kRowWeights; ++k) {
    if (w[k] != 0.0) return true;
  }
  return false;
}

// Per-thread tiles: the similarities, their transpose, and the two sides' coefficients.
template <class T>
struct Scratch {
  RowMajor<T> s{kBlock, kBlock}, st{kBlock, kBlock}, rows{kBlock, kBlock}, columns{kBlock, kBlock};
  Array<T> t{kBlock}, u{kBlock};
};

template <class T>
class Tiles {
 public:
  explicit Tiles(const ContrastiveRows<T>& b)
      : b_(b), z_(b.z, b.n, b.dim), scratch_(static_cast<std::size_t>(omp_get_max_threads())) {}

  bool anchor(Index i) const { return b_.anchor == nullptr || b_.anchor[i]; }

  // Whether any row of [r0, r0 + rn) satisfies `keep`.
  template <class F>
  static bool any_row(Index r0, Index rn, F&& keep) {
    for (Index i = r0; i < r0 + rn; ++i) {
      if (keep(i)) return true;
    }
    return false;
  }

  // The tile's similarities in scratch.s (rn x cn) and, off the diagonal, their transpose.
  Scratch<T>& similarities(const Tile& t, int thread) {
    Scratch<T>& sc = scratch_[static_cast<std::size_t>(thread)];
    auto s = sc.s.topLeftCorner(t.rn, t.cn);
    s.noalias() = z_.middleRows(t.r0, t.rn) * z_.middleRows(t.c0, t.cn).transpose();
    s *= static_cast<T>(b_.inv_tau);
    if (!t.diagonal()) sc.st.topLeftCorner(t.cn, t.rn) = s.transpose();
    return sc;
  }

  const ContrastiveRows<T>& batch() const { return b_; }
  const Eigen::Map<const RowMajor<T>>& z() const { return z_; }

 private:
  const ContrastiveRows<T>& b_;
  Eigen::Map<const RowMajor<T>> z_;
  std::vector<Scratch<T>> scratch_;
};

template <class T>
void statistics_of(const ContrastiveRows<T>& b, bool sup_terms, double* statistics) {
  Tiles<T> tiles(b);
  std::vector<RowState> state(static_cast<std::size_t>(b.n));
  const auto anchor = [&](Index i) { return tiles.anchor(i); };
  // A row block's rows against a column block: tile rows `s` (stride kBlock) of rows r0.. against
  // columns c0..
  const auto rows_against = [&](const T* s, Index r0, Index rn, Index c0, Index cn, Scratch<T>& sc) {
    for (Index k = 0; k < rn; ++k) {
      const Index i = r0 + k;
      if (!anchor(i)) continue;
      add_tile_row(state[static_cast<std::size_t>(i)], s + k * kBlock, row_columns(b, i, c0, cn), sc.t.data());
    }
  };
  for_each_tile_in_rounds(b.n, [&](const Tile& t, int thread) {
    if (!Tiles<T>::any_row(t.r0, t.rn, anchor) && !Tiles<T>::any_row(t.c0, t.cn, anchor)) return;
    Scratch<T>& sc = tiles.similarities(t, thread);
    rows_against(sc.s.data(), t.r0, t.rn, t.c0, t.cn, sc);
    if (!t.diagonal()) rows_against(sc.st.data(), t.c0, t.cn, t.r0, t.rn, sc);
  });
  for (Index i = 0; i < b.n; ++i) {
    const RowState& r = state[static_cast<std::size_t>(i)];
    double* out = statistics + i * kRowStatistics;
    out[kLseNegatives] = r.negatives.value();
    out[kLsePositives] = r.positives.value();
    out[kLseDenominator] = r.denominator.value();
    out[kSumPositives] = r.positive_sum;
    out[kPartnerSimilarity] = r.partner;
    out[kSoftplusSum] = 0.0;
    out[kSigmoidSum] = 0.0;
    out[kPositives] = static_cast<double>(b.class_last[i] - b.class_first[i] - 1);
  }
  if (!sup_terms) return;
  // L_sup's pass, over the tiles that hold positives: a row's positives are its class's run, so a
  // tile holds some when the classes of its row block reach into its columns.
  const auto sup_rows = [&](const T* s, Index r0, Index rn, Index c0, Index cn, Scratch<T>& sc) {
    for (Index k = 0; k < rn; ++k) {
      const Index i = r0 + k;
      double* out = statistics + i * kRowStatistics;
      if (!anchor(i) || out[kLseNegatives] == -kInf) continue;
      const RowColumns c = row_columns(b, i, c0, cn);
      add_sup_terms(out[kSoftplusSum], out[kSigmoidSum], s + k * kBlock, c.positives, static_cast<T>(out[kLseNegatives]),
                    sc.t.data(), sc.u.data());
    }
  };
  for_each_tile_in_rounds(b.n, [&](const Tile& t, int thread) {
    const bool positives = b.class_first[t.r0] < t.c0 + t.cn && b.class_last[t.r0 + t.rn - 1] > t.c0;
    if (!positives) return;
    Scratch<T>& sc = tiles.similarities(t, thread);
    sup_rows(sc.s.data(), t.r0, t.rn, t.c0, t.cn, sc);
    if (!t.diagonal()) sup_rows(sc.st.data(), t.c0, t.cn, t.r0, t.rn, sc);
  });
}

template <class T>
void gradient_of(const ContrastiveRows<T>& b, const double* statistics, const double* weights, T* gradient) {
  Tiles<T> tiles(b);
  Eigen::Map<RowMajor<T>> g(gradient, b.n, b.dim);
  const auto active = [&](Index i) { return weighted(weights + i * kRowWeights); };
  // Coefficient rows (stride kBlock) of rows r0.. against columns c0..
  const auto coefficients = [&](const T* s, T* out, Index r0, Index rn, Index c0, Index cn, Scratch<T>& sc) {
    for (Index k = 0; k < rn; ++k) {
      const Index i = r0 + k;
      T* row = out + k * kBlock;
      if (!active(i)) {
        Map<T>(row, cn).setZero();
        continue;
      }
      coefficient_row(s + k * kBlock, row_columns(b, i, c0, cn), cn, statistics + i * kRowStatistics,
                      weights + i * kRowWeights, row, sc.t.data(), sc.u.data());
    }
  };
  for_each_tile_in_rounds(b.n, [&](const Tile& t, int thread) {
    if (!Tiles<T>::any_row(t.r0, t.rn, active) && !Tiles<T>::any_row(t.c0, t.cn, active)) return;
    Scratch<T>& sc = tiles.similarities(t, thread);
    coefficients(sc.s.data(), sc.rows.data(), t.r0, t.rn, t.c0, t.cn, sc);
    auto m = sc.rows.topLeftCorner(t.rn, t.cn);
    const auto& z = tiles.z();
    if (t.diagonal()) {
      // (C + C^T) over the tile, in place: the upper triangle first, then the lower.
      for (Index i = 0; i < t.rn; ++i) {
        for (Index j = i + 1; j < t.rn; ++j) {
          const T sum = m(i, j) + m(j, i);
          m(i, j) = sum;
          m(j, i) = sum;
        }
        m(i, i) += m(i, i);
      }
      g.middleRows(t.r0, t.rn).noalias() += m * z.middleRows(t.c0, t.cn);
      return;
    }
    coefficients(sc.st.data(), sc.columns.data(), t.c0, t.cn, t.r0, t.rn, sc);
    m += sc.columns.topLeftCorner(t.cn, t.rn).transpose();
    g.middleRows(t.r0, t.rn).noalias() += m * z.middleRows(t.c0, t.cn);
    g.middleRows(t.c0, t.cn).noalias() += m.transpose() * z.middleRows(t.r0, t.rn);
  });
}

}  // namespace

GEOMSIM_CPU_KERNEL_EXPORT void contrastive_statistics(const ContrastiveRows<float>& rows, bool sup_terms, double* statistics) {
  statistics_of(rows, sup_terms, statistics);
}
GEOMSIM_CPU_KERNEL_EXPORT void contrastive_statistics(const ContrastiveRows<double>& rows, bool sup_terms, double* statistics) {
  statistics_of(rows, sup_terms, statistics);
}
GEOMSIM_CPU_KERNEL_EXPORT void contrastive_gradient(const ContrastiveRows<float>& rows, const double* statistics,
                                                    const double* weights, float* gradient) {
  gradient_of(rows, statistics, weights, gradient);
}
GEOMSIM_CPU_KERNEL_EXPORT void contrastive_gradient(const ContrastiveRows<double>& rows, const double* statistics,
                                                    const double* weights, double* gradient) {
  gradient_of(rows, statistics, weights, gradient);
}

}  // namespace geomsim::GEOMSIM_CPU_NAMESPACE
