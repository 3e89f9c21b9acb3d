// Seed 004: Theorem 1 and Lemmas 2-3 checked on data over a grid, each with the margin it
// leaves (issue 29, section 5). The Rademacher terms of these statements have no general
// estimator; they are exact here because each function class is one whose complexity is known:
//   Lemma 2: one fixed linear autoencoder (a class of one function: R^2_n = 0),
//   Lemma 3: one fixed encoder that every augmentation leaves unchanged (R^1_n = 0),
//   Theorem 1: the class-constant encoders x -> v_{h(x)}, v_y on S^{d-1}, whose elementwise
//     Rademacher complexity on n points of one class is E|sigma_1 + ... + sigma_n| / n.
// The margins are printed by  build/tests/geomsim_tests "[.lemma_grid_table]".
#include <catch2/catch.hpp>
#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "geomsim/metrics/subclass_geometry.hpp"
#include "geomsim/support/random.hpp"
#include "geomsim/theory/subclass_clustering_bounds.hpp"

using namespace geomsim;

namespace {

// Inputs in R^4: a subclass is mu + (s_main u1, s_main u2, s_noise u3, s_noise u4), u uniform
// on [-1, 1]^4; z at (1.5, 0, 0, 0), z' at (-1.5, 0.5, 0, 0). The last two coordinates are the
// part an autoencoder with a 2-d code cannot keep.
struct Inputs {
  double s_main = 0.5, s_noise = 0.1;
  Vector draw(int subclass, Rng& rng) const {
    Vector x(4);
    x << (subclass == 0 ? 1.5 : -1.5), (subclass == 0 ? 0.0 : 0.5), 0.0, 0.0;
    for (int k = 0; k < 4; ++k) x(k) += (k < 2 ? s_main : s_noise) * (2.0 * rng.uniform() - 1.0);
    return x;
  }
};

Matrix random_matrix(int rows, int cols, Rng& rng) {
  Matrix A(rows, cols);
  for (Index i = 0; i < A.size(); ++i) A(i) = rng.normal();
  return A;
}

// sigma_f(z) = E|f(x) - E f| and its standard error, from N draws (two passes: mean, then distances).
struct Estimate {
  double value, se;
};
template <class F>
Estimate sigma_of(const Inputs& in, int subclass, F f, int N, Rng& rng) {
  Eigen::Matrix<double, 2, Eigen::Dynamic> fx(2, N);  // fixed rows: see lemma2_grid
  for (int i = 0; i < N; ++i) fx.col(i) = f(in.draw(subclass, rng));
  const Vector mean = fx.rowwise().mean();
  const Eigen::ArrayXd d = (fx.colwise() - mean).colwise().norm().array();
  const double m = d.mean();
  return {m, std::sqrt((d - m).square().sum() / (N - 1.0) / N)};
}

// E|a - b| over independent pairs, as a mean of N independent distances.
template <class A>
Estimate pair_distance(A draw_pair_distance, int N) {
  double s = 0.0, s2 = 0.0;
  for (int i = 0; i < N; ++i) {
    const double d = draw_pair_distance();
    s += d;
    s2 += d * d;
  }
  const double m = s / N;
  return {m, std::sqrt(std::max(0.0, s2 / N - m * m) / (N - 1.0))};
}

constexpr int kPopulation = 100000;  // draws for each population quantity
constexpr double kSe = 6.0;          // population quantities are used 6 standard errors against the bound
constexpr double kDelta = 0.05;
constexpr int kDraws = 200;          // independent training sets per grid point (Lemma 2)

struct Lemma2Row {
  double scale, s_noise, q, n;
  double sigma_f, sigma_f_se, k_g, sigma_z, b, bound_min, margin, share_reconstruction;
  int over;
};

// Lemma 2 for a fixed linear autoencoder f_AE(x) = R P x / a, g(u) = a P^T R^{-1} u (P keeps
// the first two coordinates): g(f_AE(x)) = P^T P x. K_g = sigma_max(R) / a exactly
// (|f(x) - f(x')| = |R P (x - x')| / a <= sigma_max(R)/a |P(x - x')|). b = max_x |x - P^T P x|^2
// = 2 s_noise^2 on the class's support (the last two coordinates are 0 at both centres).
std::vector<Lemma2Row> lemma2_grid() {
  std::vector<Lemma2Row> rows;
  Rng setup(404);
  const Matrix R = random_matrix(2, 2, setup);
  const double smax = Eigen::JacobiSVD<Matrix>(R).singularValues()(0);
  for (double scale : {0.5, 2.0}) {
    for (double s_noise : {0.05, 0.3}) {
      Inputs in;
      in.s_noise = s_noise;
      // Fixed-size 2 x 2 products: GCC 12 misreads the dynamic ones' SSE2 copies (stringop-overread).
      const Eigen::Matrix2d R2 = R;
      const auto f = [&](const Vector& x) -> Eigen::Vector2d { return R2 * x.head<2>() / scale; };
      Rng rng(1000 + static_cast<std::uint64_t>(100 * scale + 10 * s_noise));
      const Estimate sf = sigma_of(in, 0, f, kPopulation, rng);
      const Estimate sz = pair_distance([&] { return (in.draw(0, rng) - in.draw(0, rng)).norm(); }, kPopulation);
      for (double q : {0.5, 0.2}) {
        for (double n : {100.0, 1000.0, 10000.0}) {
          Lemma2Row row{};
          row.scale = scale;
          row.s_noise = s_noise;
          row.q = q;
          row.n = n;
          row.sigma_f = sf.value;
          row.sigma_f_se = sf.se;
          row.k_g = smax / scale;
          row.sigma_z = sz.value - kSe * sz.se;  // the smaller sigma_z the smaller the bound
          row.b = 2.0 * s_noise * s_noise;
          row.bound_min = 1e300;
          double share = 0.0;
          for (int draw = 0; draw < kDraws; ++draw) {
            // D_y: n_y points of class y, z with probability q. L_AE = mean |x - P^T P x|^2.
            double loss = 0.0;
            for (int i = 0; i < static_cast<int>(n); ++i) loss += in.draw(rng.uniform() < q ? 0 : 1, rng).tail(2).squaredNorm();
            loss /= n;
            Lemma2Inputs l;
            l.reverse_lipschitz = row.k_g;
            l.p_z_given_y = q;
            l.reconstruction_loss = loss;
            l.rademacher = 0.0;
            l.loss_bound = row.b;
            l.delta = kDelta;
            l.n = n;
            l.sigma_z = row.sigma_z;
            const double bound = lemma2_bound(l);
            if (bound < row.sigma_f + kSe * row.sigma_f_se) ++row.over;
            row.bound_min = std::min(row.bound_min, bound);
            share += (bound - row.k_g * row.sigma_z) / bound;
          }
          row.margin = row.bound_min - row.sigma_f;
          row.share_reconstruction = share / kDraws;
          rows.push_back(row);
        }
      }
    }
  }
  return rows;
}

struct Lemma3Row {
  double s_aug, q, n;
  double sigma_f, sigma_f_se, k_aug, sigma_aug, bound, margin;
};

// Lemma 3 with the augmentation a(x) = (x1, x2, e1, e2), e uniform on [-s_aug, s_aug]^2 fresh
// each time (it replaces the nuisance coordinates), and the encoder f(x) = B P x: f(a(x)) = f(x)
// for every x, so R^1_n(F_aug, F_aug o A) = 0 exactly; K_aug = sigma_max(B) (|f(a(x)) - f(a(x'))|
// = |B P (a(x) - a(x'))| <= sigma_max(B) |a(x) - a(x')|). p(z) = q p(y), p(y) = 1/2.
std::vector<Lemma3Row> lemma3_grid() {
  std::vector<Lemma3Row> rows;
  Rng setup(505);
  const Matrix B = random_matrix(2, 2, setup);
  const double smax = Eigen::JacobiSVD<Matrix>(B).singularValues()(0);
  const Inputs in;
  const Eigen::Matrix2d B2 = B;  // fixed size, as in lemma2_grid
  const auto f = [&](const Vector& x) -> Eigen::Vector2d { return B2 * x.head<2>(); };
  Rng rng(2000);
  const Estimate sf = sigma_of(in, 0, f, kPopulation, rng);
  for (double s_aug : {0.0, 0.5, 2.0}) {
    const auto augment = [&](Vector x) {
      for (int k = 2; k < 4; ++k) x(k) = s_aug * (2.0 * rng.uniform() - 1.0);
      return x;
    };
    const Estimate sa =
        pair_distance([&] { return (augment(in.draw(0, rng)) - augment(in.draw(0, rng))).norm(); }, kPopulation);
    for (double q : {0.5, 0.2}) {
      for (double n : {100.0, 10000.0, 1e6}) {
        Lemma3Row row{};
        row.s_aug = s_aug;
        row.q = q;
        row.n = n;
        row.sigma_f = sf.value;
        row.sigma_f_se = sf.se;
        row.k_aug = smax;
        row.sigma_aug = sa.value - kSe * sa.se;
        Lemma3Inputs l;
        l.augmentation_lipschitz = smax;
        l.p_z = q / 2.0;
        l.rademacher = 0.0;
        l.delta = kDelta;
        l.n = n;
        l.sigma_aug_z = row.sigma_aug;
        row.bound = lemma3_bound(l);
        row.margin = row.bound - row.sigma_f;
        rows.push_back(row);
      }
    }
  }
  return rows;
}

// E|sigma_1 + ... + sigma_n| for n Rademacher signs, exactly (log-space binomial weights).
double mean_abs_rademacher_sum(int n) {
  double s = 0.0;
  for (int j = 0; j <= n; ++j) {
    s += std::exp(std::lgamma(n + 1.0) - std::lgamma(j + 1.0) - std::lgamma(n - j + 1.0) - n * std::log(2.0)) *
         std::abs(2.0 * j - n);
  }
  return s;
}

struct Theorem1Row {
  int d, n, m;
  double log_gamma, rademacher, bound, error, margin;
};

// Theorem 1 on the class-constant encoders F = {x -> v_{h(x)} : v_y in S^{d-1}}. f_SC is the
// simplex solution (Graf et al., seed 004 §2.3: delta_v minimises SupCon); every point of a class
// maps to v_y, so W_z = W_z' and the score f(x).(W_z - W_z') is 0 <= log gamma: L = 1.
// R_n(F_j) on n points of one class = sup over v_y[j] in [-1, 1] of (1/n) sum sigma_i v_y[j]
// = E|sum sigma_i| / n (each coordinate of a unit vector takes every value in [-1, 1] for d >= 2),
// and R_n(F) = d R_n(F_j). n_z = n_z' = n.
std::vector<Theorem1Row> theorem1_grid() {
  std::vector<Theorem1Row> rows;
  for (int d : {2, 8}) {
    for (int n : {1000, 10000, 100000}) {
      const double R = d * mean_abs_rademacher_sum(n) / n;
      for (int m : {10, 100, 1000}) {
        for (double extra : {1e-9, 0.5, 2.0}) {  // log gamma = 8 R + extra: the condition's edge (1e-9 for rounding), beyond
          Theorem1Row row{};
          row.d = d;
          row.n = n;
          row.m = m;
          row.rademacher = R;
          row.log_gamma = 8.0 * R + extra;
          row.bound = theorem1_lower_bound(n, n, m, d, std::exp(row.log_gamma), R, R);
          // The measured error: the mean classifier on m collapsed points per subclass, on 1000
          // fresh collapsed points of z.
          Matrix Ds(d, 2 * m), fresh(d, 1000);
          Vector v = Vector::Zero(d);
          v(0) = 1.0;  // v_y; the other class's vertex plays no part in coarse-to-fine transfer
          Ds.colwise() = v;
          fresh.colwise() = v;
          std::vector<int> ds_sub(static_cast<std::size_t>(2 * m), 0), fresh_sub(1000, 0);
          for (int i = m; i < 2 * m; ++i) ds_sub[static_cast<std::size_t>(i)] = 1;
          const MeanClassifier classifier(Ds, ds_sub);
          // margin_error counts p(z|f) < gamma p(z'|f); the theorem's event is <= (eq. (5)); at a
          // score of exactly 0 < log gamma the two agree.
          row.error = classifier.margin_error(fresh, fresh_sub, 0, 1, std::exp(row.log_gamma));
          row.margin = row.error - row.bound;
          rows.push_back(row);
        }
      }
    }
  }
  return rows;
}

}  // namespace

