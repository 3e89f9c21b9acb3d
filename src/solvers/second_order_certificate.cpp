#include "geomsim/solvers/second_order_certificate.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "geomsim/manifold/product_of_spheres.hpp"
#include "geomsim/support/errors.hpp"
#include "geomsim/support/random.hpp"
#include "solvers/riemannian_hessian.hpp"

namespace geomsim {
namespace {

// The orthogonal projection of tangent vectors onto the rotation directions {A U : A skew}
// (see the header): A M + M A = eta U^T - U eta^T in the eigenbasis of M = U U^T.
class RotationProjector {
 public:
  explicit RotationProjector(const Matrix& U) : U_(U) {
    const Eigen::SelfAdjointEigenSolver<Matrix> eigen(U * U.transpose());
    V_ = eigen.eigenvectors();
    lambda_ = eigen.eigenvalues();
    const Index d = U.rows();
    // Pairs whose rotation moves nothing (both directions outside the span of U) are dropped;
    // "nothing" is relative to the largest eigenvalue, with room for rounding.
    const double floor = 1e-12 * std::max(lambda_.maxCoeff(), 0.0);
    inverse_ = Matrix::Zero(d, d);
    for (Index k = 0; k < d; ++k) {
      for (Index l = 0; l < k; ++l) {
        const double sum = lambda_[k] + lambda_[l];
        if (sum > floor) {
          inverse_(k, l) = inverse_(l, k) = 1.0 / sum;
          ++modes_;
        }
      }
    }
  }

  int modes() const { return modes_; }

  // eta minus its rotation part A U.
  Matrix complement(const Matrix& eta) const {
    const Matrix B = eta * U_.transpose();
    const Matrix Bt = V_.transpose() * (B - B.transpose()) * V_;
    const Matrix A = V_ * Bt.cwiseProduct(inverse_) * V_.transpose();
    return eta - A * U_;
  }