TEST_CASE("Lemma 2 holds for a fixed linear autoencoder over a grid", "[theory][lemmas][lemma_grid]") {
  for (const auto& row : lemma2_grid()) {
    INFO("a = " << row.scale << ", s_noise = " << row.s_noise << ", p(z|y) = " << row.q << ", n_y = " << row.n);
    // The lemma says w.p. >= 1 - delta; 200 training sets: refuse it if more than 25 fail
    // (P(Binomial(200, 0.05) > 25) < 0.001).
    CHECK(row.over <= 25);
    CHECK(row.margin > 0.0);
  }
}

TEST_CASE("Lemma 3 holds for an augmentation-invariant encoder over a grid", "[theory][lemmas][lemma_grid]") {
  for (const auto& row : lemma3_grid()) {
    INFO("s_aug = " << row.s_aug << ", q = " << row.q << ", n = " << row.n);
    CHECK(row.bound >= row.sigma_f + kSe * row.sigma_f_se);
  }
}

TEST_CASE("Theorem 1 holds for class-constant encoders over a grid", "[theory][lemmas][lemma_grid]") {
  for (const auto& row : theorem1_grid()) {
    INFO("d = " << row.d << ", n = " << row.n << ", m = " << row.m << ", log gamma = " << row.log_gamma);
    CHECK(row.error == 1.0);
    CHECK(row.error >= row.bound);
  }
}

TEST_CASE("Lemma 2, Lemma 3 and Theorem 1 grid tables", "[.lemma_grid_table]") {
  std::printf("Lemma 2 (fixed linear autoencoder, R^2 = 0, delta = %.2f, %d training sets per row; population "
              "quantities from %d draws)\n",
              kDelta, kDraws, kPopulation);
  std::printf("| a | s_noise | p(z|y) | n_y | sigma_fAE(z) | K_g | sigma_z | b | smallest bound | margin | "
              "sets under sigma_f | mean share of the bound not K_g sigma_z |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : lemma2_grid()) {
    std::printf("| %.1f | %.2f | %.1f | %.0f | %.4f | %.4f | %.4f | %.4f | %.4f | %.4f | %d | %.3f |\n", r.scale, r.s_noise,
                r.q, r.n, r.sigma_f, r.k_g, r.sigma_z, r.b, r.bound_min, r.margin, r.over, r.share_reconstruction);
  }
  std::printf("\nLemma 3 (augmentation-invariant linear encoder, R^1 = 0, delta = %.2f, p(y) = 1/2)\n", kDelta);
  std::printf("| s_aug | p(z|y) | n | sigma_faug(z) | K_aug | sigma_aug_z | bound | margin |\n|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : lemma3_grid()) {
    std::printf("| %.1f | %.1f | %.0f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", r.s_aug, r.q, r.n, r.sigma_f, r.k_aug,
                r.sigma_aug, r.bound, r.margin);
  }
  std::printf("\nTheorem 1 (class-constant encoders; n_z = n_z' = n, m_z = m_z' = m)\n");
  std::printf("| d | n | m | R_n(F) | log gamma | lower bound | measured L | L - bound |\n|---|---|---|---|---|---|---|---|\n");
  for (const auto& r : theorem1_grid()) {
    std::printf("| %d | %d | %d | %.5f | %.5f | %.6f | %.4f | %.6f |\n", r.d, r.n, r.m, r.rademacher, r.log_gamma, r.bound,
                r.error, r.margin);
  }
  std::fflush(stdout);
  SUCCEED();
}