 private:
  const Matrix& U_;
  Matrix V_, inverse_;
  Vector lambda_;
  int modes_ = 0;
};

// The last component of the unit eigenvector of the symmetric tridiagonal matrix (diagonal a,
// off-diagonal b, unreduced) for its eigenvalue theta: two steps of inverse iteration from a
// fixed start, on an LU factorisation of T - theta I with partial pivoting (LAPACK's dstein,
// on dgttrf's factors). O(k) where the full eigenvectors cost O(k^3) per Lanczos step, which
// at 300 steps dominated the certificate of small problems (N = 100: ~1 s). A zero pivot,
// theta being exact, is replaced by the rounding of T's scale, as dstein does.
double last_eigenvector_component(const Vector& a, const Vector& b, double theta) {
  const Index k = a.size();
  if (k == 1) return 1.0;
  Vector diag = a.array() - theta, upper = b, upper2 = Vector::Zero(k), lower = b;
  std::vector<bool> swapped(static_cast<std::size_t>(k), false);
  const double tiny = std::numeric_limits<double>::epsilon() *
                      std::max(a.cwiseAbs().maxCoeff() + 2.0 * b.cwiseAbs().maxCoeff(), std::numeric_limits<double>::min());
  for (Index i = 0; i + 1 < k; ++i) {
    if (std::abs(diag[i]) >= std::abs(lower[i])) {  // no interchange
      if (diag[i] == 0.0) diag[i] = tiny;
      lower[i] /= diag[i];
      diag[i + 1] -= lower[i] * upper[i];
    } else {  // interchange rows i and i + 1
      const double l = diag[i] / lower[i];
      diag[i] = lower[i];
      lower[i] = l;
      const double u = upper[i];
      upper[i] = diag[i + 1];
      diag[i + 1] = u - l * diag[i + 1];
      if (i + 2 < k) {
        upper2[i] = upper[i + 1];
        upper[i + 1] *= -l;
      }
      swapped[static_cast<std::size_t>(i)] = true;
    }
  }
  if (diag[k - 1] == 0.0) diag[k - 1] = tiny;
  Vector x = Vector::Ones(k);
  for (int iteration = 0; iteration < 2; ++iteration) {
    for (Index i = 0; i + 1 < k; ++i) {  // L's forward solve, with the interchanges
      if (swapped[static_cast<std::size_t>(i)]) std::swap(x[i], x[i + 1]);
      x[i + 1] -= lower[i] * x[i];
    }
    for (Index i = k - 1; i >= 0; --i) {  // U's back solve: diagonal, upper, upper2
      double v = x[i];
      if (i + 1 < k) v -= upper[i] * x[i + 1];
      if (i + 2 < k) v -= upper2[i] * x[i + 2];
      x[i] = v / diag[i];
    }
    x /= x.norm();
  }
  return x[k - 1];
}

// The largest Ritz pair counts as converged, and its value as the scale, at a residual of 1e-3
// of it (it converges first: by step 5 to 4 digits at N = 2000, d = 32).
constexpr double kScaleResidual = 1e-3;

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

}  // namespace

std::string to_string(CriticalPointKind kind) {
  switch (kind) {
    case CriticalPointKind::kLocalMinimum: return "local minimum";
    case CriticalPointKind::kSaddle: return "saddle";
    case CriticalPointKind::kFlat: return "flat";
  }
  return "flat";
}

std::string SecondOrderCertificate::describe() const {
  const std::string lanczos = "Lanczos " + std::to_string(steps) + " steps";
  return to_string(kind) + (smallest_is_bound ? ": a Hessian eigenvalue at most " : ": smallest Hessian eigenvalue ") +
         scientific(smallest_eigenvalue) + " beyond " + std::to_string(rotation_modes) + " rotation modes (largest " +
         scientific(largest_eigenvalue) + "; |lambda| <= " + scientific(tolerance) + " counts as flat; " +
         (smallest_is_bound ? lanczos + ", stopped once a Ritz value proved the saddle)"
                            : lanczos + ", residual " + scientific(residual) + (converged ? ")" : ", not converged)"));
}

double certificate_bytes(Index num_points, Index dim, const CertificateOptions& options) {
  const double nd = static_cast<double>(num_points) * static_cast<double>(dim);
  return 8.0 * nd * (std::max(options.max_steps, 1) + 1.0 + 10.0);
}

SecondOrderCertificate certify_second_order(const Objective& objective, const Matrix& U_input,
                                            const CertificateOptions& options) {
  require_at_least("max_steps", options.max_steps, 1);
  if (U_input.cols() != objective.num_points()) {
    throw InvalidArgument("points", "must have " + std::to_string(objective.num_points()) + " columns, got " +
                                        std::to_string(U_input.cols()));
  }
  Matrix U = U_input;
  normalize_columns(U);
  Matrix G(U.rows(), U.cols());
  objective.evaluate_with_gradient(U, G);
  const Matrix g = project_to_tangent(U, G);
  int evaluations = 0;
  const detail::RiemannianHessian H(objective, U, G, g, evaluations);
  if (!H.exact()) throw InvalidArgument("certify", "needs an objective with an exact Hessian (" + objective.name() + " has none)");
  const RotationProjector rotations(U);

  SecondOrderCertificate out;
  out.rotation_modes = rotations.modes();
  out.dimension = U.cols() * (U.rows() - 1) - out.rotation_modes;
  if (out.dimension <= 0) {  // nothing but rotations: the orbit is all there is
    out.converged = true;
    return out;
  }
  const Index max_steps = std::min<Index>(options.max_steps, out.dimension);

  // Lanczos with full reorthogonalisation on P H P, P = tangent minus rotations.
  std::vector<Matrix> q;
  std::vector<double> alpha, beta;
  // The start: Gaussian entries from a stream of its own. (Unit columns drawn with the
  // seed of the point itself, as a test once did, project to rounding noise, whose normal
  // and rotation parts the normalisation blows up.)
  Rng rng(options.seed ^ 0x1a2c205e57a27000ULL);
  Matrix start = rotations.complement(project_to_tangent(U, random_gaussian(U.rows(), U.cols(), rng)));
  q.push_back(start / start.norm());
  Vector ritz;
  for (Index k = 0; k < max_steps; ++k) {
    Matrix w = rotations.complement(H.apply(q.back()));
    alpha.push_back(inner(q.back(), w));
    // Full reorthogonalisation, each pass after putting w back into the space: the
    // subtractions' rounding leaves a component along the rotations and the normals of
    // order 1e-16 |H q|, and once w has shrunk (the Krylov space nearly invariant, as at a
    // symmetric optimum with repeated eigenvalues) w / |w| magnifies it step after step,
    // until the basis holds rotation and normal directions and a spurious Ritz value near 0
    // (seen: 4.8e-7 where the dense spectrum's smallest is 8.4e-3).
    for (int pass = 0; pass < 2; ++pass) {
      w = rotations.complement(project_to_tangent(U, w));
      for (const Matrix& v : q) w -= inner(v, w) * v;
    }
    const double b = w.norm();
    const auto size = static_cast<Index>(alpha.size());
    const Vector diagonal = Eigen::Map<const Vector>(alpha.data(), size);
    const Vector off = size > 1 ? Vector(Eigen::Map<const Vector>(beta.data(), size - 1)) : Vector();
    Eigen::SelfAdjointEigenSolver<Matrix> T;
    T.computeFromTridiagonal(diagonal, off, Eigen::EigenvaluesOnly);
    ritz = T.eigenvalues();
    out.steps = static_cast<int>(size);
    out.smallest_eigenvalue = ritz[0];
    out.largest_eigenvalue = ritz[size - 1];
    out.residual = b * std::abs(last_eigenvector_component(diagonal, off, ritz[0]));
    const double scale = std::max(std::abs(ritz[0]), std::abs(ritz[size - 1]));
    // A proven saddle (see the header), once the largest Ritz pair, the scale, has converged (its
    // residual is computed only for a candidate).
    if (options.stop_at_saddle && ritz[0] < -options.flat_tolerance * scale &&
        b * std::abs(last_eigenvector_component(diagonal, off, ritz[size - 1])) <= kScaleResidual * scale) {
      out.smallest_is_bound = true;
      break;
    }
    // Converged when the residual is small, or when the Krylov space is the whole space (then
    // the Ritz values are the eigenvalues; the residual is rounding in the reorthogonalisation).
    out.converged = out.residual <= options.residual_tolerance * scale || b <= 1e-14 * scale || size == out.dimension;
    if (out.converged) break;
    beta.push_back(b);
    q.push_back(w / b);
  }
  const double scale = std::max(std::abs(out.smallest_eigenvalue), std::abs(out.largest_eigenvalue));
  // A residual widens the band only for a claim it bears on: a negative Ritz value proves
  // negative curvature whatever its residual.
  out.tolerance = out.smallest_is_bound ? options.flat_tolerance * scale
                                        : std::max(options.flat_tolerance * scale, out.residual);
  out.kind = out.smallest_eigenvalue > out.tolerance    ? CriticalPointKind::kLocalMinimum
             : out.smallest_eigenvalue < -out.tolerance ? CriticalPointKind::kSaddle
                                                         : CriticalPointKind::kFlat;
  return out;
}

}  // namespace geomsim
